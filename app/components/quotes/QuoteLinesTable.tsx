import type { ReactNode } from "react";
import { formatMoney } from "../../lib/money.ts";

export interface QuoteLineView {
  id: number;
  productId: number;
  title: string;
  color: string;
  quantity: number;
  listPriceCents: number;
  requestedUnitCents: number;
  quotedUnitCents: number | null;
}

/** A quote's lines: list price, the buyer's price when asked, and the quoted price (or a field for it). */
export function QuoteLinesTable({
  lines,
  caption,
  priceCell,
}: {
  lines: QuoteLineView[];
  caption: string;
  priceCell?: (line: QuoteLineView) => ReactNode;
}) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="py-2 pr-4">
            Product
          </th>
          <th scope="col" className="py-2 pr-4 text-right">
            Quantity
          </th>
          <th scope="col" className="py-2 pr-4 text-right">
            List price
          </th>
          <th scope="col" className="py-2 pr-4 text-right">
            Price when asked
          </th>
          <th scope="col" className="py-2 pr-4">
            Quoted price
          </th>
          <th scope="col" className="py-2 text-right">
            Line total
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.id} className="border-b border-slate-200 align-top">
            <td className="py-2 pr-4">
              {l.title}
              {l.color ? <span className="block text-xs text-slate-600">Color: {l.color}</span> : null}
            </td>
            <td className="py-2 pr-4 text-right">{l.quantity}</td>
            <td className="py-2 pr-4 text-right">{formatMoney(l.listPriceCents)}</td>
            <td className="py-2 pr-4 text-right">{formatMoney(l.requestedUnitCents)}</td>
            <td className="py-2 pr-4" data-testid="quoted-price">
              {priceCell ? priceCell(l) : l.quotedUnitCents != null ? formatMoney(l.quotedUnitCents) : "—"}
            </td>
            <td className="py-2 text-right">
              {l.quotedUnitCents != null ? formatMoney(l.quotedUnitCents * l.quantity) : "—"}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
