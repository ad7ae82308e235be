/**
 * What a Checkout session's state means for its order. Webhooks and the reconciliation job both
 * come here, inside a transaction, with the facts of one session; the order's state decides what
 * (if anything) changes, so the same facts applied twice, or late, or out of order, change
 * nothing twice. Money that doesn't match the order is never taken as payment: the order is
 * flagged for staff instead.
 */
import { sql, type Transaction } from "kysely";
import type Stripe from "stripe";
import { centsToDecimalString, CURRENCIES, formatMoney, type Currency } from "../../app/lib/money.ts";
import { PAYMENT_METHODS } from "../../app/lib/order-rules.ts";
import type { Database } from "../db/schema.ts";
import { LinesOutOfStockError } from "../inventory/stock.ts";
import { enqueueMail } from "../mail/queue.ts";
import { recordOrderEvent } from "../orders/history.ts";
import { mailLinesOf, orderPlacedMail } from "../orders/mails.ts";
import { applyTransition, changePaymentStatus, OrderConflictError } from "../orders/states.ts";

/** A settlement by a method like a bank debit can take days: the stock stays held that long. */
const PROCESSING_HOLD_DAYS = 7;

export interface SessionFacts {
  sessionId: string;
  /** The order number the store put in client_reference_id. */
  orderNumber: string | null;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  amountTotal: number | null;
  currency: string | null;
  paymentIntentId: string | null;
  /** The delayed payment failed (checkout.session.async_payment_failed, or the PaymentIntent says so). */
  asyncFailed: boolean;
}

export function sessionFacts(session: Stripe.Checkout.Session, options: { asyncFailed?: boolean } = {}): SessionFacts {
  const intent = session.payment_intent;
  const intentId = typeof intent === "string" ? intent : (intent?.id ?? null);
  const intentFailed =
    typeof intent === "object" &&
    intent !== null &&
    (intent.status === "requires_payment_method" || intent.status === "canceled");
  return {
    sessionId: session.id,
    orderNumber: session.client_reference_id ?? session.metadata?.order_number ?? null,
    status: (session.status ?? "open") as SessionFacts["status"],
    paymentStatus: session.payment_status as SessionFacts["paymentStatus"],
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
    paymentIntentId: intentId,
    asyncFailed:
      Boolean(options.asyncFailed) ||
      (session.status === "complete" && session.payment_status === "unpaid" && intentFailed),
  };
}

export interface SettleContext {
  now: Date;
  /** Where the mail's order link points: the site's address. */
  siteUrl: string;
  /** "stripe:webhook:<event id>", "system:payment-reconciliation", "shopper:return". */
  actor: string;
}

export type SettleOutcome = {
  result: "paid" | "processing" | "failed" | "expired" | "flagged" | "ignored";
  detail: string;
  orderId: number | null;
};

type OrderRow = Awaited<ReturnType<typeof readOrder>>;

function readOrder(trx: Transaction<Database>, number: string) {
  return trx
    .selectFrom("orders")
    .selectAll()
    .where("number", "=", number)
    .where("payment_method", "=", "card")
    .executeTakeFirst();
}

/** Changes the order's payment fields only if nobody changed the order since it was read. */
async function updateIfUnchanged(
  trx: Transaction<Database>,
  order: { id: number; version: number },
  set: Partial<Record<keyof Database["orders"], unknown>>,
) {
  const updated = await trx
    .updateTable("orders")
    .set({ ...(set as object), version: order.version + 1 })
    .where("id", "=", order.id)
    .where("version", "=", order.version)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new OrderConflictError();
}

/** An amount Stripe reports, with its currency's code, as a staff note names it: "£154.79 GBP", "154.79 EUR". */
const money = (cents: number | null, currency: string | null) => {
  const code = (currency ?? "?").toUpperCase();
  return CURRENCIES.includes(currency as Currency)
    ? `${formatMoney(cents ?? 0, currency as Currency)} ${code}`
    : `${centsToDecimalString(cents ?? 0)} ${code}`;
};

async function paymentEvent(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  ctx: SettleContext,
  reason: string,
  move?: { from: string; to: string },
) {
  await recordOrderEvent(trx, {
    orderId: order.id,
    actor: ctx.actor,
    kind: move ? "status" : "payment",
    from: move?.from ?? null,
    to: move?.to ?? null,
    details: { reason },
    now: ctx.now,
  });
}

