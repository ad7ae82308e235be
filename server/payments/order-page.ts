/**
 * The card-payment side of the customer's order page (members' /account/orders/:number and
 * guests' /orders/:token): coming back from Stripe's page, "Pay now" / "Try again", and what the
 * page says about the payment. Coming back never marks an order paid by itself: the store asks
 * Stripe (server-side) and settles what Stripe says, exactly as the webhook would.
 */
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, DomainError, NotFoundError, TooManyError, UnavailableError } from "../errors.ts";
import {
  ALREADY_PAID_MESSAGE,
  holdAgainForPayment,
  openPaymentPage,
  orderPagePath,
  PAYMENT_UNAVAILABLE_MESSAGE,
} from "./attempts.ts";
import { logLine } from "../ops/log.ts";
import { checkOrderWithStripe } from "./reconcile.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { defaultCheckoutDeps, emailKey, waitText, type CheckoutDeps } from "../orders/checkout.ts";
import type { Payments } from "./stripe.ts";
import type { GuestHoldClaim } from "../orders/guest-holds.ts";

export type PaymentReturn = "return" | "cancelled" | "unavailable";

export function paymentReturnParam(url: URL): PaymentReturn | null {
  const value = url.searchParams.get("payment");
  return value === "return" || value === "cancelled" || value === "unavailable" ? value : null;
}

function readCardOrder(db: Db, where: { number: string; userId: string } | { accessToken: string }) {
  let query = db
    .selectFrom("orders")
    .select([
      "id",
      "number",
      "user_id",
      "access_token",
      "email",
      "status",
      "payment_method",
      "payment_status",
      "payment_session_id",
      "payment_flag",
      "hold_expires_at",
    ])
    .where("payment_method", "=", "card");
  query =
    "accessToken" in where
      ? query.where("access_token", "=", where.accessToken)
      : query.where("number", "=", where.number).where("user_id", "=", where.userId);
  return query.executeTakeFirst();
}

export type OrderRef = { number: string; userId: string } | { accessToken: string };

/**
 * Back from Stripe's page: on "return", asks Stripe whether the session is paid and settles it;
 * on "cancelled", closes the session at Stripe (so it can't be paid later) and releases the
 * stock. Stripe being unreachable changes nothing: the webhook or the reconciliation job settles it.
 * True when it changed the order (the page then loads again, so the header's cart count agrees).
 */
export async function settleOnReturn(
  db: Db,
  payments: Payments | null,
  ref: OrderRef,
  kind: PaymentReturn,
  siteUrl = config().siteUrl,
): Promise<boolean> {
  if (!payments || kind === "unavailable") return false;
  const order = await readCardOrder(db, ref);
  if (!order || order.status !== "awaiting_payment" || !order.payment_session_id) return false;
  if (kind === "return" && order.payment_status !== "pending" && order.payment_status !== "processing") return false;
  if (kind === "cancelled" && order.payment_status !== "pending") return false;
  const outcome = await checkOrderWithStripe(
    db,
    payments,
    order,
    { now: new Date(), siteUrl, actor: "system:payment-return" },
    { expireIfOpen: kind === "cancelled" },
  ).catch(() => null);
  return outcome != null && outcome.result !== "ignored";
}

/** A guest's "Try again" that takes the stock again counts as a checkout: these say which limit refused it. */
export const RETRY_LIMIT_MESSAGES = {
  ip: (seconds: number) =>
    `Too many orders have been placed or tried again from your network in the last hour. Please try again in ${waitText(seconds)}.`,
  email: (seconds: number) =>
    `Too many orders have been placed or tried again with this order's email address in the last hour. Please try again in ${waitText(seconds)}.`,
};

/**
 * A guest's order taking its stock again ("Try again") is a new checkout for the limits: it counts
 * against the checkout's per-network and per-email limiters, and then the caps on guests' held
 * units (holdAgainForPayment). Members' orders are counted as before (the order-pay limiter only).
 */
async function countGuestRetry(
  deps: Pick<CheckoutDeps, "ipLimiter" | "emailLimiter">,
  clientIp: string,
  email: string,
): Promise<void> {
  const byIp = await deps.ipLimiter.hit(clientIp);
  if (!byIp.allowed) throw new TooManyError("TOO_MANY_ORDERS", RETRY_LIMIT_MESSAGES.ip(byIp.retryAfterSeconds));
  const byEmail = await deps.emailLimiter.hit(emailKey(email));
  if (!byEmail.allowed)
    throw new TooManyError("TOO_MANY_ORDERS", RETRY_LIMIT_MESSAGES.email(byEmail.retryAfterSeconds));
}

/**
 * "Pay now" (an order awaiting payment) or "Try again" (its payment failed or its hold ran out):
 * the same order, its stock held again, and the URL of a Stripe payment page for it. `checkout`
 * gives the checkout's limiters and caps (the route's own by default).
 */
let payLimiter: RateLimiter | undefined;

