/**
 * The payment reconciliation job (one process of a fleet runs it at a time, through its lease):
 * card orders still awaiting payment after their hold are checked against Stripe. A paid session
 * places the order even if its webhook never came; an open one is expired at Stripe (so it can't
 * be paid any more) and its stock released; one Stripe no longer accepts payment on releases its
 * stock even when Stripe can't be reached. Refunds left without an answer are sent again.
 */
import type Stripe from "stripe";
import type { Db } from "../db/connection.ts";
import { countPlacedOrder } from "../ops/metrics.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { PeriodicJob } from "../jobs/runner.ts";
import {
  applyCheckoutSession,
  retryOnOrderConflict,
  sessionFacts,
  type SessionFacts,
  type SettleContext,
  type SettleOutcome,
} from "./settle.ts";
import { resendPendingRefunds } from "./refunds.ts";
import type { Payments } from "./stripe.ts";

const ACTOR = "system:payment-reconciliation";

/** Applies a session's facts to its order in a transaction of its own. */
export async function settleSession(db: Db, facts: SessionFacts, ctx: SettleContext): Promise<SettleOutcome> {
  const outcome = await retryOnOrderConflict(() =>
    withTransactionRetry(() => db.transaction().execute((trx) => applyCheckoutSession(trx, facts, ctx))),
  );
  if (outcome.result === "paid") countPlacedOrder("card");
  return outcome;
}

/** The session as Stripe has it now, with its PaymentIntent (to tell a failed delayed payment). */
async function retrieveSession(payments: Payments, sessionId: string): Promise<Stripe.Checkout.Session> {
  return payments.stripe.checkout.sessions.retrieve(sessionId, { expand: ["payment_intent"] });
}

/** Stops an open session at Stripe; if it was paid meanwhile, returns it as it is now instead. */
async function expireSessionAtStripe(payments: Payments, sessionId: string): Promise<Stripe.Checkout.Session> {
  try {
    return await payments.stripe.checkout.sessions.expire(sessionId);
  } catch {
    return retrieveSession(payments, sessionId);
  }
}

/** Asks Stripe where this order's session stands and settles the order accordingly. */
export async function checkOrderWithStripe(
  db: Db,
  payments: Payments,
  order: { number: string; payment_session_id: string | null },
  ctx: SettleContext,
  options: { expireIfOpen: boolean },
): Promise<SettleOutcome | null> {
  if (!order.payment_session_id) return null;
  let session = await retrieveSession(payments, order.payment_session_id);
  if (session.status === "open" && options.expireIfOpen) session = await expireSessionAtStripe(payments, session.id);
  const facts = sessionFacts(session);
  // The session is the store's own (its order number), whatever Stripe echoes back.
  return settleSession(db, { ...facts, orderNumber: order.number }, ctx);
}

/** Settles a checkout session that ended unpaid (its page expired, or Stripe never opened one). */
function settleExpired(db: Db, sessionId: string, orderNumber: string, ctx: SettleContext): Promise<SettleOutcome> {
  return settleSession(
    db,
    {
      sessionId,
      orderNumber,
      status: "expired",
      paymentStatus: "unpaid",
      amountTotal: null,
      currency: null,
      paymentIntentId: null,
      asyncFailed: false,
    },
    ctx,
  );
}

/** One pass over the card orders past their hold. Returns what it settled. */
export async function reconcilePayments(
  db: Db,
  payments: Payments,
  options: { now?: Date; siteUrl: string; limit?: number },
): Promise<{ checked: number; released: number; placed: number; unreachable: number; refunds: number }> {
  const now = options.now ?? new Date();
  const ctx: SettleContext = { now, siteUrl: options.siteUrl, actor: ACTOR };
  const due = await db
    .selectFrom("orders")
    .select(["id", "number", "version", "payment_session_id", "payment_session_expires_at"])
    .where("status", "=", "awaiting_payment")
    .where("payment_method", "=", "card")
    .where("hold_expires_at", "<=", now.toISOString())
    .orderBy("hold_expires_at")
    .limit(options.limit ?? 100)
    .execute();
  const totals = { checked: 0, released: 0, placed: 0, unreachable: 0, refunds: 0 };
  for (const order of due) {
    totals.checked++;
    let outcome: SettleOutcome | null;
    try {
      outcome = order.payment_session_id
        ? await checkOrderWithStripe(db, payments, order, ctx, { expireIfOpen: true })
        : // Stripe never opened a page for it: nothing can be paid, the stock goes back.
          await settleExpired(db, "", order.number, ctx);
    } catch {
      totals.unreachable++;
      // Stripe accepts no payment on a session past its expiry: the stock can go back without asking.
      const closed = !order.payment_session_expires_at || order.payment_session_expires_at <= now.toISOString();
      outcome =
        closed && order.payment_session_id
          ? await settleExpired(db, order.payment_session_id, order.number, ctx)
          : null;
    }
    if (outcome?.result === "expired" || outcome?.result === "failed") totals.released++;
    if (outcome?.result === "paid") totals.placed++;
  }
  totals.refunds = await resendPendingRefunds(db, payments, { now, siteUrl: options.siteUrl });
  return totals;
}

export function reconcilePaymentsJob(payments: Payments, options: { everyMs: number; siteUrl: string }): PeriodicJob {
  return {
    name: "reconcile-payments",
    everyMs: options.everyMs,
    leaseMs: Math.max(60_000, options.everyMs),
    async run(db, now) {
      const t = await reconcilePayments(db, payments, { now, siteUrl: options.siteUrl });
      const parts = [
        t.placed && `${t.placed} placed`,
        t.released && `${t.released} released`,
        t.unreachable && `${t.unreachable} not reachable at Stripe`,
        t.refunds && `${t.refunds} refunds sent again`,
      ].filter(Boolean);
      return parts.length ? `${t.checked} card orders past their hold checked: ${parts.join(", ")}` : undefined;
    },
  };
}
