import { Form } from "react-router";
import { StatusLinesReport, type LineColumn } from "../ui/LinesTable.tsx";
import { LineFormFields } from "../ui/line-cells.tsx";
import type { ListCartLine } from "../../../server/trade/saved-list-cart.ts";

const STATUS_TEXT = { added: "Added", "partly-added": "Partly added", "not-added": "Not added" } as const;

const REPORT_COLUMNS: LineColumn<ListCartLine>[] = [
  {
    header: "Product",
    headerClassName: "py-2 pr-2",
    cellClassName: "py-2 pr-2 font-normal",
    rowHeader: true,
    cell: (line) => (
      <>
        {line.title} <span className="font-mono text-xs">{line.sku}</span>
      </>
    ),
  },
  { header: "On the list", className: "py-2 pr-2", cell: (line) => line.quantity },
  { header: "Added", className: "py-2 pr-2", cell: (line) => line.added },
  {
    header: "Why",
    headerClassName: "py-2",
    cellClassName: (line) => `py-2 ${line.status === "added" ? "" : "font-semibold text-red-800"}`,
    cell: (line) => (
      <>
        {STATUS_TEXT[line.status]}: {line.reason}
        {line.status === "not-added" && line.available ? (
          <Form method="post" className="mt-1">
            <LineFormFields line={line} intent="add-available" />
            <button
              type="submit"
              className="btn-outline px-3 py-1 text-sm font-normal text-ink"
              aria-label={`Add the ${line.available} available of ${line.title}`}
            >
              Add the {line.available} available
            </button>
          </Form>
        ) : null}
      </>
    ),
  },
];

/** After "Add all to cart": each line and what happened to it; a short line offers what there is. */
export function ListCartReport({ lines }: { lines: ListCartLine[] }) {
  const shown = lines.filter((l) => l.status !== "added" || l.reason !== "Added.");
  if (!shown.length) return null;
  return (
    <StatusLinesReport
      headingId="list-cart-report-heading"
      title="Lines not added in full"
      caption="Each line that did not go to your cart in full, and why"
      columns={REPORT_COLUMNS}
      lines={shown}
      rowKey={(line) => `${line.productId}-${line.color}`}
    />
  );
}
