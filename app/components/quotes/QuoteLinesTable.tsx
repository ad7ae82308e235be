import type { ReactNode } from "react";
import { formatMoney } from "../../lib/money.ts";
import { LinesTable, type LineColumn } from "../ui/LinesTable.tsx";
import { TitleWithColor } from "../ui/line-cells.tsx";

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
  const columns: LineColumn<QuoteLineView>[] = [
    { header: "Product", className: "py-2 pr-4", cell: (l) => <TitleWithColor title={l.title} color={l.color} /> },
    { header: "Quantity", className: "py-2 pr-4 text-right", cell: (l) => l.quantity },
    { header: "List price", className: "py-2 pr-4 text-right", cell: (l) => formatMoney(l.listPriceCents) },
    { header: "Price when asked", className: "py-2 pr-4 text-right", cell: (l) => formatMoney(l.requestedUnitCents) },
    {
      header: "Quoted price",
      className: "py-2 pr-4",
      testId: "quoted-price",
      cell: (l) => (priceCell ? priceCell(l) : l.quotedUnitCents != null ? formatMoney(l.quotedUnitCents) : "—"),
    },
    {
      header: "Line total",
      className: "py-2 text-right",
      cell: (l) => (l.quotedUnitCents != null ? formatMoney(l.quotedUnitCents * l.quantity) : "—"),
    },
  ];
  return (
    <LinesTable
      caption={caption}
      headRowClassName="border-b border-slate-300"
      rowClassName="border-b border-slate-200 align-top"
      columns={columns}
      lines={lines}
      rowKey={(l) => l.id}
    />
  );
}
