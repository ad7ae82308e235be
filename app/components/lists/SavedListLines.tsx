import { Form, Link } from "react-router";
import { Money } from "../ui/Money.tsx";
import { LinesTable, type LineColumn } from "../ui/LinesTable.tsx";
import { LineFormFields, RemoveLineFields, UnitPrice } from "../ui/line-cells.tsx";
import type { SavedListLineView } from "../../../server/trade/saved-lists.ts";

/** A saved list's quantity box: a whole number from 1 to 9999. */
export function ListQuantityInput(props: {
  id: string;
  defaultValue: string | number | undefined;
  className: string;
  "data-testid"?: string;
}) {
  return <input {...props} name="quantity" type="number" inputMode="numeric" min={1} max={9999} required />;
}

function QuantityForm({ line }: { line: SavedListLineView }) {
  const fieldId = `qty-${`${line.productId}-${line.color}`.replace(/[^A-Za-z0-9-]/g, "_")}`;
  return (
    <Form method="post" className="flex items-end gap-2">
      <LineFormFields line={line} intent="set-quantity" />
      <div>
        <label htmlFor={fieldId} className="block text-xs font-semibold text-ink">
          Quantity<span className="sr-only"> of {line.title}</span>
        </label>
        <ListQuantityInput
          id={fieldId}
          defaultValue={line.quantity}
          className="field w-24"
          data-testid="list-quantity"
        />
      </div>
      <button type="submit" className="btn-outline px-3 py-1 text-sm" aria-label={`Update quantity of ${line.title}`}>
        Update
      </button>
    </Form>
  );
}

function listColumns(editable: boolean): LineColumn<SavedListLineView>[] {
  const columns: LineColumn<SavedListLineView>[] = [
    {
      header: "Product",
      headerClassName: "py-2 pr-2",
      cellClassName: "py-2 pr-2 font-normal",
      rowHeader: true,
      cell: (line) => (
        <>
          <Link to={`/shop/${line.productId}`} className="font-semibold text-brand-800 hover:underline">
            {line.title}
          </Link>
          {line.color ? <span className="block text-xs">{line.color}</span> : null}
          {line.notice ? <span className="block text-xs font-semibold text-red-800">{line.notice}</span> : null}
        </>
      ),
    },
    { header: "SKU", headerClassName: "py-2 pr-2", cellClassName: "py-2 pr-2 font-mono", cell: (line) => line.sku },
    {
      header: "Quantity",
      className: "py-2 pr-2",
      cell: (line) =>
        editable ? <QuantityForm line={line} /> : <span data-testid="list-quantity">{line.quantity}</span>,
    },
    {
      header: "Your price",
      className: "py-2 pr-2",
      testId: "list-unit-price",
      cell: (line) => <UnitPrice line={line} noteClassName="block text-xs" />,
    },
    { header: "Total", className: "py-2 pr-2", cell: (line) => <Money minor={line.lineTotalCents} /> },
  ];
  if (!editable) return columns;
  return [
    ...columns,
    {
      header: <span className="sr-only">Remove</span>,
      className: "py-2",
      cell: (line) => (
        <Form method="post">
          <RemoveLineFields line={line} intent="remove-line" className="text-sm font-semibold text-red-800 underline" />
        </Form>
      ),
    },
  ];
}
/** The list's lines with this buyer's prices; the owner changes quantities and removes lines here. */
export function SavedListLines({
  lines,
  editable,
  totalCents,
}: {
  lines: SavedListLineView[];
  editable: boolean;
  totalCents: number;
}) {
  if (!lines.length)
    return <p className="mt-2">This list is empty.{editable ? " Add a product by its SKU below." : ""}</p>;
  return (
    <LinesTable
      caption="The products on this list, with your price"
      className="mt-2"
      headClassName="border-b border-slate-300 text-ink"
      rowClassName="border-b border-slate-100 align-top"
      columns={listColumns(editable)}
      lines={lines}
      rowKey={(line) => `${line.productId}-${line.color}`}
      footer={
        <tr>
          <th scope="row" colSpan={4} className="py-2 pr-2 text-right text-ink">
            List total at today's prices
          </th>
          <td className="py-2 pr-2 font-semibold text-ink">
            <Money minor={totalCents} />
          </td>
          {editable ? <td /> : null}
        </tr>
      }
    />
  );
}
