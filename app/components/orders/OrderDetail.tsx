import type { OrderDetail as OrderDetailData } from "../../../server/orders/queries.ts";
import { InCurrency, Money } from "../ui/Money.tsx";
import { LinesTable, type LineColumn } from "../ui/LinesTable.tsx";
import { TitleWithColor } from "../ui/line-cells.tsx";
import { customerStatusLabel, paymentLabel } from "../../lib/order-labels.ts";
import type { PaymentReturn } from "../../../server/payments/order-page.ts";
import { PaymentPanel, paymentStatusText } from "./PaymentPanel.tsx";
import { OrderProgress } from "./OrderProgress.tsx";
import { ShippingAddress } from "./ShippingAddress.tsx";
import { orderSummary, SummaryTable } from "./SummaryTable.tsx";
import { longDate } from "../../lib/dates.ts";
import { HeadedSection } from "../ui/HeadedSection.tsx";

/** Statuses of an order that was never placed (a guest's hold): it has no progress to show. */
const NOT_PLACED = ["awaiting_confirmation", "awaiting_payment", "expired", "awaiting_approval"];

const ORDER_COLUMNS: LineColumn<OrderDetailData["lines"][number]>[] = [
  { header: "Product", className: "py-2", cell: (line) => <TitleWithColor title={line.title} color={line.color} /> },
  { header: "Quantity", className: "py-2", cell: (line) => line.quantity },
  { header: "Unit Price", className: "py-2", cell: (line) => <Money minor={line.unit_price_cents} /> },
  { header: "Total", className: "py-2 text-right", cell: (line) => <Money minor={line.line_total_cents} /> },
];

/** An order with its lines, as server/orders/queries.ts reads it for the page (no ids or tokens). */
export type OrderView = OrderDetailData;

export function OrderDetail({
  order,
  placed,
  returned = null,
  invoiceHref = null,
}: {
  order: OrderView;
  placed: boolean;
  returned?: PaymentReturn | null;
  invoiceHref?: string | null;
}) {
  const payment = order.payment;
  const paymentStatus =
    payment?.state === "failed" ? "failed" : payment?.state === "processing" ? "processing" : undefined;
  return (
    <InCurrency currency={order.currency}>
      <div className="mx-auto max-w-4xl px-4 py-10">
        {payment ? (
          <PaymentPanel number={order.number} email={order.email} payment={payment} returned={returned} />
        ) : null}
        {placed && order.status === "awaiting_approval" ? (
          <p role="status" className="mb-6 rounded-lg bg-amber-50 p-4 text-amber-900">
            Your order <strong>{order.number}</strong> is above your spending limit, so it was sent to your company's
            approvers. Nothing is charged or taken from stock until one approves it; we'll email you either way.
          </p>
        ) : placed && !payment ? (
          <p role="status" className="mb-6 rounded-lg bg-green-50 p-4 text-green-900">
            Thank you! Your order <strong>{order.number}</strong> has been placed. A confirmation email is on its way to{" "}
            {order.email}.
          </p>
        ) : null}
        <h1 className="text-3xl font-bold text-ink">Order {order.number}</h1>
        <p className="mt-2 text-slate-700">
          Status:{" "}
          <strong>
            {customerStatusLabel({
              status: order.status,
              payment_method: order.payment_method,
              payment_status: paymentStatus,
            })}
          </strong>{" "}
          · Placed {longDate(order.created_at)}
        </p>
        {NOT_PLACED.includes(order.status) ? null : <OrderProgress order={order} />}
        {NOT_PLACED.includes(order.status) || !invoiceHref ? null : (
          <p className="mt-4">
            <a href={invoiceHref} className="font-semibold text-brand-800 hover:underline" download>
              Download invoice (PDF)
            </a>
          </p>
        )}
        <LinesTable
          caption="Items in this order"
          className="mt-6"
          headClassName="border-b border-slate-300"
          rowClassName="border-b border-slate-200"
          columns={ORDER_COLUMNS}
          lines={order.lines}
          rowKey={(_, i) => i}
        />
        <div className="mt-6 grid gap-8 md:grid-cols-2">
          <HeadedSection id="ship-heading" title="Shipping to" headingClassName="font-semibold text-ink">
            <ShippingAddress order={order} className="mt-2 text-sm text-slate-700 not-italic" />
            {order.po_number ? <p className="mt-3 text-sm text-slate-700">PO number: {order.po_number}</p> : null}
            <p className="mt-3 text-sm text-slate-700">
              Payment: {paymentLabel(order.payment_method)}
              {payment ? ` — ${paymentStatusText(payment, order.currency)}` : null}
            </p>
          </HeadedSection>
          <HeadedSection id="summary-heading" title="Summary" headingClassName="font-semibold text-ink">
            <div className="mt-2">
              <SummaryTable isMember={order.member_discount_cents > 0} summary={orderSummary(order)} tax={order.tax} />
            </div>
          </HeadedSection>
        </div>
      </div>
    </InCurrency>
  );
}
