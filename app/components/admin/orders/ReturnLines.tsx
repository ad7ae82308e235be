import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { LinesTable, type LineColumn } from "../../ui/LinesTable.tsx";
import { fieldAria, FieldMessages } from "../fields.tsx";

type Line = StaffOrderDetail["lines"][number];

function returnColumns(typed: Record<string, string>, errors: Record<string, string | undefined>): LineColumn<Line>[] {
  const id = (l: { id: number }) => `qty-${l.id}`;
  return [
    {
      header: "Line",
      className: "py-1 pr-3",
      cell: (l) => (
        <label htmlFor={id(l)}>
          {l.title}
          {l.color ? ` (${l.color})` : ""}
        </label>
      ),
    },
    { header: "Can come back", className: "py-1 pr-3 text-right", cell: (l) => l.quantity - l.returned },
    {
      header: "Units returned",
      className: "py-1",
      cell: (l) => (
        <>
          <input
            id={id(l)}
            name={id(l)}
            type="number"
            inputMode="numeric"
            min={0}
            max={l.quantity - l.returned}
            step={1}
            defaultValue={typed[id(l)] ?? 0}
            disabled={l.quantity === l.returned}
            className="field w-24"
            {...fieldAria(id(l), errors[id(l)])}
          />
          <FieldMessages id={id(l)} error={errors[id(l)]} />
        </>
      ),
    },
  ];
}

/** The return form's lines: how many units of each can come back, and a field for how many did. */
export function ReturnLines({
  lines,
  typed,
  errors,
}: {
  lines: Line[];
  typed: Record<string, string>;
  errors: Record<string, string | undefined>;
}) {
  return (
    <LinesTable
      caption="Units returned per line"
      className="mt-2 w-full text-left text-sm"
      rowClassName="border-t border-slate-200"
      columns={returnColumns(typed, errors)}
      lines={lines}
      rowKey={(l) => l.id}
    />
  );
}