async function flag(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  facts: SessionFacts,
  ctx: SettleContext,
  reason: string,
): Promise<SettleOutcome> {
  await updateIfUnchanged(trx, order, {
    payment_flag: reason.slice(0, 500),
    // The money Stripe holds for this order: staff refund it from here.
    payment_intent_id: order.payment_intent_id ?? facts.paymentIntentId,
    paid_cents: order.paid_cents ?? facts.amountTotal,
    // A flagged order keeps its reservation until staff decide (the hold no longer runs out).
    hold_expires_at: null,
    updated_at: ctx.now.toISOString(),
  });
  await paymentEvent(trx, order, ctx, `Flagged for staff: ${reason}`);
  return { result: "flagged", detail: reason, orderId: order.id };
}

/** Removes what was ordered from the cart it came from (lines added since stay). */
async function takeOrderedLinesFromCart(trx: Transaction<Database>, order: NonNullable<OrderRow>) {
  if (!order.cart_owner) return;
  const lines = await trx
    .selectFrom("order_lines")
    .select(["product_id", "color", "quantity"])
    .where("order_id", "=", order.id)
    .execute();
  for (const line of lines) {
    await trx
      .deleteFrom("cart_items")
      .where("owner", "=", order.cart_owner)
      .where("product_id", "=", line.product_id)
      .where("color", "=", line.color)
      .where("quantity", "<=", line.quantity)
      .execute();
    await trx
      .updateTable("cart_items")
      .set((eb) => ({ quantity: eb("quantity", "-", line.quantity) }))
      .where("owner", "=", order.cart_owner)
      .where("product_id", "=", line.product_id)
      .where("color", "=", line.color)
      .execute();
  }
}

async function placePaidOrder(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  facts: SessionFacts,
  ctx: SettleContext,
): Promise<SettleOutcome> {
  const moved = await applyTransition(
    trx,
    { id: order.id, status: "awaiting_payment", version: order.version },
    "placed",
    { actor: ctx.actor, now: ctx.now },
  );
  await changePaymentStatus(trx, { id: moved.id, payment_status: order.payment_status }, "paid", {
    payment_intent_id: facts.paymentIntentId,
    paid_cents: facts.amountTotal,
    paid_at: ctx.now.toISOString(),
    payment_flag: null,
    updated_at: ctx.now.toISOString(),
  });
  await takeOrderedLinesFromCart(trx, order);
  await paymentEvent(trx, order, ctx, `Paid ${money(facts.amountTotal, facts.currency)} by card`, {
    from: "awaiting_payment",
    to: "placed",
  });
  const lines = await mailLinesOf(trx, order.id);
  const link = order.user_id
    ? `${ctx.siteUrl}/account/orders/${order.number}`
    : `${ctx.siteUrl}/orders/${order.access_token}`;
  const paymentLabel = PAYMENT_METHODS.find((m) => m.id === "card")!.label;
  await enqueueMail(trx, orderPlacedMail(order, lines, { link, paymentLabel: `${paymentLabel} (paid)` }));
  return { result: "paid", detail: `paid ${money(facts.amountTotal, facts.currency)}`, orderId: order.id };
}

/**
 * Takes the stock again for an order whose hold ran out before its money arrived; inside a
 * savepoint, so a shortage undoes only this step. False when the stock is gone.
 */
async function reserveAgain(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  ctx: SettleContext,
): Promise<NonNullable<OrderRow> | null> {
  await sql`savepoint reserve_again`.execute(trx);
  try {
    const moved = await applyTransition(
      trx,
      { id: order.id, status: order.status, version: order.version },
      "awaiting_payment",
      { actor: ctx.actor, now: ctx.now, holdExpiresAt: ctx.now },
    );
    await sql`release savepoint reserve_again`.execute(trx);
    return { ...order, status: "awaiting_payment", version: moved.version };
  } catch (error) {
    if (!(error instanceof LinesOutOfStockError)) throw error;
    await sql`rollback to savepoint reserve_again`.execute(trx);
    return null;
  }
}

async function settlePaid(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  facts: SessionFacts,
  ctx: SettleContext,
): Promise<SettleOutcome> {
  const sameIntent = order.payment_intent_id != null && order.payment_intent_id === facts.paymentIntentId;
  if (sameIntent && (order.payment_status === "paid" || order.payment_status === "refunded" || order.payment_flag)) {
    return { result: "ignored", detail: "payment already recorded", orderId: order.id };
  }
  if (order.paid_cents != null && !sameIntent) {
    return flag(
      trx,
      order,
      facts,
      ctx,
      `Paid twice: a second payment of ${money(facts.amountTotal, facts.currency)} (${facts.paymentIntentId}) arrived after ${order.payment_intent_id}. Refund one of them.`,
    );
  }
  if (facts.amountTotal !== order.total_cents || facts.currency !== order.currency) {
    return flag(
      trx,
      order,
      facts,
      ctx,
      `Amount paid ${money(facts.amountTotal, facts.currency)} differs from the order total ${money(order.total_cents, order.currency)}.`,
    );
  }
  if (order.status === "awaiting_payment") return placePaidOrder(trx, order, facts, ctx);
  if (order.status === "expired") {
    const reserved = await reserveAgain(trx, order, ctx);
    if (reserved) return placePaidOrder(trx, reserved, facts, ctx);
    return flag(
      trx,
      order,
      facts,
      ctx,
      "Paid after its reservation ran out, and the items are no longer in stock. Refund the payment or restock and place it.",
    );
  }
  return flag(trx, order, facts, ctx, `Paid while the order was ${order.status.replace(/_/g, " ")}.`);
}

