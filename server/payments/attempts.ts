/**
 * Payment attempts of a card order: each one a Stripe Checkout session for the order's total
 * (integer cents from the database, never from the browser), created with an idempotency key made
 * of the order number and the attempt's number, so a retried request can't open a second session.
 * Trying again after the hold ended takes the stock again for the same order (never a second order).
 */
import type Stripe from "stripe";
import { config } from "../config.ts";
import { settleSession } from "./reconcile.ts";
import { sessionFacts } from "./settle.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { claimGuestHold, releasingOverdueGuestHolds, type GuestHoldClaim } from "../orders/guest-holds.ts";
import { recordOrderEvent } from "../orders/history.ts";
import { applyTransition, changePaymentStatus, OrderConflictError } from "../orders/states.ts";
import type { Payments } from "./stripe.ts";

/** Stripe refuses a Checkout session that expires sooner than 30 minutes after it is made. */
const STRIPE_MIN_SESSION_MINUTES = 31;

export const PAYMENT_UNAVAILABLE_MESSAGE =
  "We couldn't open the payment page just now. Your order and its items are held for you; please try again in a moment.";

export interface PaymentTarget {
  /** Where the order's page is, from the shopper's point of view (/account/orders/… or /orders/…). */
  orderPath: string;
  /** The site's origin the shopper is on (server/payments/stripe.ts returnOrigin). */
  origin: string;
}

export function orderPagePath(order: { user_id: string | null; number: string; access_token: string }): string {
  return order.user_id ? `/account/orders/${order.number}` : `/orders/${order.access_token}`;
}

function readOrder(db: Db, orderId: number) {
  return db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
}

export const ALREADY_PAID_MESSAGE =
  "Your payment for this order has already gone through. Reload the page to see your order.";

/**
 * The order's current session if it can still be paid. A session that was paid (its webhook not
 * in yet) is settled now instead, and no second page is opened: that would let the shopper pay twice.
 */
async function reusableSession(
  db: Db,
  payments: Payments,
  order: { number: string; payment_session_id: string | null },
  now: Date,
): Promise<Stripe.Checkout.Session | null> {
  if (!order.payment_session_id) return null;
  const session = await payments.stripe.checkout.sessions.retrieve(order.payment_session_id, {
    expand: ["payment_intent"],
  });
  if (session.status === "open" && session.url) return session;
  if (session.status === "complete") {
    await settleSession(
      db,
      { ...sessionFacts(session), orderNumber: order.number },
      { now, siteUrl: config().siteUrl, actor: "system:payment-page" },
    );
    throw new ConflictError("ALREADY_PAID", ALREADY_PAID_MESSAGE);
  }
  return null;
}

/**
 * The payment page for a card order awaiting payment: its open session if it has one, otherwise
 * a new session (attempt n+1). Returns the Stripe URL to send the shopper to.
 */
