import { useState } from "react";
import { useMoney } from "../ui/Money.tsx";
import { unitPrice, volumeBreakRows, type TradeRule, type VolumeBreak } from "../../lib/pricing.ts";

interface Props {
  listCents: number;
  volumeBreaks: VolumeBreak[];
  /** The signed-in trade buyer's rule for this product (never on a cached page). */
  trade: TradeRule | null;
  stockQuantity: number;
}

/**
 * The product page's Quantity field with the volume-break table, and the unit price for the
 * quantity typed, from the same price rule the cart and checkout use.
 */
export function QuantityPrice({ listCents, volumeBreaks, trade, stockQuantity }: Props) {
  const [quantity, setQuantity] = useState(1);
  const money = useMoney();
  const inStock = stockQuantity > 0;
  const rows = volumeBreakRows(listCents, volumeBreaks);
  const unit = unitPrice({ listCents, quantity, volumeBreaks, trade });
  const current = rows.findLast((r) => quantity >= r.from);
  return (
    <>
      <label className="block w-32 text-sm font-semibold text-ink">
        Quantity
        <input
          type="number"
          name="quantity"
          min={1}
          max={Math.max(1, stockQuantity)}
          step={1}
          defaultValue={1}
          className="field mt-1"
          disabled={!inStock}
          onInput={(e) => {
            const n = Number(e.currentTarget.value);
            setQuantity(Number.isInteger(n) && n >= 1 ? Math.min(n, 100_000) : 1);
          }}
        />
      </label>
      {rows.length ? (
        <table className="w-full max-w-sm text-left text-sm" data-testid="volume-breaks">
          <caption className="mb-1 text-left font-semibold text-ink">Buy more, pay less</caption>
          <thead className="border-b border-slate-300 text-ink">
            <tr>
              <th scope="col" className="py-1 pr-4">
                Quantity
              </th>
              <th scope="col" className="py-1 pr-4">
                Price each
              </th>
              <th scope="col" className="py-1">
                Saving
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.from}
                className={`border-b border-slate-100 ${r === current ? "bg-amber-50 font-semibold" : ""}`}
                aria-current={r === current ? "true" : undefined}
              >
                <td className="py-1 pr-4">{r.to == null ? `${r.from}+` : `${r.from}–${r.to}`}</td>
                <td className="py-1 pr-4">{money(r.unitCents)}</td>
                <td className="py-1">{r.percentOff ? `${r.percentOff}%` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {rows.length || trade ? (
        <p className="text-sm text-slate-700" aria-live="polite" data-testid="price-for-quantity">
          {unit.source === "trade" ? "Your trade price" : "Price"} for {quantity}:{" "}
          <strong className="text-ink">{money(unit.unitCents)}</strong> each, {money(unit.unitCents * quantity)} in all
        </p>
      ) : null}
    </>
  );
}
