import { countPlacedOrder } from "../ops/metrics.ts";
import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { CheckoutInput } from "../../app/lib/checkout-schema.ts";
import {
  DEFAULT_GUEST_ORDER_HOLD_MINUTES,
  QUANTITY_LIMIT_MESSAGES,
  quantityLimitProblem,
  summarizeOrder,
} from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, DomainError, InvalidError } from "../errors.ts";
import { moveStocks, LinesOutOfStockError } from "../inventory/stock.ts";
import { enqueueMail } from "../mail/queue.ts";
import { expireOverdueHolds, hashConfirmToken } from "./holds.ts";
import { claimGuestHold, releasingOverdueGuestHolds, type GuestHoldClaim } from "./guest-holds.ts";
import { confirmOrderMail, orderPlacedMail } from "./mails.ts";
import { paymentMethod } from "./payment.ts";
import { priceLines, tradeRuleFor, type VolumeBreak } from "../../app/lib/pricing.ts";
import { buyerPriceRules, groupVolumeBreaks } from "../trade/prices.ts";
import { buyerTerms } from "../trade/limits.ts";
import { requestApproval } from "../trade/approvals.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { MARKETS, type MarketId } from "../../app/lib/markets.ts";
import { orderMarket } from "./checkout-market.ts";
import { checkCredit, NET30_METHOD, NET30_NOT_OFFERED_MESSAGE } from "../invoices/credit.ts";
import { issueInvoiceInTransaction } from "../invoices/invoices.ts";
import { markQuoteAccepted, quoteOrderLines } from "../quotes/accept.ts";
import { lineProductColumns } from "../cart/priced-lines.ts";
import { checkoutTax, insertOrderTaxLines, usTablesFor } from "../tax/checkout-tax.ts";
import type { UsTaxTables } from "../tax/order-tax.ts";
import { CheckoutReviewError, unseenReview } from "./checkout-review.ts";

export interface PlaceOrderInput {
  owner: string;
  userId: string | null;
  checkout: CheckoutInput;
  siteUrl: string;
  /** How long a guest's order is held awaiting the confirmation from the mail. */
  holdMinutes?: number;
  /** How long a card order holds its stock while the shopper pays (PAYMENT_HOLD_MINUTES). */
  paymentHoldMinutes?: number;
  /** Accept this quote: the order is made from its lines at its prices, and the cart is left alone. */
  quoteNumber?: string | null;
  /**
   * A guest's order: the client network it comes from and the caps on what guests' orders may
   * hold at once (server/orders/guest-holds.ts). The checkout always passes it; without it
   * (scripts, tests of other rules) a guest's order is not counted against the caps.
   */
  guestHolds?: GuestHoldClaim;
  now?: Date;
}

export interface PlacedOrder {
  number: string;
  accessToken: string;
  /** False when the checkout token had already placed this order (a double click or a retry). */
  created: boolean;
  /** Above the trade buyer's spending limit: sent to the company's approvers, not placed. */
  awaitingApproval?: boolean;
}

export { LinesOutOfStockError };

