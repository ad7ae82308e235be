import { StatusLinesReport, type LineColumn } from "../ui/LinesTable.tsx";
import type { QuickOrderCheck, QuickOrderLine } from "../../lib/quick-order-types.ts";

function resultText(line: QuickOrderLine): string {
  if (line.status === "ok") return line.reason ?? "Ready";
  return line.reason ?? "";
}

const RESULT_COLUMNS: LineColumn<QuickOrderLine>[] = [
  {
    header: "Line",
    headerClassName: "py-2 pr-2",
    cellClassName: "py-2 pr-2 font-normal",
    rowHeader: true,
    cell: (line) => line.label,
  },
  { header: "SKU", headerClassName: "py-2 pr-2", cellClassName: "py-2 pr-2 font-mono", cell: (line) => line.sku },
  { header: "Quantity", className: "py-2 pr-2", cell: (line) => line.quantity ?? "" },
  { header: "Product", className: "py-2 pr-2", cell: (line) => line.title ?? "" },
  {
    header: "Result",
    headerClassName: "py-2",
    cellClassName: (line) => `py-2 ${line.status === "problem" ? "font-semibold text-red-800" : "text-slate-700"}`,
    cell: (line) => (
      <>
        {resultText(line)}
        {line.status === "problem" && line.available ? (
          <label className="ml-2 inline-flex items-center gap-1 font-normal text-ink">
            <input type="checkbox" name="takeAvailable" value={line.label} defaultChecked />
            {`Add the ${line.available} available instead`}
          </label>
        ) : null}
      </>
    ),
  },
];

/**
 * Every checked line with its line number and what happens to it. A line above the stock offers
 * the available amount with a checkbox (ticked: it goes to the cart with that amount).
 */
export function QuickOrderResults({ check, showReady }: { check: QuickOrderCheck; showReady: boolean }) {
  const lines = showReady ? check.lines : check.lines.filter((l) => l.status !== "ok" || l.reason);
  if (!lines.length) return null;
  return (
    <StatusLinesReport
      headingId="qo-results-heading"
      title="Checked lines"
      className="mt-6"
      caption="Each line of the quick order and its result"
      columns={RESULT_COLUMNS}
      lines={lines}
      rowKey={(line) => line.label}
    />
  );
}
