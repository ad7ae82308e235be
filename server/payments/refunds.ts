/**
 * Refunds of card payments, whole or partial, from the back office's order page. A refund is
 * written (pending, with its idempotency key) before Stripe is asked, so a crash or a lost answer
 * can't make a second one: the reconciliation job asks again with the same key. Refunds made in
 * Stripe's dashboard arrive as charge.refunded and are recorded too.
 */
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import Stripe from "stripe";
import { formatMoney, type Currency } from "../../app/lib/money.ts";
import { refundSchema, type RefundInput } from "../../app/lib/order-admin-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import { dbKind, type Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, NotFoundError, UnavailableError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { recordOrderEvent } from "../orders/history.ts";
import { OrderInputError, parseInput } from "../orders/input.ts";
import { orderRefundMail } from "../orders/mails.ts";
import {
  checkVersion,
  customerOrderLink,
  ORDER_HEAD_COLUMNS,
  StaleOrderError,
  staffActorRef,
  type StaffActor,
} from "../orders/staff-order.ts";
import { changePaymentStatus } from "../orders/states.ts";
import type { SettleContext, SettleOutcome } from "./settle.ts";
import type { Payments } from "./stripe.ts";

type Handle = Db | Transaction<Database>;

/** What is still refundable: paid, less refunded, less refunds asked for and not answered yet. */
async function refundable(
  trx: Handle,
  order: { id: number; paid_cents: number | null; refunded_cents: number },
): Promise<number> {
  const pending = await trx
    .selectFrom("payment_refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("total"))
    .where("order_id", "=", order.id)
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return (order.paid_cents ?? 0) - order.refunded_cents - Number(pending.total);
}

function readPaymentOrder(trx: Handle) {
  return trx
    .selectFrom("orders")
    .select([
      ...ORDER_HEAD_COLUMNS,
      "payment_method",
      "payment_status",
      "payment_intent_id",
      "paid_cents",
      "refunded_cents",
      "currency",
    ]);
}

/** Step 1: checks the request against the order and records the refund as pending (one transaction). */
async function requestRefund(db: Db, staff: StaffActor, number: string, input: RefundInput, now: Date) {
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL; SQLite's transactions take the write lock up front): a second refund
      // at the same time then waits and reads the bumped version, and is told someone else changed
      // the order, rather than reading the first one's pending refund and being told there is
      // nothing left to refund.
      const select = readPaymentOrder(trx).where("number", "=", number);
      const order = await (dbKind(trx) === "postgres" ? select.forUpdate() : select).executeTakeFirst();
      if (!order) throw new NotFoundError("ORDER_NOT_FOUND", "There is no order with that number.");
      checkVersion(order, input.version);
      if (order.payment_method !== "card" || !order.payment_intent_id || order.paid_cents == null) {
        throw new ConflictError("NOT_PAID_BY_CARD", "This order has no card payment to refund.");
      }
      const left = await refundable(trx, order);
      if (left <= 0)
        throw new ConflictError("NOTHING_TO_REFUND", "Everything paid for this order has already been refunded.");
      const amount = input.amount ?? left;
      if (amount > left)
        throw new OrderInputError({
          amount: `You can refund at most ${formatMoney(left, order.currency)} on this order.`,
        });
      const bumped = await trx
        .updateTable("orders")
        .set({ version: order.version + 1, updated_at: now.toISOString() })
        .where("id", "=", order.id)
        .where("version", "=", order.version)
        .executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) throw new StaleOrderError(order.status);
      const key = `refund-${order.number}-${randomUUID()}`;
      const row = await trx
        .insertInto("payment_refunds")
        .values({
          order_id: order.id,
          idempotency_key: key,
          amount_cents: amount,
          reason: input.reason,
          actor: staffActorRef(staff),
          status: "pending",
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeAudit(
        trx,
        staff,
        {
          action: "order.refund",
          objectType: "order",
          objectId: order.number,
          before: { refundedCents: order.refunded_cents },
          after: { refundCents: amount, reason: input.reason },
        },
        now,
      );
      return {
        refundId: Number(row.id),
        key,
        amount,
        intent: order.payment_intent_id,
        number: order.number,
        currency: order.currency,
      };
    }),
  );
}

