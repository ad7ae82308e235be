/**
 * Staff move an order through fulfilment: pack, ship (carrier + tracking number), deliver, or
 * cancel (which gives the stock back through the ledger, states.ts). Each move is one
 * transaction: the status move with the version the staff member's page showed, an
 * order_events row, an audit row and the customer's mail in the durable queue. Of two staff
 * acting on one order at once, exactly one wins; the other gets a StaleOrderError.
 */
import { voidInvoice } from "../invoices/invoices.ts";
import type { Transaction } from "kysely";
import type { z } from "zod";
import {
  cancelSchema,
  orderStepSchema,
  shipSchema,
  type CancelInput,
  type OrderStepInput,
  type ShipInput,
} from "../../app/lib/order-admin-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError } from "../errors.ts";
import { enqueueMail, type OutgoingMail } from "../mail/queue.ts";
import { recordOrderEvent, type EventDetails } from "./history.ts";
import {
  orderCancelledMail,
  orderDeliveredMail,
  orderPackedMail,
  orderShippedMail,
  type FulfilmentMailOrder,
} from "./mails.ts";
import {
  checkVersion,
  customerOrderLink,
  loadOrder,
  parseInput,
  refusal,
  staffActorRef,
  staleNow,
  StaleOrderError,
  type ActionOutcome,
  type LoadedOrder,
  type StaffActor,
  type StaffOrderOptions,
} from "./staff-order.ts";
import { OrderConflictError, transitionOrder, type OrderStatus } from "./states.ts";

type Action = "pack" | "ship" | "deliver" | "cancel";

/** The moves staff make, and the statuses each may start from. */
const STAFF_MOVES: Record<Action, { to: OrderStatus; from: readonly OrderStatus[]; audit: string }> = {
  pack: { to: "packed", from: ["placed", "processing"], audit: "order.pack" },
  ship: { to: "shipped", from: ["packed", "processing"], audit: "order.ship" },
  deliver: { to: "delivered", from: ["shipped"], audit: "order.deliver" },
  // awaiting_payment: only an order whose payment was flagged for staff (server/payments/settle.ts).
  cancel: { to: "cancelled", from: ["placed", "processing", "packed", "awaiting_payment"], audit: "order.cancel" },
};

interface MoveRequest {
  action: Action;
  expectedVersion: number;
  /** More columns to set on the order with the move. */
  set?: { carrier?: string; tracking_number?: string };
  details?: EventDetails;
  mail: (order: FulfilmentMailOrder) => OutgoingMail;
  message: string;
}

/**
 * A card order is cancelled only once its money is back with the customer (the refund form on the
 * same page), and an order awaiting payment only when its payment was flagged for staff.
 */