function orderNumber(): string {
  return `TH-${randomBytes(5).toString("hex").toUpperCase()}`;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: string; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

async function existingOrder(db: Db, checkoutToken: string, owner: string): Promise<PlacedOrder | null> {
  const row = await db
    .selectFrom("orders")
    .select(["number", "access_token", "user_id", "email"])
    .where("checkout_token", "=", checkoutToken)
    .executeTakeFirst();
  if (!row) return null;
  if (owner.startsWith("u:") && row.user_id !== owner.slice(2))
    throw new ConflictError("CHECKOUT_TOKEN_USED", "This checkout was already used. Reload the page and try again.");
  return { number: row.number, accessToken: row.access_token, created: false };
}

interface OrderKeys {
  number: string;
  accessToken: string;
  /** Only for a guest's order: the secret of the confirmation link in the mail. */
  confirmToken: string | null;
  now: Date;
}

/** A cart's lines with their products (priced in a market) and volume breaks, one row per break, in the cart's order. */
const cartLinesWithBreaksIn = (market: MarketId) =>
  compiledOnce((db: Db, owner: string) =>
    db
      .selectFrom("cart_items as ci")
      .innerJoin("products as p", "p.id", "ci.product_id")
      .leftJoin("volume_breaks as vb", "vb.product_id", "ci.product_id")
      .select([
        "ci.product_id",
        "ci.color",
        "ci.quantity",
        ...lineProductColumns(market),
        "vb.min_quantity",
        "vb.percent_off",
      ])
      .where("ci.owner", "=", owner)
      .orderBy("ci.created_at")
      .orderBy("ci.product_id")
      .orderBy("ci.color"),
  );
const cartLinesWithBreaks = { us: cartLinesWithBreaksIn("us"), uk: cartLinesWithBreaksIn("uk") };

/** Empties a cart (the order took its lines). */
const emptyCart = compiledOnce((db: Db, owner: string) => db.deleteFrom("cart_items").where("owner", "=", owner));

/** The cart's lines and their products' volume breaks (read together), or an accepted quote's lines at its prices. */
async function orderSource(trx: Transaction<Database>, input: PlaceOrderInput, now: Date, market: MarketId) {
  if (input.quoteNumber) {
    const quote = await quoteOrderLines(trx, input.userId, input.quoteNumber, now);
    return {
      quoteId: quote.quoteId,
      lines: quote.lines,
      quotedCents: quote.lines.map((l) => l.quoted_unit_cents),
      breaks: new Map<number, VolumeBreak[]>(),
    };
  }
  const rows = await cartLinesWithBreaks[market](trx, input.owner);
  const lines: Omit<(typeof rows)[number], "min_quantity" | "percent_off">[] = [];
  for (const { min_quantity: _min, percent_off: _percent, ...line } of rows) {
    const previous = lines.at(-1);
    if (previous?.product_id !== line.product_id || previous.color !== line.color) lines.push(line);
  }
  return { quoteId: null, lines, quotedCents: null, breaks: groupVolumeBreaks(rows) };
}

function shortOfStock(
  lines: { product_id: number; quantity: number; title: string; stock_quantity: number | string }[],
): void {
  const wanted = new Map<number, number>();
  for (const l of lines) wanted.set(l.product_id, (wanted.get(l.product_id) ?? 0) + l.quantity);
  const short = lines.filter((l) => wanted.get(l.product_id)! > Number(l.stock_quantity));
  if (short.length)
    throw new LinesOutOfStockError(
      [...new Set(short.map((l) => l.title))],
      [...new Set(short.map((l) => l.product_id))],
    );
}

async function placeInTransaction(
  trx: Transaction<Database>,
  input: PlaceOrderInput,
  keys: OrderKeys,
  usTables: UsTaxTables | undefined,
): Promise<PlacedOrder> {
  const { checkout, owner } = input;
  const [rules, trade] = await Promise.all([buyerPriceRules(trx, input.userId), buyerTerms(trx, input.userId)]);
  const market = orderMarket(checkout.country, { trade: trade != null, quote: Boolean(input.quoteNumber) });
  const currency = MARKETS[market].currency;
  const { quoteId, lines, quotedCents, breaks } = await orderSource(trx, input, keys.now, market);
  if (lines.length === 0) throw new ConflictError("EMPTY_CART", "Your cart is empty.");
  const archived = lines.find((l) => l.archived_at);
  if (archived)
    throw new ConflictError(
      "NO_LONGER_SOLD",
      `${archived.title} is no longer sold. Remove it from your cart; your order was not placed.`,
    );
  const tooMany = quantityLimitProblem(lines.map((l) => l.quantity));
  if (tooMany)
    throw new ConflictError(
      "QUANTITY_LIMIT",
      `${QUANTITY_LIMIT_MESSAGES[tooMany]} Please lower the quantities in your cart; your order was not placed.`,
    );

  // The one price rule, as the cart showed it: list, volume break or the buyer's trade price.
  if (trade?.poRequired && !checkout.poNumber)
    throw new InvalidError("PO_REQUIRED", `${trade.companyName} asks for a purchase-order number on every order.`);
  // A quote's prices are the agreed ones: no other discount goes on top of them.
  const unitCents =
    quotedCents ??
    priceLines(
      lines.map((l) => ({
        productId: l.product_id,
        quantity: l.quantity,
        listCents: l.sale_price_cents,
        volumeBreaks: breaks.get(l.product_id),
        trade: tradeRuleFor(rules, l.product_id, l.category_id),
      })),
    ).map((l) => l.unit.unitCents);
  const beforeTax = summarizeOrder(
    lines.map((l, i) => ({ unitPriceCents: unitCents[i], quantity: l.quantity })),
    { isMember: input.userId != null && quoteId == null, country: checkout.country, market },
  );
  const tax = await checkoutTax(trx, {
    country: checkout.country,
    postcode: checkout.postcode,
    organizationId: trade?.organizationId ?? null,
    lines: lines.map((l, i) => ({ amountCents: unitCents[i] * l.quantity, vatClass: l.vat_class })),
    discountCents: beforeTax.memberDiscountCents,
    shippingCents: beforeTax.shippingCents,
    today: keys.now.toISOString().slice(0, 10),
    usTables,
  });
  const summary = { ...beforeTax, taxCents: tax.addedCents, totalCents: beforeTax.totalCents + tax.addedCents };
  // Sales tax and California's warning are shown before an order is placed: what the page didn't show sends it back.
  const prop65Products = lines.filter((l) => Number(l.prop65) === 1).map((l) => l.title);
  const review = unseenReview(checkout, {
    postcode: checkout.postcode.toUpperCase(),
    state: tax.state,
    taxCents: tax.addedCents,
    taxLines: tax.lines.map((l) => ({ label: l.label, taxCents: l.taxCents })),
    totalCents: summary.totalCents,
    prop65Products,
  });
  if (review) throw new CheckoutReviewError(review);
  const method = paymentMethod(checkout.paymentMethod);
  if (quoteId != null && method.collectsOnline)
    throw new ConflictError("QUOTE_NOT_BY_CARD", "A quote is paid on delivery or by invoice: choose one of those.");
  const onAccount = method.id === NET30_METHOD;
  // Net 30 is a company's credit: only for a company with net-30 terms, never above its credit limit.
  if (onAccount) {
    if (!trade) throw new ConflictError("NET30_NOT_OFFERED", NET30_NOT_OFFERED_MESSAGE);
    await checkCredit(trx, trade, summary.totalCents);
  }
  // Above the buyer's spending limit the order waits for an approver, holding no stock.
  const needsApproval = trade?.limitCents != null && summary.totalCents > trade.limitCents;
  if (needsApproval && method.collectsOnline) {
    throw new ConflictError(
      "APPROVAL_NOT_BY_CARD",
      `This order is above your spending limit of ${formatMoney(trade.limitCents!)}, so it goes to your company's approvers first: choose pay on delivery or invoice.`,
    );
  }
  // Stock already short as read in this transaction: refused before anything is written. The
  // conditional update in moveStocks stays the rule that never oversells.
  if (!needsApproval) shortOfStock(lines);
  const payment = await method.authorize({
    orderNumber: keys.number,
    totalCents: summary.totalCents,
    email: checkout.email,
    businessName: onAccount ? trade!.companyName : null,
    taxNumber: onAccount ? trade!.taxId : null,
  });
  // A card order holds its stock until it is paid (the cart stays until then); a guest's other
  // orders hold it until the guest confirms from the mail; a member's are placed at once.
  const online = method.collectsOnline;
  const guest = input.userId == null && !online;
  const holdMinutes = online
    ? (input.paymentHoldMinutes ?? 30)
    : (input.holdMinutes ?? DEFAULT_GUEST_ORDER_HOLD_MINUTES);
  const held = online || guest;
  const status = needsApproval
    ? "awaiting_approval"
    : online
      ? "awaiting_payment"
      : guest
        ? "awaiting_confirmation"
        : "placed";
  // A guest's order may hold only what fits under the caps on guests' held units (decision 0039).
  const units = lines.reduce((sum, l) => sum + l.quantity, 0);
  const holdClient =
    input.userId == null && held && input.guestHolds
      ? await claimGuestHold(trx, {
          claim: input.guestHolds,
          email: checkout.email,
          units,
          now: keys.now,
          place: "checkout",
        })
      : null;

  // Claim the checkout token first: a concurrent duplicate waits here and then fails as a duplicate.
  const order = await trx
    .insertInto("orders")
    .values({
      number: keys.number,
      currency,
      access_token: keys.accessToken,
      checkout_token: checkout.checkoutToken,
      user_id: input.userId,
      email: checkout.email,
      status,
      hold_expires_at: held ? new Date(keys.now.getTime() + holdMinutes * 60_000).toISOString() : null,
      confirm_token_hash: keys.confirmToken && guest ? hashConfirmToken(keys.confirmToken) : null,
      ...(holdClient ? { hold_client: holdClient } : {}),
      cart_owner: quoteId == null ? owner : null,
      payment_method: method.id,
      payment_status: payment.paymentStatus,
      business_name: onAccount ? trade!.companyName : null,
      tax_number: onAccount ? trade!.taxId : null,
      po_number: trade ? checkout.poNumber : null,
      organization_id: trade?.organizationId ?? null,
      ship_name: checkout.name,
      ship_line1: checkout.line1,
      ship_line2: checkout.line2,
      ship_city: checkout.city,
      ship_region: checkout.region,
      ship_postcode: checkout.postcode.toUpperCase(),
      ship_country: checkout.country,
      subtotal_cents: summary.subtotalCents,
      member_discount_cents: summary.memberDiscountCents,
      shipping_cents: summary.shippingCents,
      tax_cents: summary.taxCents,
      total_cents: summary.totalCents,
      tax_basis: tax.basis,
      tax_state: tax.state,
      tax_certificate_id: tax.certificateId,
      prop65_warned: tax.state === "CA" && prop65Products.length > 0 ? 1 : 0,
      created_at: keys.now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  // Stock is taken in product-id order (moveStocks), whatever the cart's order, so two checkouts
  // of the same products never wait for each other's rows in a cycle.
  const actor = input.userId ? `user:${input.userId}` : "guest";
  const taken = needsApproval
    ? lines.map(() => 0)
    : await moveStocks(
        trx,
        lines.map((l) => ({
          productId: l.product_id,
          delta: -l.quantity,
          reason: "order" as const,
          orderId: order.id,
          actor,
        })),
        { now: keys.now },
      );
  const short = lines.filter((_, i) => taken[i] === null);
  if (short.length)
    throw new LinesOutOfStockError(
      [...new Set(short.map((l) => l.title))],
      [...new Set(short.map((l) => l.product_id))],
    );

  const orderLines = lines.map((l, i) => ({
    order_id: order.id,
    product_id: l.product_id,
    title: l.title,
    color: l.color,
    quantity: l.quantity,
    unit_price_cents: unitCents[i],
    line_total_cents: unitCents[i] * l.quantity,
    list_price_cents: l.sale_price_cents,
  }));
  await trx.insertInto("order_lines").values(orderLines).execute();
  await insertOrderTaxLines(trx, order.id, tax);
  if (quoteId != null) await markQuoteAccepted(trx, quoteId, order.id, keys.now);
  // A card order's confirmation mail goes out when the payment arrives (server/payments/settle.ts).
  if (online) return { number: keys.number, accessToken: keys.accessToken, created: true };
  if (quoteId == null) await emptyCart(trx, owner);
  if (needsApproval) {
    const pending = {
      id: order.id,
      number: keys.number,
      email: checkout.email,
      ship_name: checkout.name,
      total_cents: summary.totalCents,
      po_number: checkout.poNumber,
    };
    await requestApproval(trx, {
      order: pending,
      userId: input.userId!,
      organizationId: trade.organizationId,
      companyName: trade.companyName,
      limitCents: trade.limitCents!,
      siteUrl: input.siteUrl,
      now: keys.now,
    });
    return { number: keys.number, accessToken: keys.accessToken, created: true, awaitingApproval: true };
  }

  // A net-30 order is invoiced as it is placed: the 30 days and the credit it uses start now.
  if (onAccount) await issueInvoiceInTransaction(trx, order.id, keys.now);
  const mailOrder = {
    number: keys.number,
    email: checkout.email,
    ship_name: checkout.name,
    subtotal_cents: summary.subtotalCents,
    member_discount_cents: summary.memberDiscountCents,
    shipping_cents: summary.shippingCents,
    tax_cents: summary.taxCents,
    total_cents: summary.totalCents,
    currency,
    po_number: trade ? checkout.poNumber : null,
  };
  const mail = keys.confirmToken
    ? confirmOrderMail(mailOrder, orderLines, {
        link: `${input.siteUrl}/orders/${keys.accessToken}?confirm=${keys.confirmToken}`,
        holdMinutes,
      })
    : orderPlacedMail(mailOrder, orderLines, {
        link: `${input.siteUrl}/account/orders/${keys.number}`,
        paymentLabel: method.label,
      });
  await enqueueMail(trx, mail);
  return { number: keys.number, accessToken: keys.accessToken, created: true };
}

/**
 * Places the order in one transaction: reprices every line from the database, checks the
 * quantity caps, takes the stock down through the ledger (never below zero, in product-id order),
 * writes the order and its lines at the prices paid, queues the mail, and empties the cart. A
 * member's order is placed at once; a guest's waits for the confirmation link in the mail, its
 * stock held until then. A repeated checkout token returns the order it already made (the token
 * is unique, so the repeat fails inside its transaction and finds that order); a deadlock or
 * serialization failure runs the transaction again. When stock is short, holds that have run out
 * on those products are released first and the order is tried once more.
 */
export async function placeOrder(db: Db, input: PlaceOrderInput): Promise<PlacedOrder> {
  const { checkout, owner } = input;
  const keys: OrderKeys = {
    number: orderNumber(),
    accessToken: randomBytes(24).toString("base64url"),
    confirmToken: input.userId == null ? randomBytes(24).toString("base64url") : null,
    now: input.now ?? new Date(),
  };
  // The address's US tax rates, read before the transaction: they don't need the order's locks.
  const usTables = await usTablesFor(db, checkout.country, checkout.postcode);
  const attempt = async () => {
    const placed = await releasingOverdueGuestHolds(db, keys.now, () =>
      withTransactionRetry(() => db.transaction().execute((trx) => placeInTransaction(trx, input, keys, usTables))),
    );
    if (
      placed.created &&
      !placed.awaitingApproval &&
      input.userId != null &&
      !paymentMethod(input.checkout.paymentMethod).collectsOnline
    )
      countPlacedOrder(input.checkout.paymentMethod);
    return placed;
  };
  try {
    try {
      return await attempt();
    } catch (error) {
      if (
        error instanceof LinesOutOfStockError &&
        (await expireOverdueHolds(db, { now: keys.now, productIds: error.productIds })) > 0
      )
        return await attempt();
      throw error;
    }
  } catch (error) {
    // A repeat of a checkout that already succeeded (a double click, a retry) finds the token
    // taken, the cart emptied or the quote accepted: answer with the order the first request made.
    // So does one that finds the stock short: a card order keeps its cart until it is paid, and
    // the first request may have taken the last units.
    if (isUniqueViolation(error) || error instanceof DomainError) {
      const earlier = await existingOrder(db, checkout.checkoutToken, owner);
      if (earlier) return earlier;
    }
    throw error;
  }
}
