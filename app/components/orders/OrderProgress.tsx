import type { TimelineStep } from "../../../server/orders/history.ts";
import { longDate } from "../../lib/dates.ts";
import { HeadedSection } from "../ui/HeadedSection.tsx";

/** "5 March 2025, 14:03 UTC": the same on the server and in the browser, so hydration agrees. */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  const date = longDate(d);
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return `${date}, ${time} UTC`;
}

const itemText = (l: { title: string; color: string; quantity: number }) =>
  `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""}`;

function stepText(step: TimelineStep): string {
  if (step.kind === "placed") return "Order placed";
  if (step.kind === "return")
    return step.status === "returned" ? "Return received — every item is back with us" : "Return received";
  switch (step.status) {
    case "packed":
      return "Packed";
    case "shipped":
      return step.carrier ? `Shipped with ${step.carrier}` : "Shipped";
    case "delivered":
      return "Delivered";
    case "cancelled":
      return "Cancelled";
    case "returned":
      return "Returned";
    default:
      return step.status ? step.status.replace(/_/g, " ") : "Updated";
  }
}

interface ProgressOrder {
  status: string;
  carrier: string | null;
  tracking_number: string | null;
  timeline: TimelineStep[];
}

/**
 * The customer's view of where the order stands: the shipment's carrier and tracking number,
 * a cancellation and its reason, returns, and every step so far (oldest first).
 */
export function OrderProgress({ order }: { order: ProgressOrder }) {
  const cancelled =
    order.status === "cancelled" ? [...order.timeline].reverse().find((s) => s.status === "cancelled") : undefined;
  const returns = order.timeline.filter((s) => s.kind === "return");
  const shipped = order.carrier && order.tracking_number && ["shipped", "delivered", "returned"].includes(order.status);
  return (
    <HeadedSection
      id="progress-heading"
      title="Order progress"
      headingClassName="font-semibold text-ink"
      className="mt-6 rounded-lg border border-slate-200 p-4"
    >
      {shipped ? (
        <p className="mt-2 text-sm text-slate-800" data-testid="shipment">
          Shipped with <strong>{order.carrier}</strong>. Tracking number:{" "}
          <strong className="font-mono">{order.tracking_number}</strong>
        </p>
      ) : null}
      {cancelled ? (
        <p className="mt-2 text-sm text-slate-800" data-testid="cancellation">
          This order was cancelled on {formatWhen(cancelled.at)}. Nothing will be shipped or charged.
          {cancelled.reason ? ` Reason: ${cancelled.reason}` : ""}
        </p>
      ) : null}
      {returns.length && order.status !== "returned" ? (
        <p className="mt-2 text-sm text-slate-800" data-testid="partial-return">
          Part of this order has been returned; the rest is unchanged.
        </p>
      ) : null}
      <ol className="mt-3 space-y-2 border-l-2 border-slate-300 pl-4 text-sm" aria-label="Order history">
        {order.timeline.map((step, i) => (
          <li key={i}>
            <span className="font-semibold text-ink">{stepText(step)}</span>{" "}
            <span className="text-slate-700">· {formatWhen(step.at)}</span>
            {step.kind === "status" && step.status === "shipped" && step.trackingNumber ? (
              <span className="block text-slate-700">Tracking number: {step.trackingNumber}</span>
            ) : null}
            {step.kind === "status" && step.status === "cancelled" && step.reason ? (
              <span className="block text-slate-700">Reason: {step.reason}</span>
            ) : null}
            {step.kind === "return" ? (
              <span className="block text-slate-700">
                {step.lines.map(itemText).join(", ")}
                {step.reason ? ` — ${step.reason}` : ""}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </HeadedSection>
  );
}