export async function openPaymentPage(
  db: Db,
  payments: Payments,
  orderId: number,
  target: PaymentTarget,
  now = new Date(),
): Promise<string> {
  const order = await readOrder(db, orderId);
  if (!order || order.payment_method !== "card")
    throw new NotFoundError("ORDER_NOT_FOUND", "That order doesn't exist.");
  if (order.status !== "awaiting_payment" || order.payment_status !== "pending" || order.payment_flag) {
    throw new ConflictError(
      "NOT_AWAITING_PAYMENT",
      "This order isn't waiting for a payment any more. Reload the page to see where it stands.",
    );
  }
  const open = await reusableSession(db, payments, order, now);
  if (open) return open.url!;

  const attempt = order.payment_attempts + 1;
  // The claim bumps the version too: the hold-expiry job, which read the order before, then loses
  // its race instead of releasing the stock under a page about to be opened.
  const claimed = await db
    .updateTable("orders")
    .set({ payment_attempts: attempt, version: order.version + 1 })
    .where("id", "=", order.id)
    .where("version", "=", order.version)
    .where("payment_attempts", "=", order.payment_attempts)
    .where("status", "=", "awaiting_payment")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new OrderConflictError();

  const holdEnd = Date.parse(order.hold_expires_at ?? now.toISOString());
  const expiresAt = Math.ceil(Math.max(holdEnd, now.getTime() + STRIPE_MIN_SESSION_MINUTES * 60_000) / 1000);
  const base = `${target.origin}${target.orderPath}`;
  const session = await payments.stripe.checkout.sessions.create(
    {
      mode: "payment",
      client_reference_id: order.number,
      metadata: { order_number: order.number },
      payment_intent_data: { metadata: { order_number: order.number } },
      customer_email: order.email,
      allowed_payment_method_types: ["card", "link"],
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: order.currency,
            unit_amount: order.total_cents,
            product_data: { name: `ToolHub Wholesale order ${order.number}` },
          },
        },
      ],
      expires_at: expiresAt,
      success_url: `${base}${base.includes("?") ? "&" : "?"}payment=return`,
      cancel_url: `${base}${base.includes("?") ? "&" : "?"}payment=cancelled`,
    },
    { idempotencyKey: `checkout-${order.number}-${attempt}` },
  );
  const saved = await db
    .updateTable("orders")
    .set({
      payment_session_id: session.id,
      payment_session_expires_at: new Date(session.expires_at * 1000).toISOString(),
      updated_at: now.toISOString(),
    })
    .where("id", "=", order.id)
    .where("payment_attempts", "=", attempt)
    // The hold may have run out while Stripe opened the page (the reconciliation job or another
    // checkout released the order and its stock): then the page must not take a payment either.
    .where("status", "=", "awaiting_payment")
    .executeTakeFirst();
  if (Number(saved.numUpdatedRows) !== 1) {
    // A newer attempt started meanwhile (two tabs), or the order stopped waiting for payment: this session must never be payable.
    await payments.stripe.checkout.sessions.expire(session.id).catch(() => undefined);
    throw new OrderConflictError();
  }
  return session.url!;
}

/**
 * "Try again" on an order whose payment failed or whose hold ran out: the same order takes its
 * stock again (refused with the reason when it's gone) and waits for payment for a new hold. A
 * guest's order takes it only within the caps on guests' held units, counted for the client
 * network trying again (`guestHolds`; the order page always passes it).
 */
export async function holdAgainForPayment(
  db: Db,
  payments: Payments,
  orderId: number,
  actor: string,
  now = new Date(),
  guestHolds?: GuestHoldClaim,
): Promise<void> {
  await releasingOverdueGuestHolds(db, now, () =>
    withTransactionRetry(() =>
      db.transaction().execute(async (trx) => {
        const order = await trx
          .selectFrom("orders")
          .select(["id", "status", "version", "user_id", "email", "payment_method", "payment_status", "payment_flag"])
          .where("id", "=", orderId)
          .executeTakeFirst();
        if (!order || order.payment_method !== "card")
          throw new NotFoundError("ORDER_NOT_FOUND", "That order doesn't exist.");
        if (order.status === "awaiting_payment") return;
        if (
          order.status !== "expired" ||
          order.payment_flag ||
          (order.payment_status !== "pending" && order.payment_status !== "failed")
        ) {
          throw new ConflictError(
            "NOT_AWAITING_PAYMENT",
            "This order can't be paid again. Reload the page to see where it stands.",
          );
        }
        let holdClient: string | null = null;
        if (order.user_id == null && guestHolds) {
          const units = await trx
            .selectFrom("order_lines")
            .select((eb) => eb.fn.sum<number>("quantity").as("n"))
            .where("order_id", "=", order.id)
            .executeTakeFirst();
          holdClient = await claimGuestHold(trx, {
            claim: guestHolds,
            email: order.email,
            units: Number(units?.n ?? 0),
            now,
            place: "order-page",
          });
        }
        const holdExpiresAt = new Date(now.getTime() + payments.holdMinutes * 60_000);
        await applyTransition(trx, order, "awaiting_payment", { actor, now, holdExpiresAt });
        await changePaymentStatus(trx, order, "pending", {
          payment_session_id: null,
          payment_session_expires_at: null,
          ...(holdClient ? { hold_client: holdClient } : {}),
          updated_at: now.toISOString(),
        });
        await recordOrderEvent(trx, {
          orderId: order.id,
          actor,
          kind: "status",
          from: "expired",
          to: "awaiting_payment",
          details: { reason: "Payment tried again; items held again" },
          now,
        });
      }),
    ),
  );
}
