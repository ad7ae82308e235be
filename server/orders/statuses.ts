/**
 * The values an order's status and payment status can hold: the orders table's column types
 * (server/db/schema.ts) and the vocabulary of the moves between them (server/orders/states.ts).
 * Nothing imported, so the schema can use them without depending on the code that moves orders.
 */
export const ORDER_STATUSES = [
  "awaiting_confirmation",
  "awaiting_payment",
  "placed",
  /** Older name for an order being prepared; kept readable, no longer entered. */
  "processing",
  "packed",
  "shipped",
  "delivered",
  "cancelled",
  "returned",
  "expired",
  /** A trade buyer's order above their spending limit: no stock taken until an approver approves it. */
  "awaiting_approval",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The payment side of an order. The first two are what the offline methods record today. */
export const PAYMENT_STATUSES = [
  "due_on_delivery",
  "invoiced_net30",
  "pending",
  "processing",
  "authorized",
  "paid",
  "failed",
  "refunded",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
