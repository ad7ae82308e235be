import { Link } from "react-router";
import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { formatMoney } from "../../../lib/money.ts";
import { Money } from "../../ui/Money.tsx";
import { PAYMENT_STATUS_LABELS, paymentLabel } from "../../../lib/order-labels.ts";
import { LinesTable, type LineColumn } from "../../ui/LinesTable.tsx";
import { ShippingAddress, type AddressFields } from "../../orders/ShippingAddress.tsx";
import { orderSummary, SummaryTable } from "../../orders/SummaryTable.tsx";
import { HeadedSection } from "../../ui/HeadedSection.tsx";

type Order = Omit<StaffOrderDetail, "id" | "events" | "user_id">;

const STAFF_ORDER_COLUMNS: LineColumn<Order["lines"][number]>[] = [
  { header: "SKU", className: "py-2 pr-3", cellClassName: "py-2 pr-3 font-mono", cell: (l) => l.sku ?? "—" },
  { header: "Product", className: "py-2 pr-3", cell: (l) => l.title },
  { header: "Colour", className: "py-2 pr-3", cell: (l) => l.color || "—" },
  { header: "Quantity", className: "py-2 pr-3 text-right", cell: (l) => l.quantity },
  { header: "Returned", className: "py-2 pr-3 text-right", cell: (l) => l.returned },
  { header: "Unit price", className: "py-2 pr-3 text-right", cell: (l) => <Money minor={l.unit_price_cents} /> },
  { header: "Total", className: "py-2 text-right", cell: (l) => <Money minor={l.line_total_cents} /> },
];

export function OrderLines({ order }: { order: Order }) {
  return (
    <div className="overflow-x-auto">
      <LinesTable
        caption={`Items in order ${order.number}`}
        headClassName="border-b border-slate-300 text-ink"
        rowClassName="border-b border-slate-200"
        columns={STAFF_ORDER_COLUMNS}
        lines={order.lines}
        rowKey={(l) => l.id}
      />
      <SummaryTable
        summary={orderSummary(order)}
        isMember={false}
        taxLabel="Included"
        tax={order.tax}
        totalTestId="order-total"
        className="mt-3 ml-auto max-w-xs space-y-1 text-sm"
      />
    </div>
  );
}

export function ShipTo({ order }: { order: AddressFields & { business_name: string | null } }) {
  return <ShippingAddress order={order} businessName={order.business_name} />;
}

export function OrderFacts({ order, customerId }: { order: Order; customerId: string | null }) {
  return (
    <div className="grid gap-6 text-sm sm:grid-cols-3">
      <HeadedSection id="customer-heading" title="Customer" headingClassName="font-semibold text-ink">
        <p className="mt-2">{order.ship_name || "—"}</p>
        <p className="break-all text-slate-700">{order.email || "(account deleted)"}</p>
        {customerId ? (
          <p className="mt-1">
            <Link
              to={`/admin/customers/${encodeURIComponent(customerId)}`}
              className="font-semibold text-brand-800 underline"
            >
              Customer account
            </Link>
          </p>
        ) : (
          <p className="mt-1 text-slate-700">Guest checkout (no account)</p>
        )}
        {order.tax_number ? <p className="mt-1 text-slate-700">Tax number: {order.tax_number}</p> : null}
      </HeadedSection>
      <HeadedSection id="address-heading" title="Ship to" headingClassName="font-semibold text-ink">
        <div className="mt-2">
          <ShipTo order={order} />
        </div>
      </HeadedSection>
      <HeadedSection id="payment-heading" title="Payment and shipment" headingClassName="font-semibold text-ink">
        <p className="mt-2">{paymentLabel(order.payment_method)}</p>
        <p className="text-slate-700" data-testid="payment-status">
          {PAYMENT_STATUS_LABELS[order.payment_status] ?? order.payment_status}
          {order.paid_cents != null ? ` · received ${formatMoney(order.paid_cents, order.currency)}` : ""}
          {order.refunded_cents > 0 ? ` · refunded ${formatMoney(order.refunded_cents, order.currency)}` : ""}
          {order.pendingRefundCents > 0
            ? ` · ${formatMoney(order.pendingRefundCents, order.currency)} refund waiting for Stripe`
            : ""}
        </p>
        {order.payment_flag ? (
          <p className="mt-2 rounded-md bg-red-50 p-2 text-red-900" data-testid="payment-flag">
            <strong>Payment needs attention:</strong> {order.payment_flag}
          </p>
        ) : null}
        {order.carrier ? (
          <p className="mt-2" data-testid="shipment">
            {order.carrier}, tracking number <span className="font-mono">{order.tracking_number}</span>
          </p>
        ) : (
          <p className="mt-2 text-slate-700">Not shipped yet</p>
        )}
      </HeadedSection>
    </div>
  );
}
