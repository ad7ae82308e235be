/**
 * POST /api/payments/stripe/webhook. The signature is checked by the SDK over the raw body; each
 * event is stored by its id in the same transaction that acts on it, so a duplicate (sent again,
 * or five at once) finds the row and changes nothing; a failure rolls both back and Stripe sends
 * the event again later.
 */
import type { Transaction } from "kysely";
import Stripe from "stripe";
import type { Db } from "../db/connection.ts";
import { countPlacedOrder } from "../ops/metrics.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { applyCheckoutSession, retryOnOrderConflict, sessionFacts, type SettleContext, type SettleOutcome } from "./settle.ts";
import { recordChargeRefunds } from "./refunds.ts";
import type { Payments } from "./stripe.ts";

/** The events the store acts on (subscribe to these in Stripe's dashboard; the README lists them). */
export const WEBHOOK_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "charge.refunded",
] as const;

export interface WebhookReply {
  status: number;
  body: { received: boolean; duplicate?: boolean; outcome?: string; error?: string };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

async function act(trx: Transaction<Database>, event: Stripe.Event, ctx: SettleContext): Promise<SettleOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.expired":
      return applyCheckoutSession(trx, sessionFacts(event.data.object), ctx);
    case "checkout.session.async_payment_failed":
      return applyCheckoutSession(trx, sessionFacts(event.data.object, { asyncFailed: true }), ctx);
    case "charge.refunded":
      return recordChargeRefunds(trx, event.data.object, ctx);
    default:
      return { result: "ignored", detail: `not handled: ${event.type}`, orderId: null };
  }
}

function objectId(event: Stripe.Event): string | null {
  const object = event.data.object as { id?: unknown };
  return typeof object.id === "string" ? object.id.slice(0, 255) : null;
}

export async function handleStripeWebhook(
  db: Db,
  payments: Pick<Payments, "stripe" | "webhookSecret">,
  input: { rawBody: Buffer | string; signature: string | null; siteUrl: string; now?: Date },
): Promise<WebhookReply> {
  let event: Stripe.Event;
  try {
    if (!input.signature) throw new Error("missing signature");
    event = payments.stripe.webhooks.constructEvent(input.rawBody, input.signature, payments.webhookSecret);
  } catch {
    return { status: 400, body: { received: false, error: "Invalid signature" } };
  }
  if (typeof event.id !== "string" || !/^evt_[A-Za-z0-9_-]{1,250}$/.test(event.id) || typeof event.type !== "string") {
    return { status: 400, body: { received: false, error: "Not an event" } };
  }
  const now = input.now ?? new Date();
  const ctx: SettleContext = { now, siteUrl: input.siteUrl, actor: `stripe:${event.id}` };
  try {
    const outcome = await retryOnOrderConflict(() => withTransactionRetry(() =>
      db.transaction().execute(async (trx) => {
        // Claim the event id first: a concurrent duplicate waits on this row and then fails as a duplicate.
        await trx
          .insertInto("payment_events")
          .values({ id: event.id, type: event.type.slice(0, 100), object_id: objectId(event), order_id: null, created: Number(event.created) || 0, received_at: now.toISOString(), outcome: "received" })
          .execute();
        const result = await act(trx, event, ctx);
        await trx
          .updateTable("payment_events")
          .set({ order_id: result.orderId, outcome: `${result.result}: ${result.detail}`.slice(0, 500) })
          .where("id", "=", event.id)
          .execute();
        return result;
      }),
    ));
    if (outcome.result === "paid") countPlacedOrder("card");
    return { status: 200, body: { received: true, outcome: outcome.result } };
  } catch (error) {
    if (isUniqueViolation(error)) return { status: 200, body: { received: true, duplicate: true } };
    throw error;
  }
}
