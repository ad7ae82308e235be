/**
 * The one module that owns an order's states and the moves between them. The storefront, the
 * back office, payment webhooks and jobs all change an order's status through transitionOrder
 * (or applyTransition inside their own transaction): the move must be in ORDER_TRANSITIONS, it
 * applies only to the version the caller read (so of two concurrent actors exactly one wins),
 * and a move that gives stock back writes the ledger in the same transaction.
 */
import type { Transaction, Updateable } from "kysely";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { moveStocks, LinesOutOfStockError, type StockReason } from "../inventory/stock.ts";
import { ORDER_STATUSES, PAYMENT_STATUSES, type OrderStatus, type PaymentStatus } from "./statuses.ts";

export { ORDER_STATUSES, PAYMENT_STATUSES, type OrderStatus, type PaymentStatus };

/** States in which an order holds its stock without being placed yet; they end at hold_expires_at. */
export const HOLD_STATUSES = ["awaiting_confirmation", "awaiting_payment"] as const satisfies readonly OrderStatus[];
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export function isHoldStatus(status: string): status is HoldStatus {
  return (HOLD_STATUSES as readonly string[]).includes(status);
}

/**
 * A move between two states; `restock` names the ledger reason when the move gives the stock back,
 * `take` when the move takes it again (a card order's new payment attempt after its hold ended).
 */
export interface TransitionRule {
  restock: StockReason | null;
  take?: StockReason;
}

const keep: TransitionRule = { restock: null };

/**
 * Every allowed move. A returned order's goods are not restocked automatically: staff record
 * what came back in sellable condition as a 'return' movement (or 'damaged').
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, Partial<Record<OrderStatus, TransitionRule>>> = {
  awaiting_confirmation: {
    placed: keep,
    expired: { restock: "order_released" },
    cancelled: { restock: "order_released" },
  },
  awaiting_payment: { placed: keep, expired: { restock: "order_released" }, cancelled: { restock: "order_released" } },
  placed: { packed: keep, cancelled: { restock: "cancellation" } },
  processing: { packed: keep, shipped: keep, cancelled: { restock: "cancellation" } },
  packed: { shipped: keep, cancelled: { restock: "cancellation" } },
  shipped: { delivered: keep, returned: keep },
  delivered: { returned: keep },
  cancelled: {},
  returned: {},
  // Only card orders move back (server/payments/attempts.ts): a fresh payment attempt for the same order.
  expired: { awaiting_payment: { restock: null, take: "order" } },
  // Approved: the stock is taken at that moment (refused when short); not approved: nothing to give back.
  awaiting_approval: { placed: { restock: null, take: "order" }, cancelled: keep },
};

export function transitionRule(from: string, to: string): TransitionRule | null {
  return ORDER_TRANSITIONS[from as OrderStatus]?.[to as OrderStatus] ?? null;
}

export function canTransition(from: string, to: string): boolean {
  return transitionRule(from, to) !== null;
}

/**
 * Every allowed change of an order's payment status. A payment flagged for staff (wrong amount,
 * paid twice, paid too late) keeps the order's payment status while its money is held, so a full
 * refund of it ends in "refunded" from there; a payment reported after a failure (events out of
 * order) still makes the order paid.
 */
export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  due_on_delivery: ["paid"],
  invoiced_net30: ["paid"],
  pending: ["processing", "authorized", "paid", "failed", "refunded"],
  /** Paid by a method that settles later (the Checkout session completed unpaid). */
  processing: ["paid", "failed", "refunded"],
  authorized: ["paid", "failed", "refunded"],
  paid: ["refunded"],
  failed: ["pending", "paid", "refunded"],
  refunded: [],
};

export function canChangePayment(from: string, to: string): boolean {
  return PAYMENT_TRANSITIONS[from as PaymentStatus]?.includes(to as PaymentStatus) ?? false;
}

export class PaymentTransitionError extends ConflictError {
  constructor(from: string, to: string) {
    super(
      "INVALID_PAYMENT_TRANSITION",
      `A payment that is ${from.replace(/_/g, " ")} cannot become ${to.replace(/_/g, " ")}.`,
    );
  }
}

/** The order's other columns written together with its payment status. */
export type PaymentFields = Omit<Updateable<Database["orders"]>, "payment_status" | "id">;

/**
 * The one way an order's payment status changes, inside the caller's transaction: `order` is what
 * the caller read. Refuses a change not in PAYMENT_TRANSITIONS (keeping the same status is no
 * change and always allowed), then writes the status with the caller's other fields. With
 * `ifVersion` it applies only to that version of the order, bumps it, and throws
 * OrderConflictError when someone changed the order meanwhile.
 */