async function settleProcessing(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  facts: SessionFacts,
  ctx: SettleContext,
): Promise<SettleOutcome> {
  let current = order;
  // Only an order whose hold ran out before the payment began takes its stock again: one whose
  // delayed payment already failed (this "processing" report came late, out of order) stays released.
  if (current.status === "expired" && current.payment_status === "pending") {
    const reserved = await reserveAgain(trx, current, ctx);
    if (!reserved)
      return flag(
        trx,
        current,
        facts,
        ctx,
        "A delayed payment started after the reservation ran out, and the items are no longer in stock.",
      );
    current = reserved;
  }
  if (current.status !== "awaiting_payment" || current.payment_status !== "pending")
    return {
      result: "ignored",
      detail: `order is ${current.status}, payment ${current.payment_status}`,
      orderId: order.id,
    };
  const until = new Date(ctx.now.getTime() + PROCESSING_HOLD_DAYS * 86_400_000).toISOString();
  await changePaymentStatus(
    trx,
    current,
    "processing",
    { payment_intent_id: facts.paymentIntentId, hold_expires_at: until, updated_at: ctx.now.toISOString() },
    { ifVersion: current.version },
  );
  await paymentEvent(trx, current, ctx, "Payment processing (settles later); stock held meanwhile");
  return { result: "processing", detail: "payment processing", orderId: order.id };
}

async function release(
  trx: Transaction<Database>,
  order: NonNullable<OrderRow>,
  ctx: SettleContext,
  paymentStatus: "pending" | "failed",
  reason: string,
): Promise<SettleOutcome> {
  await applyTransition(trx, { id: order.id, status: "awaiting_payment", version: order.version }, "expired", {
    actor: ctx.actor,
    now: ctx.now,
  });
  await changePaymentStatus(trx, order, paymentStatus, { updated_at: ctx.now.toISOString() });
  await paymentEvent(trx, order, ctx, reason, { from: "awaiting_payment", to: "expired" });
  return { result: paymentStatus === "failed" ? "failed" : "expired", detail: reason, orderId: order.id };
}

/** Applies one session's facts to its order, in the caller's transaction. */
export async function applyCheckoutSession(
  trx: Transaction<Database>,
  facts: SessionFacts,
  ctx: SettleContext,
): Promise<SettleOutcome> {
  const order = facts.orderNumber ? await readOrder(trx, facts.orderNumber) : undefined;
  if (!order) return { result: "ignored", detail: "no card order for this session", orderId: null };
  const current = (order.payment_session_id ?? "") === facts.sessionId;

  if (facts.status === "complete" && facts.paymentStatus === "paid") return settlePaid(trx, order, facts, ctx);
  if (facts.status === "complete" && facts.asyncFailed) {
    if (order.status !== "awaiting_payment" || order.payment_status === "paid")
      return { result: "ignored", detail: `order is ${order.status}`, orderId: order.id };
    return release(trx, order, ctx, "failed", "The payment failed; the items were released");
  }
  if (facts.status === "complete") return settleProcessing(trx, order, facts, ctx);
  if (facts.status === "expired") {
    if (!current || order.status !== "awaiting_payment" || order.payment_status !== "pending")
      return {
        result: "ignored",
        detail: `order is ${order.status}, payment ${order.payment_status}`,
        orderId: order.id,
      };
    return release(
      trx,
      order,
      ctx,
      "pending",
      "The payment page expired or was cancelled before payment; the items were released",
    );
  }
  return { result: "ignored", detail: "session still open", orderId: order.id };
}

/**
 * Runs one settlement transaction, again when it lost a race with another actor on the same
 * order (a webhook and the shopper's return, say): the second run reads the new state and
 * usually finds nothing left to do.
 */
export async function retryOnOrderConflict<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof OrderConflictError) || attempt >= attempts) throw error;
    }
  }
}