export async function payFromOrderPage(
  db: Db,
  payments: Payments | null,
  ref: OrderRef,
  origin: string,
  clientIp: string,
  checkout?: Pick<CheckoutDeps, "ipLimiter" | "emailLimiter" | "guestHolds">,
): Promise<string> {
  payLimiter ??= createRateLimiter({
    name: "order-pay",
    windowSeconds: 15 * 60,
    max: 30,
    redisUrl: config().REDIS_URL,
  });
  const limit = await payLimiter.hit(clientIp);
  if (!limit.allowed)
    throw new TooManyError(
      "TOO_MANY_ATTEMPTS",
      `Too many payment attempts. Please try again in ${waitText(limit.retryAfterSeconds)}.`,
    );
  if (!payments)
    throw new ConflictError(
      "CARD_PAYMENTS_OFF",
      "Card payment isn't available on this store right now. Contact us to pay another way.",
    );
  let order = await readCardOrder(db, ref);
  if (!order) throw new NotFoundError("ORDER_NOT_FOUND", "That order doesn't exist.");
  const now = new Date();
  const actor = order.user_id ? `user:${order.user_id}` : "guest";
  const pastHold =
    order.status === "awaiting_payment" && order.hold_expires_at != null && order.hold_expires_at <= now.toISOString();
  if (order.payment_session_id && (order.status === "expired" || pastHold)) {
    // Before a new page: what Stripe says of the last one (paid late → the order is placed; still
    // open past the hold → closed there, so only one page can ever take the money).
    try {
      await checkOrderWithStripe(
        db,
        payments,
        order,
        { now, siteUrl: config().siteUrl, actor },
        { expireIfOpen: true },
      );
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new UnavailableError("PAYMENT_UNAVAILABLE", PAYMENT_UNAVAILABLE_MESSAGE);
    }
    order = (await readCardOrder(db, ref))!;
  }
  if (order.status !== "expired" && order.status !== "awaiting_payment")
    throw new ConflictError("ALREADY_PAID", ALREADY_PAID_MESSAGE);
  if (order.status === "expired") {
    let guestHolds: GuestHoldClaim | undefined;
    if (order.user_id == null) {
      const deps = checkout ?? defaultCheckoutDeps();
      await countGuestRetry(deps, clientIp, order.email);
      guestHolds = deps.guestHolds ? { client: clientIp, caps: deps.guestHolds } : undefined;
    }
    await holdAgainForPayment(db, payments, order.id, actor, now, guestHolds);
  }
  try {
    return await openPaymentPage(db, payments, order.id, { orderPath: orderPagePath(order), origin });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // Stripe unreachable or refusing: the order and its hold stay; the shopper can try again.
    logLine(
      `Payment page for order ${order.number} not opened: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw new UnavailableError("PAYMENT_UNAVAILABLE", PAYMENT_UNAVAILABLE_MESSAGE);
  }
}

/** What the order page says about a card payment (nothing internal: a flag is only "being checked"). */
export interface PaymentView {
  state: "awaiting" | "processing" | "paid" | "failed" | "expired" | "refunded" | "checking";
  canPay: boolean;
  canTryAgain: boolean;
  minutesLeft: number | null;
  paidCents: number | null;
  refundedCents: number;
}

export function paymentView(
  order: {
    status: string;
    payment_method: string;
    payment_status: string;
    payment_flag: string | null;
    hold_expires_at: string | null;
    paid_cents: number | null;
    refunded_cents: number;
  },
  now = new Date(),
): PaymentView | null {
  if (order.payment_method !== "card") return null;
  const base = {
    canPay: false,
    canTryAgain: false,
    minutesLeft: null,
    paidCents: order.paid_cents,
    refundedCents: order.refunded_cents,
  };
  if (order.payment_flag) return { ...base, state: "checking" };
  if (order.status === "awaiting_payment") {
    if (order.payment_status === "processing") return { ...base, state: "processing" };
    const left = order.hold_expires_at
      ? Math.max(1, Math.ceil((Date.parse(order.hold_expires_at) - now.getTime()) / 60_000))
      : null;
    return { ...base, state: "awaiting", canPay: true, minutesLeft: left };
  }
  if (order.status === "expired")
    return { ...base, state: order.payment_status === "failed" ? "failed" : "expired", canTryAgain: true };
  if (order.payment_status === "refunded") return { ...base, state: "refunded" };
  return { ...base, state: "paid" };
}

/** The checkout page's reminder: this cart's newest card order still waiting for payment, if any (its page's path). */
export async function orderAwaitingPayment(
  db: Db,
  cartOwner: string,
): Promise<{ number: string; path: string } | null> {
  const order = await db
    .selectFrom("orders")
    .select(["number", "user_id", "access_token"])
    .where("cart_owner", "=", cartOwner)
    .where("status", "=", "awaiting_payment")
    .where("payment_method", "=", "card")
    .where("payment_status", "=", "pending")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return order ? { number: order.number, path: orderPagePath(order) } : null;
}
