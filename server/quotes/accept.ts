/**
 * Accepting a quote at the checkout: the order is made from the quote's lines at its prices
 * (server/orders/place-order.ts), in the transaction that marks the quote accepted, so a quote
 * makes at most one order however many times it is accepted at once.
 */
import type { Transaction } from "kysely";
import { quoteState } from "../../app/lib/quotes.ts";
import { dbKind } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, DomainError, NotFoundError } from "../errors.ts";
import { lineProductColumns } from "../cart/priced-lines.ts";
import { QUOTE_NUMBER } from "./quotes.ts";

const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** Why a quote can't be accepted now, or null when it can. */
export function acceptRefusal(
  quote: { number: string; status: string; valid_until: string | null },
  now: Date,
): DomainError | null {
  const state = quoteState(quote, now);
  if (state === "quoted") return null;
  if (state === "expired")
    return new ConflictError(
      "QUOTE_EXPIRED",
      `Quote ${quote.number} expired on ${day(quote.valid_until!)}. Ask for a new quote from your cart.`,
    );
  if (state === "requested")
    return new ConflictError("QUOTE_NOT_PRICED", `Quote ${quote.number} isn't priced yet: we'll email you when it is.`);
  return new ConflictError("QUOTE_NOT_OPEN", `Quote ${quote.number} was ${state} already.`);
}

/** The quote's lines as an order takes them: today's product rows, the quoted unit prices. */
export async function quoteOrderLines(trx: Transaction<Database>, userId: string | null, number: string, now: Date) {
  if (!userId || !QUOTE_NUMBER.test(number))
    throw new NotFoundError("QUOTE_NOT_FOUND", "There is no such quote on your account.");
  const select = trx.selectFrom("quotes").selectAll().where("number", "=", number).where("user_id", "=", userId);
  const quote = await (dbKind(trx) === "postgres" ? select.forUpdate() : select).executeTakeFirst();
  if (!quote) throw new NotFoundError("QUOTE_NOT_FOUND", "There is no such quote on your account.");
  const refusal = acceptRefusal(quote, now);
  if (refusal) throw refusal;
  const lines = await trx
    .selectFrom("quote_lines as ql")
    .innerJoin("products as p", "p.id", "ql.product_id")
    .select(["ql.product_id", "ql.color", "ql.quantity", ...lineProductColumns("us"), "ql.quoted_unit_cents"])
    .where("ql.quote_id", "=", quote.id)
    .orderBy("ql.id")
    .execute();
  return { quoteId: quote.id, lines: lines.map((l) => ({ ...l, quoted_unit_cents: Number(l.quoted_unit_cents) })) };
}

/** Marks the quote accepted by this order; refused if another order accepted it first. */
export async function markQuoteAccepted(
  trx: Transaction<Database>,
  quoteId: number,
  orderId: number,
  now: Date,
): Promise<void> {
  const done = await trx
    .updateTable("quotes")
    .set((eb) => ({
      status: "accepted",
      order_id: orderId,
      decided_at: now.toISOString(),
      version: eb("version", "+", 1),
    }))
    .where("id", "=", quoteId)
    .where("status", "=", "quoted")
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1)
    throw new ConflictError("QUOTE_NOT_OPEN", "This quote was just accepted or declined.");
}
