/**
 * Quotes, the buyer's side: ask for a quote on the cart (a trade account's cart, or one of at
 * least QUOTE_MIN_UNITS units), see one's quotes, decline one. Accepting happens at the checkout
 * (server/quotes/accept.ts, server/orders/place-order.ts).
 */
import { randomBytes } from "node:crypto";
import {
  mayRequestQuote,
  QUOTE_MAX_OPEN_REQUESTS,
  QUOTE_MESSAGE_MAX,
  QUOTE_MIN_UNITS,
  quoteState,
} from "../../app/lib/quotes.ts";
import { getCart, NO_LONGER_SOLD } from "../cart/cart.ts";
import type { MarketId } from "../../app/lib/markets.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, InvalidError, NotFoundError, TooManyError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { buyerTerms } from "../trade/limits.ts";
import { quoteReceivedMail, quoteRequestedStaffMail } from "./mails.ts";
import { CONTROL_IN_TEXT } from "../../app/lib/control-characters.ts";

export const QUOTE_NUMBER = /^QT-[0-9A-F]{8}$/;

export interface QuoteRequester {
  userId: string;
  email: string;
  owner: string;
  /** The shopper's market (default the US): quotes are made in US dollars, so only its cart may ask for one. */
  market?: MarketId;
}

/** Why a cart in another market than the US one can't ask for a quote. */
const QUOTE_MARKET_MESSAGE = "Quotes are made in US dollars: change market to the United States to ask for one.";

/** Whether this shopper's cart may be sent for a quote now (the cart page offers it then). */
export async function quoteOffer(
  db: Db,
  userId: string | null,
  cart: { totalQuantity: number; lines: unknown[] },
  market: MarketId = "us",
) {
  const trade = userId ? await buyerTerms(db, userId) : null;
  return {
    allowed:
      market === "us" &&
      mayRequestQuote({ totalQuantity: cart.totalQuantity, lineCount: cart.lines.length }, trade != null),
    signedIn: userId != null,
    minUnits: QUOTE_MIN_UNITS,
  };
}

/** Sends the cart to staff as a quote request; the cart is kept. Returns the quote's number. */
export async function requestQuote(
  db: Db,
  who: QuoteRequester,
  input: { message?: unknown; siteUrl: string; storeInbox: string; now?: Date },
): Promise<string> {
  const message = typeof input.message === "string" ? input.message.trim() : "";
  if (message.length > QUOTE_MESSAGE_MAX)
    throw new InvalidError("QUOTE_MESSAGE", `Keep the message to ${QUOTE_MESSAGE_MAX} characters or fewer.`);
  if (CONTROL_IN_TEXT.test(message))
    throw new InvalidError("QUOTE_MESSAGE", "The message contains characters that aren't allowed.");
  if ((who.market ?? "us") !== "us") throw new ConflictError("QUOTE_MARKET", QUOTE_MARKET_MESSAGE);
  const [cart, trade] = await Promise.all([getCart(db, who.owner, "us"), buyerTerms(db, who.userId)]);
  if (cart.lines.length === 0)
    throw new ConflictError("EMPTY_CART", "Your cart is empty: add what you need, then ask for a quote.");
  if (!mayRequestQuote({ totalQuantity: cart.totalQuantity, lineCount: cart.lines.length }, trade != null)) {
    throw new ConflictError(
      "QUOTE_NOT_OFFERED",
      `Quotes are for carts of ${QUOTE_MIN_UNITS} units or more, or for trade accounts. Your cart has ${cart.totalQuantity}.`,
    );
  }
  const gone = cart.lines.find((l) => l.notice === NO_LONGER_SOLD);
  if (gone)
    throw new ConflictError(
      "NO_LONGER_SOLD",
      `${gone.title} is no longer sold. Remove it from your cart, then ask for a quote.`,
    );
  const now = input.now ?? new Date();
  const number = `QT-${randomBytes(4).toString("hex").toUpperCase()}`;
  await db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom("quotes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", who.userId)
      .where("status", "=", "requested")
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= QUOTE_MAX_OPEN_REQUESTS) {
      throw new TooManyError(
        "TOO_MANY_QUOTES",
        `You have ${QUOTE_MAX_OPEN_REQUESTS} quote requests waiting for our prices already. We'll answer those first.`,
      );
    }
    const quote = await trx
      .insertInto("quotes")
      .values({
        number,
        user_id: who.userId,
        organization_id: trade?.organizationId ?? null,
        email: who.email,
        status: "requested",
        message: message || null,
        created_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("quote_lines")
      .values(
        cart.lines.map((l) => ({
          quote_id: quote.id,
          product_id: l.productId,
          title: l.title,
          color: l.color,
          quantity: l.quantity,
          list_price_cents: l.listPriceCents,
          requested_unit_cents: l.unitPriceCents,
        })),
      )
      .execute();
    const lines = cart.lines.map((l) => ({ title: l.title, color: l.color, quantity: l.quantity }));
    await enqueueMail(
      trx,
      quoteRequestedStaffMail({
        to: input.storeInbox,
        number,
        companyName: trade?.companyName ?? null,
        lines,
        message: message || null,
        link: `${input.siteUrl}/admin/quotes/${number}`,
      }),
    );
    await enqueueMail(
      trx,
      quoteReceivedMail({ to: who.email, number, link: `${input.siteUrl}/account/quotes/${number}` }),
    );
  });
  return number;
}