async function checkCardMoneyBeforeCancel(trx: Transaction<Database>, orderId: number, status: OrderStatus) {
  const row = await trx
    .selectFrom("orders")
    .select(["payment_method", "paid_cents", "refunded_cents", "payment_flag"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (status === "awaiting_payment" && !row.payment_flag) throw refusal(status, "cancel");
  if (row.payment_method === "card" && row.paid_cents != null && Number(row.refunded_cents) < row.paid_cents) {
    throw new ConflictError(
      "REFUND_FIRST",
      "This order was paid by card. Refund the payment first (Refund, below), then cancel the order.",
    );
  }
}

async function move(
  db: Db,
  staff: StaffActor,
  order: LoadedOrder,
  request: MoveRequest,
  options: StaffOrderOptions,
): Promise<ActionOutcome> {
  const rule = STAFF_MOVES[request.action];
  checkVersion(order, request.expectedVersion);
  if (!rule.from.includes(order.status)) throw refusal(order.status, request.action);
  const now = options.now ?? new Date();
  const actor = staffActorRef(staff);
  try {
    const moved = await transitionOrder(db, {
      orderId: order.id,
      to: rule.to,
      expectedVersion: request.expectedVersion,
      expectedStatus: order.status,
      actor,
      now,
      then: async (trx, after) => {
        if (request.action === "cancel") {
          await checkCardMoneyBeforeCancel(trx, order.id, order.status);
          await voidInvoice(trx, order.id);
        }
        await trx
          .updateTable("orders")
          .set({ updated_at: now.toISOString(), ...request.set })
          .where("id", "=", order.id)
          .execute();
        await recordOrderEvent(trx, {
          orderId: order.id,
          actor,
          kind: "status",
          from: order.status,
          to: rule.to,
          details: { by: staff.name, ...request.details },
          now,
        });
        await writeAudit(
          trx,
          staff,
          {
            action: rule.audit,
            objectType: "order",
            objectId: order.number,
            before: {
              status: order.status,
              version: order.version,
              ...(request.set ? { carrier: order.carrier, tracking_number: order.tracking_number } : {}),
            },
            after: {
              status: after.status,
              version: after.version,
              ...request.set,
              ...(request.details?.reason ? { reason: request.details.reason } : {}),
            },
          },
          now,
        );
        // An order whose account was deleted has no address left: there is nobody to tell.
        if (order.email) {
          await enqueueMail(
            trx,
            request.mail({
              number: order.number,
              email: order.email,
              ship_name: order.ship_name,
              link: customerOrderLink(order, options.siteUrl),
            }),
          );
        }
      },
    });
    return { number: order.number, status: moved.status, version: moved.version, message: request.message };
  } catch (error) {
    if (error instanceof OrderConflictError && !(error instanceof StaleOrderError)) throw await staleNow(db, order.id);
    throw error;
  }
}

/** Loads the order, checks the form with `schema`, and makes the move `build` describes from both. */
async function moveWith<S extends z.ZodType<{ version: number }>>(
  db: Db,
  staff: StaffActor,
  number: string,
  schema: S,
  input: unknown,
  options: StaffOrderOptions,
  build: (order: LoadedOrder, parsed: z.infer<S>) => Omit<MoveRequest, "expectedVersion">,
): Promise<ActionOutcome> {
  const order = await loadOrder(db, number);
  const parsed = parseInput(schema, input);
  return move(db, staff, order, { ...build(order, parsed), expectedVersion: parsed.version }, options);
}

/** A move that takes nothing but the version (pack, deliver): "Order … is marked as <done>." */
function plainStep(action: "pack" | "deliver", mail: MoveRequest["mail"], done: string) {
  return (
    db: Db,
    staff: StaffActor,
    number: string,
    input: OrderStepInput | Record<string, unknown>,
    options: StaffOrderOptions = {},
  ): Promise<ActionOutcome> =>
    moveWith(db, staff, number, orderStepSchema, input, options, (order) => ({
      action,
      mail,
      message: `Order ${order.number} is marked as ${done}. The customer has been emailed.`,
    }));
}

export const packOrder = plainStep("pack", orderPackedMail, "packed");

export const deliverOrder = plainStep("deliver", orderDeliveredMail, "delivered");

export function shipOrder(
  db: Db,
  staff: StaffActor,
  number: string,
  input: ShipInput | Record<string, unknown>,
  options: StaffOrderOptions = {},
): Promise<ActionOutcome> {
  return moveWith(db, staff, number, shipSchema, input, options, (order, { carrier, trackingNumber }) => ({
    action: "ship",
    set: { carrier, tracking_number: trackingNumber },
    details: { carrier, trackingNumber },
    mail: (o) => orderShippedMail(o, { carrier, trackingNumber }),
    message: `Order ${order.number} is marked as shipped with ${carrier}, tracking number ${trackingNumber}. The customer has been emailed.`,
  }));
}

/** Cancels a placed or packed order; its stock goes back through the ledger ("cancellation"). */
export function cancelOrder(
  db: Db,
  staff: StaffActor,
  number: string,
  input: CancelInput | Record<string, unknown>,
  options: StaffOrderOptions = {},
): Promise<ActionOutcome> {
  return moveWith(db, staff, number, cancelSchema, input, options, (order, { reason }) => ({
    action: "cancel",
    details: reason ? { reason } : {},
    mail: (o) => orderCancelledMail(o, { reason }),
    message: `Order ${order.number} is cancelled and its items are back in stock. The customer has been emailed.`,
  }));
}
