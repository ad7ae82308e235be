import type { Generated } from "kysely";

/** The life of a quote; "expired" is not stored: a quoted quote past its valid_until is expired. */
type QuoteStatus = "requested" | "quoted" | "accepted" | "declined";

/** A buyer's request for a price on a cart, and staff's answer (migration 017_quotes). */
export interface QuoteTable {
  id: Generated<number>;
  /** QT- and 8 hex digits: what the buyer and staff refer to. */
  number: string;
  user_id: string;
  /** The buyer's company when they asked, if they belong to one. */
  organization_id: string | null;
  email: string;
  status: QuoteStatus;
  /** What the buyer wrote with the request. */
  message: string | null;
  /** What staff wrote with the quote (the buyer sees it). */
  staff_note: string | null;
  /** End of the last day the quoted prices hold (ISO, UTC). */
  valid_until: string | null;
  created_at: string;
  quoted_at: string | null;
  quoted_by: string | null;
  decided_at: string | null;
  /** The order it became. */
  order_id: number | null;
  version: Generated<number>;
}

export interface QuoteLineTable {
  id: Generated<number>;
  quote_id: number;
  product_id: number;
  title: string;
  color: Generated<string>;
  quantity: number;
  /** The product's list price when asked. */
  list_price_cents: number;
  /** The buyer's own price when asked (volume break or trade price). */
  requested_unit_cents: number;
  /** Staff's price per unit; null until quoted. */
  quoted_unit_cents: number | null;
}

declare module "./schema.ts" {
  interface Database {
    quotes: QuoteTable;
    quote_lines: QuoteLineTable;
  }
}
