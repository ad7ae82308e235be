/** What an order's status, payment state and payment method are called: one list for the shop and the back office. */
import { COUNTRIES, PAYMENT_METHODS } from "./order-rules.ts";

/** The two audiences word only a guest's unconfirmed hold differently. */
function statusLabels(hold: { awaiting_confirmation: string; expired: string }): Record<string, string> {
  return {
    awaiting_confirmation: hold.awaiting_confirmation,
    awaiting_payment: "Awaiting payment",
    placed: "Placed",
    processing: "Processing",
    packed: "Packed",
    shipped: "Shipped",
    delivered: "Delivered",
    cancelled: "Cancelled",
    returned: "Returned",
    expired: hold.expired,
    awaiting_approval: "Awaiting approval",
  };
}

/** What customers see for each status. */
const STATUS_LABELS = statusLabels({
  awaiting_confirmation: "Awaiting your confirmation",
  expired: "Expired (not confirmed)",
});

/** What staff see for each status. */
export const ADMIN_STATUS_LABELS = statusLabels({
  awaiting_confirmation: "Awaiting guest confirmation",
  expired: "Expired (never confirmed)",
});

/** A card order that was never paid is "not paid", not "not confirmed". */
export function customerStatusLabel(order: {
  status: string;
  payment_method: string;
  payment_status?: string;
}): string {
  if (order.payment_method === "card" && order.status === "expired")
    return order.payment_status === "failed" ? "Payment failed" : "Expired (not paid)";
  if (order.payment_method === "card" && order.status === "awaiting_payment" && order.payment_status === "processing")
    return "Payment processing";
  return STATUS_LABELS[order.status] ?? order.status;
}

export const PAYMENT_STATUS_LABELS: Record<string, string> = {
  due_on_delivery: "Due on delivery",
  invoiced_net30: "Invoiced, net 30",
  pending: "Pending",
  processing: "Processing (settles later)",
  authorized: "Authorized",
  paid: "Paid",
  failed: "Failed",
  refunded: "Refunded",
};

export const paymentLabel = (id: string) => PAYMENT_METHODS.find((m) => m.id === id)?.label ?? id;

export const countryName = (code: string) => COUNTRIES.find((c) => c.code === code)?.name ?? code;
