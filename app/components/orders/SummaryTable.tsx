import { formatMoney } from "../../lib/money.ts";
import type { OrderSummary } from "../../lib/order-rules.ts";

export function SummaryTable({ summary, isMember }: { summary: OrderSummary; isMember: boolean }) {
  return (
    <dl className="space-y-2 text-sm" data-testid="order-summary">
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd data-testid="summary-subtotal">{formatMoney(summary.subtotalCents)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Member discount{isMember ? " (5% over $120.00)" : ""}</dt>
        <dd data-testid="summary-discount">{summary.memberDiscountCents ? `−${formatMoney(summary.memberDiscountCents)}` : formatMoney(0)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Shipping</dt>
        <dd data-testid="summary-shipping">{summary.shippingCents ? formatMoney(summary.shippingCents) : "Free"}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Taxes</dt>
        <dd data-testid="summary-tax">Included in prices</dd>
      </div>
      <div className="flex justify-between border-t border-slate-300 pt-2 text-base font-bold text-ink">
        <dt>Total</dt>
        <dd data-testid="summary-total">{formatMoney(summary.totalCents)}</dd>
      </div>
    </dl>
  );
}