export async function changePaymentStatus(
  trx: Transaction<Database>,
  order: { id: number; payment_status: PaymentStatus },
  to: PaymentStatus,
  fields: PaymentFields = {},
  options: { ifVersion?: number } = {},
): Promise<void> {
  if (order.payment_status !== to && !canChangePayment(order.payment_status, to))
    throw new PaymentTransitionError(order.payment_status, to);
  const version = options.ifVersion;
  let update = trx
    .updateTable("orders")
    .set({ ...fields, payment_status: to, ...(version != null ? { version: version + 1 } : {}) })
    .where("id", "=", order.id);
  if (version != null) update = update.where("version", "=", version);
  const updated = await update.executeTakeFirst();
  if (version != null && Number(updated.numUpdatedRows) !== 1) throw new OrderConflictError();
}

export class OrderConflictError extends ConflictError {
  constructor() {
    super(
      "ORDER_CHANGED",
      "This order was changed at the same moment by someone else. Reload the page to see where it stands now.",
    );
  }
}

export interface OrderVersion {
  id: number;
  status: OrderStatus;
  version: number;
}

export interface TransitionOptions {
  /** Recorded on ledger rows: "system:hold-expiry", "guest", "staff:<id>"… */
  actor?: string | null;
  now?: Date;
  /** For a move into a hold state: when the hold ends. */
  holdExpiresAt?: Date | null;
}

/**
 * Moves the order (as the caller read it) to `to` inside the caller's transaction: refuses a
 * move that is not allowed, applies only if the order still has that status and version,
 * restocks when the move releases the stock, and returns the order's new version.
 */
export async function applyTransition(
  trx: Transaction<Database>,
  order: OrderVersion,
  to: OrderStatus,
  options: TransitionOptions = {},
): Promise<OrderVersion> {
  const rule = transitionRule(order.status, to);
  if (!rule)
    throw new ConflictError(
      "INVALID_TRANSITION",
      `An order that is ${order.status.replace(/_/g, " ")} cannot become ${to.replace(/_/g, " ")}.`,
    );
  const holding = isHoldStatus(to);
  const hold = holding ? (options.holdExpiresAt?.toISOString() ?? null) : null;
  const updated = await trx
    .updateTable("orders")
    // A guest's client network is kept only while the order holds stock (server/orders/guest-holds.ts).
    .set({
      status: to,
      version: order.version + 1,
      hold_expires_at: hold,
      ...(isHoldStatus(order.status) && !holding ? { hold_client: null } : {}),
    })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where("version", "=", order.version)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new OrderConflictError();
  if (rule.restock) {
    const lines = await trx
      .selectFrom("order_lines")
      .select(["product_id", "quantity"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    const moves = lines.map((l) => ({
      productId: l.product_id,
      delta: l.quantity,
      reason: rule.restock!,
      orderId: order.id,
      actor: options.actor ?? null,
    }));
    await moveStocks(trx, moves, { now: options.now });
  }
  if (rule.take) {
    const lines = await trx
      .selectFrom("order_lines")
      .select(["product_id", "quantity", "title"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    const taken = await moveStocks(
      trx,
      lines.map((l) => ({
        productId: l.product_id,
        delta: -l.quantity,
        reason: rule.take!,
        orderId: order.id,
        actor: options.actor ?? null,
      })),
      { now: options.now },
    );
    const short = lines.filter((_, i) => taken[i] === null);
    if (short.length)
      throw new LinesOutOfStockError(
        [...new Set(short.map((l) => l.title))],
        [...new Set(short.map((l) => l.product_id))],
      );
  }
  return { id: order.id, status: to, version: order.version + 1 };
}

export interface TransitionRequest extends TransitionOptions {
  orderId: number;
  to: OrderStatus;
  /** The version the actor saw; a different current version is a conflict. */
  expectedVersion?: number;
  /** The status the actor saw (or any of these). */
  expectedStatus?: OrderStatus | readonly OrderStatus[];
  /** More work in the same transaction, after the move (a mail, an audit row…). */
  then?: (trx: Transaction<Database>, order: OrderVersion) => Promise<void>;
}

/** One order move in its own transaction (retried on a deadlock or serialization failure). */
export async function transitionOrder(db: Db, request: TransitionRequest): Promise<OrderVersion> {
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom("orders")
        .select(["id", "status", "version"])
        .where("id", "=", request.orderId)
        .executeTakeFirst();
      if (!current) throw new NotFoundError("ORDER_NOT_FOUND", "That order doesn't exist.");
      const expected = request.expectedStatus == null ? null : ([] as OrderStatus[]).concat(request.expectedStatus);
      if (
        (request.expectedVersion != null && current.version !== request.expectedVersion) ||
        (expected && !expected.includes(current.status))
      ) {
        throw new OrderConflictError();
      }
      const moved = await applyTransition(trx, current, request.to, request);
      await request.then?.(trx, moved);
      return moved;
    }),
  );
}