/** A quote with its lines and totals, and what can be done with it now. */
export async function loadQuote(db: Db, number: string, now = new Date()) {
  if (!QUOTE_NUMBER.test(number)) return null;
  const quote = await db.selectFrom("quotes").selectAll().where("number", "=", number).executeTakeFirst();
  if (!quote) return null;
  const [lines, order] = await Promise.all([
    db.selectFrom("quote_lines").selectAll().where("quote_id", "=", quote.id).orderBy("id").execute(),
    quote.order_id
      ? db.selectFrom("orders").select(["number"]).where("id", "=", quote.order_id).executeTakeFirst()
      : undefined,
  ]);
  const state = quoteState(quote, now);
  const quotedTotal = lines.every((l) => l.quoted_unit_cents != null)
    ? lines.reduce((n, l) => n + l.quoted_unit_cents! * l.quantity, 0)
    : null;
  return {
    ...quote,
    version: Number(quote.version),
    state,
    orderNumber: order?.number ?? null,
    lines: lines.map((l) => ({
      id: l.id,
      productId: l.product_id,
      title: l.title,
      color: l.color,
      quantity: l.quantity,
      listPriceCents: l.list_price_cents,
      requestedUnitCents: l.requested_unit_cents,
      quotedUnitCents: l.quoted_unit_cents,
    })),
    requestedTotalCents: lines.reduce((n, l) => n + l.requested_unit_cents * l.quantity, 0),
    quotedTotalCents: quotedTotal,
  };
}

/** The signed-in buyer's own quote; null (a 404) for anyone else's. */
export async function quoteForCustomer(db: Db, userId: string, number: string, now = new Date()) {
  const quote = await loadQuote(db, number, now);
  return quote && quote.user_id === userId ? quote : null;
}

export async function listQuotesForCustomer(db: Db, userId: string, now = new Date()) {
  const rows = await db
    .selectFrom("quotes")
    .select(["number", "status", "valid_until", "created_at", "quoted_at"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(100)
    .execute();
  return rows.map((r) => quoteListItem(r, now));
}

/** A quote as the customer's and the back office's lists show it. */
export function quoteListItem(
  r: { number: string; status: string; valid_until: string | null; created_at: string },
  now: Date,
) {
  return { number: r.number, state: quoteState(r, now), validUntil: r.valid_until, createdAt: r.created_at };
}

/** The buyer turns a quote down (or withdraws a request): it can't be accepted any more. */
export async function declineQuote(db: Db, userId: string, number: string, now = new Date()): Promise<string> {
  const quote = await quoteForCustomer(db, userId, number, now);
  if (!quote) throw new NotFoundError("QUOTE_NOT_FOUND", "There is no such quote on your account.");
  if (quote.state !== "quoted" && quote.state !== "requested")
    throw new ConflictError("QUOTE_NOT_OPEN", `Quote ${number} is ${quote.state} already.`);
  const done = await db
    .updateTable("quotes")
    .set((eb) => ({ status: "declined", decided_at: now.toISOString(), version: eb("version", "+", 1) }))
    .where("id", "=", quote.id)
    .where("status", "in", ["requested", "quoted"])
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1)
    throw new ConflictError("QUOTE_NOT_OPEN", `Quote ${number} was just accepted or declined.`);
  return `Quote ${number} is declined.`;
}
