/** The back office's order constants, without zod, so pages can use them without shipping the schemas. */

export const CARRIERS = ["Royal Mail", "Parcelforce", "DPD", "DHL", "Evri", "UPS", "FedEx", "USPS"] as const;

export const RETURN_REASONS = [
  "Damaged in transit",
  "Faulty",
  "Wrong item sent",
  "No longer needed",
  "Refused at delivery",
  "Other",
] as const;

/** The most units one return may record for one line; an order line never holds more than 100. */
export const MAX_RETURN_QUANTITY = 1_000;
export const NOTE_MAX = 500;

/** Statuses the list filter offers; holds that never became orders come last. */
export const FILTER_STATUSES = [
  "placed",
  "packed",
  "shipped",
  "delivered",
  "cancelled",
  "returned",
  "processing",
  "awaiting_confirmation",
  "awaiting_payment",
  "expired",
  "awaiting_approval",
] as const;

export const ORDER_ACTIONS = ["pack", "ship", "deliver", "cancel", "return", "refund", "mark-paid"] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const SORT_KEYS = ["date", "total"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
