/**
 * Quote rules shared by the server and the pages: who may ask for a quote, how long one may hold,
 * and what a quote's status is at a given moment.
 */
import { parseDollarsToCents } from "./money.ts";

/** A cart of at least this many units may ask for a quote; a trade account's cart always may. */
export const QUOTE_MIN_UNITS = 50;
/** Staff give a quote for at most this many days. */
export const QUOTE_MAX_VALID_DAYS = 90;
/** Quotes a buyer may have waiting for staff at once. */
export const QUOTE_MAX_OPEN_REQUESTS = 5;
export const QUOTE_MESSAGE_MAX = 1000;

export function mayRequestQuote(cart: { totalQuantity: number; lineCount: number }, isTrade: boolean): boolean {
  return cart.lineCount > 0 && (isTrade || cart.totalQuantity >= QUOTE_MIN_UNITS);
}

export type QuoteState = "requested" | "quoted" | "accepted" | "declined" | "expired";

/** The back office's quote list filters. */
export const STAFF_QUOTE_FILTERS = ["requested", "quoted", "accepted", "declined", "expired", "all"] as const;
export type StaffQuoteFilter = (typeof STAFF_QUOTE_FILTERS)[number];

/** The quote's status now: a quote past the end of its last valid day is expired. */
export function quoteState(quote: { status: string; valid_until: string | null }, now = new Date()): QuoteState {
  if (quote.status === "quoted" && quote.valid_until && new Date(quote.valid_until).getTime() < now.getTime())
    return "expired";
  return quote.status as QuoteState;
}

export const QUOTE_STATE_LABELS: Record<QuoteState, string> = {
  requested: "Waiting for our prices",
  quoted: "Ready to accept",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
};

/**
 * A "valid until" date typed by staff (YYYY-MM-DD): from tomorrow to QUOTE_MAX_VALID_DAYS ahead.
 * Returns the end of that day (UTC) as ISO, or a message.
 */
export function parseValidUntil(input: string, now = new Date()): { iso: string } | { error: string } {
  const text = input.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const end = match
    ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999))
    : null;
  if (!end || Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== text)
    return { error: "Enter the last day the prices hold, like 2026-12-31." };
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 23, 59, 59, 999));
  const days = Math.round((end.getTime() - today.getTime()) / 86_400_000);
  if (days < 1) return { error: "A quote must hold until tomorrow at least." };
  if (days > QUOTE_MAX_VALID_DAYS) return { error: `A quote holds for at most ${QUOTE_MAX_VALID_DAYS} days.` };
  return { iso: end.toISOString() };
}

/** A unit price typed by staff: more than $0, never above the line's list price. */
export function parseQuotedPrice(input: string, listCents: number): { cents: number } | { error: string } {
  const cents = parseDollarsToCents(input.replace(/[$,\s]/g, ""));
  if (cents == null || cents < 1) return { error: "Enter a price per unit in dollars, like 12.50." };
  if (cents > listCents) return { error: "A quoted price can't be above the list price." };
  return { cents };
}
