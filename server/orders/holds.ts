/**
 * Orders that hold stock before they are placed: a guest's order waits for the confirmation link
 * in its mail (later, a card order will wait for its payment). A hold that runs out becomes
 * `expired` and its stock goes back, through the expiry job, or sooner when someone looks.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { PAYMENT_METHODS } from "../../app/lib/order-rules.ts";
import type { ExpressionBuilder } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, NotAllowedError, NotFoundError } from "../errors.ts";
import type { PeriodicJob } from "../jobs/runner.ts";
import { enqueueMail } from "../mail/queue.ts";
import { countPlacedOrder } from "../ops/metrics.ts";
import { mailLinesOf, orderPlacedMail } from "./mails.ts";
import {
  HOLD_STATUSES,
  isHoldStatus,
  OrderConflictError,
  transitionOrder,
  type OrderStatus,
  type TransitionRequest,
} from "./states.ts";

const SYSTEM_ACTOR = "system:hold-expiry";

/**
 * A card order's payment page may still take a payment until its Checkout session expires (Stripe
 * requires at least 30 minutes, which can outlast a shorter hold): such an order is left to the
 * payment reconciliation job, which closes the session at Stripe before releasing the stock.
 */
const SESSION_GRACE_MS = 2 * 60_000;

/** Orders whose hold has run out and may be expired here without asking Stripe. */
function overdueHolds(eb: ExpressionBuilder<Database, "orders">, now: Date) {
  const closedBy = new Date(now.getTime() - SESSION_GRACE_MS).toISOString();
  return eb.and([
    eb("hold_expires_at", "<=", now.toISOString()),
    eb.or([
      eb("status", "=", "awaiting_confirmation"),
      eb.and([
        eb("status", "=", "awaiting_payment"),
        eb.or([eb("payment_session_expires_at", "is", null), eb("payment_session_expires_at", "<=", closedBy)]),
      ]),
    ]),
  ]);
}

/** Orders store only this hash of the secret in a guest's confirmation link. */
export function hashConfirmToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Expires the holds that ran out by `now` (oldest first, at most `limit`), each in its own
 * transaction with a version check: an order confirmed at the same moment stays confirmed.
 * `productIds` limits it to orders holding one of those products, `orderIds` to those orders.
 * Returns how many expired.
 */
export async function expireOverdueHolds(
  db: Db,
  options: { now?: Date; limit?: number; productIds?: number[]; orderIds?: number[] } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  // Mostly none has run out (a checkout short of stock asks every time): one look at the holds' index first.
  const due = await db
    .selectFrom("orders")
    .select("id")
    .where("status", "in", HOLD_STATUSES)
    .where("hold_expires_at", "<=", now.toISOString())
    .limit(1)
    .executeTakeFirst();
  if (!due) return 0;
  let query = db
    .selectFrom("orders")
    .select(["id", "status", "version"])
    .where("status", "in", HOLD_STATUSES)
    .where((eb) => overdueHolds(eb, now))
    .orderBy("hold_expires_at")
    .limit(options.limit ?? 200);
  if (options.orderIds) query = query.where("id", "in", options.orderIds.length ? options.orderIds : [-1]);
  if (options.productIds?.length) {
    const ids = options.productIds;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("order_lines")
          .select("order_lines.id")
          .whereRef("order_lines.order_id", "=", "orders.id")
          .where("order_lines.product_id", "in", ids),
      ),
    );
  }
  let expired = 0;
  for (const order of await query.execute()) if (await expireHold(db, order, now)) expired++;
  return expired;
}

type HeldOrder = { id: number; status: OrderStatus; version: number };

/** The transition that expires a held order, if it is still as it was read. */
const expiryOf = (order: HeldOrder, now: Date): TransitionRequest => ({
  orderId: order.id,
  to: "expired",
  expectedStatus: order.status,
  expectedVersion: order.version,
  actor: SYSTEM_ACTOR,
  now,
});

/** Expires one held order; false when somebody else moved it on first. */
async function expireHold(db: Db, order: HeldOrder, now: Date): Promise<boolean> {
  try {
    await transitionOrder(db, expiryOf(order, now));
    return true;
  } catch (error) {
    if (!(error instanceof OrderConflictError)) throw error;
    return false;
  }
}

/** The periodic job that releases run-out holds (registered in server/jobs/registry.ts). */
export function expireHoldsJob(options: { everyMs?: number } = {}): PeriodicJob {
  return {
    name: "expire-order-holds",
    everyMs: options.everyMs ?? 60_000,
    async run(db, now) {
      const n = await expireOverdueHolds(db, { now, limit: 500 });
      return n ? `${n} order hold${n === 1 ? "" : "s"} expired, stock released` : undefined;
    },
  };
}

