import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { LinesTable, type LineColumn } from "../../ui/LinesTable.tsx";
import { NOTE_MAX, RETURN_REASONS } from "../../../lib/order-admin-constants.ts";
import { fieldAria, FieldMessages, Select, sameOptions, TextArea } from "../fields.tsx";
import { MoveForm, type Fetcher } from "./MoveForms.tsx";

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
function ReturnLines({
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
      className="mt-2"
      rowClassName="border-t border-slate-200"
      columns={returnColumns(typed, errors)}
      lines={lines}
      rowKey={(l) => l.id}
    />
  );
}

/** The "Record a return" move: units back per line, the reason, whether they go back into stock, a note. */
export function ReturnMove({
  fetcher,
  version,
  lines,
  typed,
  errors,
  busy,
}: {
  fetcher: Fetcher;
  version: number;
  lines: Line[];
  typed: Record<string, string>;
  errors: Record<string, string>;
  busy: boolean;
}) {
  return (
    <MoveForm
      fetcher={fetcher}
      intent="return"
      version={version}
      title="Record a return"
      intro="Enter how many units of each line came back. The order becomes “returned” once every unit is back."
      className="mt-6 border-t border-slate-200 pt-4"
    >
      <FieldMessages id="return-lines" error={errors.lines} />
      <ReturnLines lines={lines} typed={typed} errors={errors} />
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <Select
          id="return-reason"
          name="reason"
          label="Reason (told to the customer)"
          defaultValue={typed.reason ?? ""}
          error={errors.reason}
          placeholder="Choose a reason"
          placeholderDisabled
          options={sameOptions(RETURN_REASONS)}
        />
        <fieldset {...fieldAria("restock", errors.restock)}>
          <legend className="text-sm font-semibold text-ink">Put the goods back into stock?</legend>
          <div className="mt-1 flex flex-col gap-1 text-sm">
            <label className="inline-flex items-center gap-2">
              <input type="radio" name="restock" value="yes" required defaultChecked={typed.restock === "yes"} /> Yes,
              they can be sold again
            </label>
            <label className="inline-flex items-center gap-2">
              <input type="radio" name="restock" value="no" defaultChecked={typed.restock === "no"} /> No (damaged or
              unsellable)
            </label>
          </div>
          <FieldMessages id="restock" error={errors.restock} />
        </fieldset>
        <TextArea
          id="return-note"
          name="note"
          label="Note for staff (optional)"
          required={false}
          rows={2}
          maxLength={NOTE_MAX}
          defaultValue={typed.note}
          error={errors.note}
          className="sm:col-span-2"
        />
      </div>
      <button type="submit" className="btn-primary mt-3" disabled={busy}>
        Record return
      </button>
    </MoveForm>
  );
}
