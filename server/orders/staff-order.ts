/**
 * What every back-office order action shares: finding the order by its number, the stale-page
 * check (the version the page showed), the guard messages for moves that aren't allowed, and the
 * customer's own order link for the mails.
 */
import { orderNumberSchema } from "../../app/lib/order-admin-schema.ts";
import { ADMIN_STATUS_LABELS } from "../../app/lib/order-labels.ts";
import type { AuditActor } from "../audit/audit.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, DomainError, NotFoundError } from "../errors.ts";
import { parseInput } from "./input.ts";
import { OrderConflictError, type OrderStatus } from "./states.ts";

/** The staff member acting (a StaffSession fits): the audit row names them. */
export type StaffActor = AuditActor;

export interface StaffOrderOptions {
  /** The store's public address, for the link in the customer's mail (defaults to SITE_URL). */
  siteUrl?: string;
  now?: Date;
}

export interface ActionOutcome {
  number: string;
  status: OrderStatus;
  version: number;
  /** What the page tells the staff member. */
  message: string;
}

export const staffActorRef = (staff: StaffActor) => `staff:${staff.userId}`;

const statusLabel = (status: string) => ADMIN_STATUS_LABELS[status] ?? status;

/** The page was out of date: someone else changed the order first. Nothing was written. */
export class StaleOrderError extends OrderConflictError {
  readonly currentStatus: string;
  constructor(currentStatus: string) {
    super();
    this.currentStatus = currentStatus;
    this.message = `Someone else changed this order while you had it open: it is now ${statusLabel(currentStatus).toLowerCase()}. Nothing was changed; check the order as it stands now and try again if you still need to.`;
  }
}

/** What every staff action on an order reads first: who it is for and its version. */
export const ORDER_HEAD_COLUMNS = [
  "id",
  "number",
  "status",
  "version",
  "email",
  "ship_name",
  "user_id",
  "access_token",
] as const;

export async function loadOrder(db: Db, number: unknown) {
  const parsed = orderNumberSchema.safeParse(number);
  const order = parsed.success
    ? await db
        .selectFrom("orders")
        .select([...ORDER_HEAD_COLUMNS, "carrier", "tracking_number"])
        .where("number", "=", parsed.data)
        .executeTakeFirst()
    : undefined;
  if (!order) throw new NotFoundError("ORDER_NOT_FOUND", "There is no order with that number.");
  return order;
}
export type LoadedOrder = Awaited<ReturnType<typeof loadOrder>>;

/** Refuses a form made from an older version of the order. */
export function checkVersion(order: { version: number; status: string }, expectedVersion: number) {
  if (order.version !== expectedVersion) throw new StaleOrderError(order.status);
}

/** After a lost race: the order's status now, as a StaleOrderError. */
export async function staleNow(db: Db, orderId: number): Promise<StaleOrderError> {
  const row = await db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirst();
  return new StaleOrderError(row?.status ?? "unknown");
}

/** The customer's own page for this order: their account's, or a guest's private link. */
export function customerOrderLink(
  order: { number: string; user_id: string | null; access_token: string },
  siteUrl = config().siteUrl,
): string {
  return order.user_id ? `${siteUrl}/account/orders/${order.number}` : `${siteUrl}/orders/${order.access_token}`;
}

/** Why staff can't make this move from this status, in words. */
export function refusal(status: string, action: "pack" | "ship" | "deliver" | "cancel" | "return"): DomainError {
  const messages: Record<string, string> = {
    cancelled: "This order was cancelled, so nothing more can be done with it.",
    returned: "This order has been returned in full, so nothing more can be done with it.",
    expired: "This order was never confirmed by the customer, so it can't be fulfilled.",
    awaiting_confirmation: "The customer hasn't confirmed this order yet, so it can't be fulfilled.",
    awaiting_payment: "This order is waiting for payment, so it can't be fulfilled yet.",
    awaiting_approval: "This order is waiting for the customer's company to approve it, so it can't be fulfilled yet.",
  };
  const byAction: Record<typeof action, Record<string, string>> = {
    pack: {
      packed: "This order is already packed.",
      shipped: "This order has already been shipped.",
      delivered: "This order has already been delivered.",
    },
    ship: {
      placed: "Pack this order before you ship it.",
      processing: "Pack this order before you ship it.",
      shipped: "This order has already been shipped.",
      delivered: "This order has already been delivered.",
    },
    deliver: {
      placed: "This order hasn't been shipped yet.",
      processing: "This order hasn't been shipped yet.",
      packed: "This order hasn't been shipped yet.",
      delivered: "This order is already marked as delivered.",
    },
    cancel: {
      shipped:
        "This order has already been shipped, so it can't be cancelled. Record a return when the goods come back.",
      delivered: "This order has already been delivered, so it can't be cancelled. Record a return instead.",
    },
    return: {
      placed: "Nothing has been shipped yet, so nothing can be returned. Cancel the order instead.",
      processing: "Nothing has been shipped yet, so nothing can be returned. Cancel the order instead.",
      packed: "Nothing has been shipped yet, so nothing can be returned. Cancel the order instead.",
    },
  };
  const text =
    byAction[action][status] ??
    messages[status] ??
    `An order that is ${statusLabel(status).toLowerCase()} can't be changed that way.`;
  return new ConflictError("INVALID_TRANSITION", text);
}

export { parseInput };