/** Expires this guest order now if its hold has run out (the order page calls it before showing the order). */
export async function expireGuestOrderIfOverdue(db: Db, accessToken: string, now = new Date()): Promise<void> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(accessToken)) return;
  const order = await db
    .selectFrom("orders")
    .select(["id", "status", "version"])
    .where("access_token", "=", accessToken)
    .where("status", "in", HOLD_STATUSES)
    .where((eb) => overdueHolds(eb, now))
    .executeTakeFirst();
  if (order) await expireHold(db, order, now);
}

export type ConfirmOutcome = "confirmed" | "already_placed" | "expired";

function validConfirmToken(token: unknown, hash: string | null): boolean {
  return (
    typeof token === "string" &&
    hash != null &&
    /^[A-Za-z0-9_-]{16,64}$/.test(token) &&
    sameHash(hashConfirmToken(token), hash)
  );
}

/**
 * For the guest order page: while the order is held, the whole minutes left, and whether this
 * visitor came with the mail's secret (only then is "Confirm order" offered). Null when not held.
 */
export async function guestHoldView(
  db: Db,
  accessToken: string,
  confirmToken: string | null,
  now = new Date(),
): Promise<{ minutesLeft: number; canConfirm: boolean } | null> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(accessToken)) return null;
  const order = await db
    .selectFrom("orders")
    .select(["status", "hold_expires_at", "confirm_token_hash"])
    .where("access_token", "=", accessToken)
    .executeTakeFirst();
  if (!order || !isHoldStatus(order.status) || !order.hold_expires_at) return null;
  const minutesLeft = Math.max(1, Math.ceil((Date.parse(order.hold_expires_at) - now.getTime()) / 60_000));
  return {
    minutesLeft,
    canConfirm: order.status === "awaiting_confirmation" && validConfirmToken(confirmToken, order.confirm_token_hash),
  };
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function outcomeOf(status: OrderStatus): ConfirmOutcome {
  if (status === "expired") return "expired";
  if (status === "cancelled")
    throw new ConflictError("ORDER_CANCELLED", "This order was cancelled, so it can no longer be confirmed.");
  return "already_placed";
}

/**
 * The guest's "Confirm order": with the secret from the mail, moves the held order to `placed`
 * and queues the usual order mail in the same transaction. Confirming again changes nothing; a
 * hold that ran out expires instead (and says so). Of a confirmation and the expiry job racing
 * for the same order, exactly one wins.
 */
export async function confirmGuestOrder(
  db: Db,
  input: { accessToken: string; confirmToken: string; siteUrl: string; now?: Date },
): Promise<{ outcome: ConfirmOutcome; number: string }> {
  const now = input.now ?? new Date();
  const read = () =>
    db.selectFrom("orders").selectAll().where("access_token", "=", input.accessToken).executeTakeFirst();
  const order = /^[A-Za-z0-9_-]{32}$/.test(input.accessToken) ? await read() : undefined;
  if (!order) throw new NotFoundError("ORDER_NOT_FOUND", "That order doesn't exist.");
  if (!validConfirmToken(input.confirmToken, order.confirm_token_hash)) {
    throw new NotAllowedError(
      "BAD_CONFIRM_LINK",
      "This confirmation link isn't valid. Open the link in the email we sent you when you placed the order.",
    );
  }
  if (!isHoldStatus(order.status)) return { outcome: outcomeOf(order.status), number: order.number };

  const overdue = !order.hold_expires_at || order.hold_expires_at <= now.toISOString();
  try {
    if (overdue) {
      await transitionOrder(db, expiryOf(order, now));
      return { outcome: "expired", number: order.number };
    }
    await transitionOrder(db, {
      orderId: order.id,
      to: "placed",
      expectedStatus: "awaiting_confirmation",
      expectedVersion: order.version,
      actor: "guest",
      now,
      then: async (trx) => {
        const lines = await mailLinesOf(trx, order.id);
        const paymentLabel = PAYMENT_METHODS.find((m) => m.id === order.payment_method)?.label ?? order.payment_method;
        await enqueueMail(
          trx,
          orderPlacedMail(order, lines, { link: `${input.siteUrl}/orders/${order.access_token}`, paymentLabel }),
        );
      },
    });
    countPlacedOrder(order.payment_method);
    return { outcome: "confirmed", number: order.number };
  } catch (error) {
    if (!(error instanceof OrderConflictError)) throw error;
    // Someone else moved it first (a second click, or the expiry job): report where it ended.
    const current = await read();
    if (!current || isHoldStatus(current.status)) throw error;
    return { outcome: outcomeOf(current.status), number: order.number };
  }
}