/** Step 3: Stripe said yes; the refund, the order's refunded total, its history and the customer's mail, in one transaction. */
async function completeRefund(
  db: Db,
  refundId: number,
  stripeRefundId: string,
  options: { now?: Date; siteUrl?: string } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  await withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable("payment_refunds")
        .set({ status: "succeeded", stripe_refund_id: stripeRefundId, updated_at: now.toISOString() })
        .where("id", "=", refundId)
        .where("status", "=", "pending")
        .returning(["order_id", "amount_cents", "reason", "actor"])
        .executeTakeFirst();
      if (!done) return;
      await settleRefundTotals(trx, done.order_id, {
        amountCents: done.amount_cents,
        reason: done.reason,
        actor: done.actor,
        now,
        siteUrl: options.siteUrl,
      });
    }),
  );
}

/** Adds a completed refund to the order (refunded total, payment status, history) and mails the customer. */
async function settleRefundTotals(
  trx: Transaction<Database>,
  orderId: number,
  refund: {
    amountCents: number;
    reason: string | null;
    actor: string | null;
    now: Date;
    siteUrl?: string;
    atLeastCents?: number;
  },
) {
  const order = await readPaymentOrder(trx).where("id", "=", orderId).executeTakeFirstOrThrow();
  const succeeded = await trx
    .selectFrom("payment_refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("total"))
    .where("order_id", "=", orderId)
    .where("status", "=", "succeeded")
    .executeTakeFirstOrThrow();
  const refunded = Math.max(order.refunded_cents, Number(succeeded.total), refund.atLeastCents ?? 0);
  const paid = order.paid_cents ?? 0;
  await changePaymentStatus(trx, order, refunded >= paid && paid > 0 ? "refunded" : order.payment_status, {
    refunded_cents: refunded,
    updated_at: refund.now.toISOString(),
  });
  await recordOrderEvent(trx, {
    orderId,
    actor: refund.actor,
    kind: "payment",
    details: {
      reason: `Refunded ${formatMoney(refund.amountCents, order.currency)}${refund.reason ? `: ${refund.reason}` : ""}`,
    },
    now: refund.now,
  });
  await enqueueMail(
    trx,
    orderRefundMail(
      { ...order, link: customerOrderLink(order, refund.siteUrl) },
      {
        amountCents: refund.amountCents,
        totalRefundedCents: refunded,
        paidCents: paid,
        reason: refund.reason,
        currency: order.currency,
      },
    ),
  );
}

async function failRefund(db: Db, refundId: number, message: string, now: Date) {
  await db
    .updateTable("payment_refunds")
    .set({ status: "failed", error: message.slice(0, 500), updated_at: now.toISOString() })
    .where("id", "=", refundId)
    .where("status", "=", "pending")
    .execute();
}

/** Step 2: asks Stripe (same key every time for the same refund). */
async function sendRefund(
  db: Db,
  payments: Payments,
  refund: { refundId: number; key: string; amount: number; intent: string; number: string; currency: Currency },
  options: { now?: Date; siteUrl?: string } = {},
) {
  const now = options.now ?? new Date();
  let created: Stripe.Refund;
  try {
    created = await payments.stripe.refunds.create(
      {
        payment_intent: refund.intent,
        amount: refund.amount,
        metadata: { order_number: refund.number, refund_ref: String(refund.refundId) },
      },
      { idempotencyKey: refund.key },
    );
  } catch (error) {
    // Stripe answered no (a 4xx): the refund didn't happen. Anything else: unknown, asked again later.
    if (
      error instanceof Stripe.errors.StripeError &&
      error.statusCode != null &&
      error.statusCode >= 400 &&
      error.statusCode < 500 &&
      error.statusCode !== 409 &&
      error.statusCode !== 429
    ) {
      await failRefund(db, refund.refundId, error.message, now);
      throw new ConflictError("REFUND_REFUSED", `Stripe refused the refund: ${error.message}`);
    }
    throw new UnavailableError(
      "REFUND_PENDING",
      "Stripe didn't answer. The refund is saved and will be sent again automatically in a minute; nothing was refunded twice.",
    );
  }
  if (created.status === "failed" || created.status === "canceled") {
    await failRefund(db, refund.refundId, `Stripe refund ${created.status}`, now);
    throw new ConflictError("REFUND_REFUSED", `Stripe could not make the refund (${created.status}).`);
  }
  await completeRefund(db, refund.refundId, created.id, options);
}

/** The back office's "Refund": the whole remaining amount, or part of it. */
export async function refundOrder(
  db: Db,
  payments: Payments | null,
  staff: StaffActor,
  number: string,
  input: RefundInput | Record<string, unknown>,
  options: { now?: Date; siteUrl?: string } = {},
): Promise<{ number: string; message: string }> {
  const now = options.now ?? new Date();
  if (!payments)
    throw new ConflictError(
      "CARD_PAYMENTS_OFF",
      "Card payments aren't configured on this store (STRIPE_SECRET_KEY), so refunds can't be sent.",
    );
  const parsed = parseInput(refundSchema, input);
  const refund = await requestRefund(db, staff, number, parsed, now);
  await sendRefund(db, payments, refund, options);
  return {
    number: refund.number,
    message: `Refunded ${formatMoney(refund.amount, refund.currency)} on order ${refund.number}. The customer has been emailed.`,
  };
}

/** Refunds asked for at least a minute ago with no answer recorded (the reconciliation job sends them again). */
export async function resendPendingRefunds(
  db: Db,
  payments: Payments,
  options: { now?: Date; siteUrl?: string; limit?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const rows = await db
    .selectFrom("payment_refunds as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select(["r.id", "r.idempotency_key", "r.amount_cents", "o.payment_intent_id", "o.number", "o.currency"])
    .where("r.status", "=", "pending")
    .where("r.updated_at", "<=", new Date(now.getTime() - 60_000).toISOString())
    .orderBy("r.id")
    .limit(options.limit ?? 50)
    .execute();
  let sent = 0;
  for (const row of rows) {
    if (!row.payment_intent_id) continue;
    try {
      await sendRefund(
        db,
        payments,
        {
          refundId: Number(row.id),
          key: row.idempotency_key,
          amount: row.amount_cents,
          intent: row.payment_intent_id,
          number: row.number,
          currency: row.currency,
        },
        options,
      );
      sent++;
    } catch {
      // Refused ones are marked failed; unanswered ones wait for the next run.
    }
  }
  return sent;
}

/**
 * charge.refunded: Stripe's refunded total for the charge. Refunds the store didn't ask for (made
 * in Stripe's dashboard) are recorded and mailed; the store's own are already counted.
 */
export async function recordChargeRefunds(
  trx: Transaction<Database>,
  charge: Stripe.Charge,
  ctx: SettleContext,
): Promise<SettleOutcome> {
  const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  const order = intent
    ? await readPaymentOrder(trx).where("payment_intent_id", "=", intent).executeTakeFirst()
    : undefined;
  if (!order) return { result: "ignored", detail: "no order for this charge", orderId: null };
  const known = await trx
    .selectFrom("payment_refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("total"))
    .where("order_id", "=", order.id)
    .where("status", "in", ["pending", "succeeded"])
    .executeTakeFirstOrThrow();
  const unknown = charge.amount_refunded - Number(known.total);
  // The store's own refunds (pending ones included) are counted when their answer is recorded.
  if (unknown <= 0) return { result: "ignored", detail: "refunds already recorded", orderId: order.id };
  await trx
    .insertInto("payment_refunds")
    .values({
      order_id: order.id,
      idempotency_key: `external-${charge.id}-${charge.amount_refunded}`,
      amount_cents: unknown,
      reason: null,
      actor: ctx.actor,
      status: "succeeded",
      created_at: ctx.now.toISOString(),
      updated_at: ctx.now.toISOString(),
    })
    .execute();
  await settleRefundTotals(trx, order.id, {
    amountCents: unknown,
    reason: null,
    actor: ctx.actor,
    now: ctx.now,
    siteUrl: ctx.siteUrl,
    atLeastCents: charge.amount_refunded,
  });
  return {
    result: "ignored",
    detail: `recorded a refund of ${formatMoney(unknown, order.currency)} made outside the store`,
    orderId: order.id,
  };
}
