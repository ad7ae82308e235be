/**
 * POST /api/payments/stripe/webhook. The signature is checked by the SDK over the raw body; each
 * event is stored by its id in the same transaction that acts on it, so a duplicate (sent again,
 * or five at once) finds the row and changes nothing; a failure rolls both back and Stripe sends
 * the event again later.
 */
import type { Transaction } from "kysely";
import Stripe from "stripe";
import { z } from "zod";
import type { Db } from "../db/connection.ts";
import { countPlacedOrder } from "../ops/metrics.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import {
  applyCheckoutSession,
  retryOnOrderConflict,
  sessionFacts,
  type SettleContext,
  type SettleOutcome,
} from "./settle.ts";
import { recordChargeRefunds } from "./refunds.ts";
import type { Payments } from "./stripe.ts";

/** The events the store acts on (subscribe to these in Stripe's dashboard; the README lists them). */
type WebhookEvent =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "checkout.session.expired"
  | "charge.refunded";

export interface WebhookReply {
  status: number;
  body: { received: boolean; duplicate?: boolean; outcome?: string; error?: string };
}

/**
 * What the store reads of an event, checked before anything acts on it: a validly signed body can
 * still be valid JSON that is no event (`null`, a list, an event without its object, a session
 * whose total is text). Such a body is answered 400 with the reason, never a 500. Fields the
 * store does not read are let through as they are.
 */
const stripeId = z.string().min(1).max(255);
const expandable = z.union([stripeId, z.looseObject({ id: stripeId, status: z.string().nullish() })]).nullish();
const EVENT_ENVELOPE = z.looseObject({
  id: z.string().regex(/^evt_[A-Za-z0-9_-]{1,250}$/, "is not an event id"),
  type: z.string().min(1).max(100),
  created: z.number().optional(),
  // Some objects have no id (a balance); the ones the store acts on are checked below.
  data: z.looseObject({ object: z.looseObject({ id: stripeId.optional() }) }),
});
const CHECKOUT_SESSION = z.looseObject({
  id: stripeId,
  client_reference_id: z.string().max(255).nullish(),
  metadata: z.looseObject({ order_number: z.string().max(255).nullish() }).nullish(),
  status: z.string().max(50).nullish(),
  payment_status: z.string().max(50).nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().max(10).nullish(),
  payment_intent: expandable,
});
const CHARGE = z.looseObject({
  id: stripeId,
  payment_intent: expandable,
  amount_refunded: z.number().int().nonnegative(),
});
const OBJECT_SCHEMAS: Partial<Record<WebhookEvent, z.ZodType>> = {
  "checkout.session.completed": CHECKOUT_SESSION,
  "checkout.session.async_payment_succeeded": CHECKOUT_SESSION,
  "checkout.session.async_payment_failed": CHECKOUT_SESSION,
  "checkout.session.expired": CHECKOUT_SESSION,
  "charge.refunded": CHARGE,
};

function firstIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join(".");
  return `${path || "the body"}: ${issue?.message ?? "not valid"}`.slice(0, 200);
}

/** Why a signed body is not an event the store can act on, or null when it is one. */
export function eventShapeProblem(event: unknown): string | null {
  const envelope = EVENT_ENVELOPE.safeParse(event);
  if (!envelope.success) return `Not an event (${firstIssue(envelope.error, "")})`;
  const schema = OBJECT_SCHEMAS[envelope.data.type as WebhookEvent];
  const object = schema?.safeParse(envelope.data.data.object);
  if (object && !object.success)
    return `Not a valid ${envelope.data.type} event (${firstIssue(object.error, "data.object")})`;
  return null;
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
  const problem = eventShapeProblem(event);
  if (problem) return { status: 400, body: { received: false, error: problem } };
  const now = input.now ?? new Date();
  const ctx: SettleContext = { now, siteUrl: input.siteUrl, actor: `stripe:${event.id}` };
  try {
    const outcome = await retryOnOrderConflict(() =>
      withTransactionRetry(() =>
        db.transaction().execute(async (trx) => {
          // Claim the event id first: a concurrent duplicate waits on this row and then fails as a duplicate.
          await trx
            .insertInto("payment_events")
            .values({
              id: event.id,
              type: event.type.slice(0, 100),
              object_id: objectId(event),
              order_id: null,
              created: Number(event.created) || 0,
              received_at: now.toISOString(),
              outcome: "received",
            })
            .execute();
          const result = await act(trx, event, ctx);
          await trx
            .updateTable("payment_events")
            .set({ order_id: result.orderId, outcome: `${result.result}: ${result.detail}`.slice(0, 500) })
            .where("id", "=", event.id)
            .execute();
          return result;
        }),
      ),
    );
    if (outcome.result === "paid") countPlacedOrder("card");
    return { status: 200, body: { received: true, outcome: outcome.result } };
  } catch (error) {
    if (isUniqueViolation(error)) return { status: 200, body: { received: true, duplicate: true } };
    throw error;
  }
}
