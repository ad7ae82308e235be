import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useFetcher } from "react-router";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { LinesTable, type LineColumn } from "../ui/LinesTable.tsx";

const INITIAL_ROWS = 10;

interface Row {
  sku: string;
  quantity: string;
}

/**
 * The typed rows: SKU (with suggestions as you type) and quantity. Enter in a SKU moves to its
 * quantity; Enter in a quantity moves to the next row's SKU, adding a row after the last one.
 */
export function QuickOrderRows({ initial, onChange }: { initial: Row[]; onChange: () => void }) {
  const [count, setCount] = useState(Math.max(INITIAL_ROWS, initial.length + 2));
  const table = useRef<HTMLTableSectionElement>(null);
  const focusNext = useRef<number | null>(null);
  const suggestions = useFetcher<{ sku: string; title: string }[]>();
  const typing = useRef<number | undefined>(undefined);
  const hydrated = useHydrated();

  useEffect(() => {
    if (focusNext.current == null) return;
    table.current?.querySelector<HTMLInputElement>(`#qo-sku-${focusNext.current}`)?.focus();
    focusNext.current = null;
  });

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>, row: number, field: "sku" | "quantity") {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (field === "sku") {
      table.current?.querySelector<HTMLInputElement>(`#qo-quantity-${row}`)?.focus();
      return;
    }
    onChange();
    if (row + 1 >= count) setCount(count + 1);
    focusNext.current = row + 1;
    table.current?.querySelector<HTMLInputElement>(`#qo-sku-${row + 1}`)?.focus();
  }

  function suggest(value: string) {
    window.clearTimeout(typing.current);
    if (value.trim().length < 2) return;
    typing.current = window.setTimeout(
      () => void suggestions.load(`/quick-order/skus?q=${encodeURIComponent(value.trim())}`),
      150,
    );
  }

  const columns: LineColumn<number>[] = [
    { header: "Row", headerClassName: "w-16 py-1", cellClassName: "py-1 text-slate-700", cell: (i) => i + 1 },
    {
      header: "SKU",
      headerClassName: "py-1",
      cellClassName: "py-1 pr-2",
      cell: (i) => (
        <>
          <label htmlFor={`qo-sku-${i}`} className="sr-only">{`SKU, row ${i + 1}`}</label>
          <input
            id={`qo-sku-${i}`}
            name="sku"
            className="field"
            list="quick-order-skus"
            autoComplete="off"
            maxLength={64}
            defaultValue={initial[i]?.sku ?? ""}
            onKeyDown={(e) => onKeyDown(e, i, "sku")}
            onInput={(e) => suggest(e.currentTarget.value)}
            onBlur={onChange}
          />
        </>
      ),
    },
    {
      header: "Quantity",
      headerClassName: "w-32 py-1",
      cellClassName: "py-1",
      cell: (i) => (
        <>
          <label htmlFor={`qo-quantity-${i}`} className="sr-only">{`Quantity, row ${i + 1}`}</label>
          <input
            id={`qo-quantity-${i}`}
            name="quantity"
            className="field"
            inputMode="numeric"
            pattern="[0-9]*"
            maxLength={6}
            defaultValue={initial[i]?.quantity ?? ""}
            onKeyDown={(e) => onKeyDown(e, i, "quantity")}
            onBlur={onChange}
          />
        </>
      ),
    },
  ];

  return (
    <fieldset>
      <legend className="text-lg font-bold text-ink">Type SKUs</legend>
      <p className="mt-1 text-sm text-slate-700">
        Enter moves to the next field; a new row appears after the last one.
      </p>
      <datalist id="quick-order-skus">
        {(suggestions.data ?? []).map((s) => (
          <option key={s.sku} value={s.sku}>
            {s.title}
          </option>
        ))}
      </datalist>
      <LinesTable
        caption="SKU and quantity rows"
        className="mt-3 max-w-xl"
        columns={columns}
        lines={Array.from({ length: count }, (_, i) => i)}
        rowKey={(i) => i}
        bodyRef={table}
      />
      {hydrated ? (
        <button
          type="button"
          className="mt-2 text-sm font-semibold text-brand-800 hover:underline"
          onClick={() => setCount(count + 5)}
        >
          Add 5 more rows
        </button>
      ) : null}
    </fieldset>
  );
}
