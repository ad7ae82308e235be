import { marketOfCurrency } from "../../lib/markets.ts";
import { useCurrency, useMoney } from "../ui/Money.tsx";
import type { OrderSummary, SummaryTax } from "../../lib/order-rules.ts";

/** The summary of a stored order (its columns). */
export function orderSummary(order: {
  subtotal_cents: number;
  member_discount_cents: number;
  shipping_cents: number;
  tax_cents: number;
  total_cents: number;
}): OrderSummary {
  return {
    subtotalCents: order.subtotal_cents,
    memberDiscountCents: order.member_discount_cents,
    shippingCents: order.shipping_cents,
    taxCents: order.tax_cents,
    totalCents: order.total_cents,
  };
}

/** Subtotal, discount, shipping, taxes and total. The back office words the tax line shorter and names the total for its own tests. */
export function SummaryTable({
  summary,
  isMember,
  taxLabel = "Included in prices",
  totalTestId = "summary-total",
  className = "space-y-2 text-sm",
  tax,
}: {
  summary: OrderSummary;
  isMember: boolean;
  /** What the Taxes row says when there are no tax lines to show. */
  taxLabel?: string;
  /** Tax lines, shown one row each in place of the Taxes row (VAT marked as included). */
  tax?: SummaryTax;
  totalTestId?: string;
  className?: string;
}) {
  const money = useMoney();
  const threshold = money(marketOfCurrency(useCurrency()).memberDiscountThresholdMinor);
  return (
    <dl className={className} data-testid="order-summary">
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd data-testid="summary-subtotal">{money(summary.subtotalCents)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Member discount{isMember ? ` (5% over ${threshold})` : ""}</dt>
        <dd data-testid="summary-discount">
          {summary.memberDiscountCents ? `−${money(summary.memberDiscountCents)}` : money(0)}
        </dd>
      </div>
      <div className="flex justify-between">
        <dt>Shipping</dt>
        <dd data-testid="summary-shipping">{summary.shippingCents ? money(summary.shippingCents) : "Free"}</dd>
      </div>
      {tax?.lines.length ? (
        tax.lines.map((line) => (
          <div key={line.label} className="flex justify-between gap-3" data-testid="summary-tax-line">
            <dt>{line.included ? `${line.label} (included)` : line.label}</dt>
            <dd>{money(line.taxCents)}</dd>
          </div>
        ))
      ) : (
        <div className="flex justify-between gap-3">
          <dt>Taxes</dt>
          <dd data-testid="summary-tax">{tax?.note ?? taxLabel}</dd>
        </div>
      )}
      <div className="flex justify-between border-t border-slate-300 pt-2 text-base font-bold text-ink">
        <dt>Total</dt>
        <dd data-testid={totalTestId}>{money(summary.totalCents)}</dd>
      </div>
    </dl>
  );
}
