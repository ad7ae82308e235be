/**
 * Staff move an order through fulfilment: pack, ship (carrier + tracking number), deliver, or
 * cancel (which gives the stock back through the ledger, states.ts). Each move is one
 * transaction: the status move with the version the staff member's page showed, an
 * order_events row, an audit row and the customer's mail in the durable queue. Of two staff
 * acting on one order at once, exactly one wins; the other gets a StaleOrderError.
 */
import { cancelSchema, orderStepSchema, shipSchema, type CancelInput, type OrderStepInput, type ShipInput } from "../../app/lib/order-admin-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { enqueueMail, type OutgoingMail } from "../mail/queue.ts";
import { recordOrderEvent, type EventDetails } from "./history.ts";
import { orderCancelledMail, orderDeliveredMail, orderPackedMail, orderShippedMail, type FulfilmentMailOrder } from "./mails.ts";
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
  cancel: { to: "cancelled", from: ["placed", "processing", "packed"], audit: "order.cancel" },
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

async function move(db: Db, staff: StaffActor, order: LoadedOrder, request: MoveRequest, options: StaffOrderOptions): Promise<ActionOutcome> {
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
        await trx
          .updateTable("orders")
          .set({ updated_at: now.toISOString(), ...request.set })
          .where("id", "=", order.id)
          .execute();
        await recordOrderEvent(trx, { orderId: order.id, actor, kind: "status", from: order.status, to: rule.to, details: { by: staff.name, ...request.details }, now });
        await writeAudit(
          trx,
          staff,
          {
            action: rule.audit,
            objectType: "order",
            objectId: order.number,
            before: { status: order.status, version: order.version, ...(request.set ? { carrier: order.carrier, tracking_number: order.tracking_number } : {}) },
            after: { status: after.status, version: after.version, ...request.set, ...(request.details?.reason ? { reason: request.details.reason } : {}) },
          },
          now,
        );
        // An order whose account was deleted has no address left: there is nobody to tell.
        if (order.email) {
          await enqueueMail(trx, request.mail({ number: order.number, email: order.email, ship_name: order.ship_name, link: customerOrderLink(order, options.siteUrl) }));
        }
      },
    });
    return { number: order.number, status: moved.status, version: moved.version, message: request.message };
  } catch (error) {
    if (error instanceof OrderConflictError && !(error instanceof StaleOrderError)) throw await staleNow(db, order.id);
    throw error;
  }
}

export async function packOrder(db: Db, staff: StaffActor, number: string, input: OrderStepInput | Record<string, unknown>, options: StaffOrderOptions = {}): Promise<ActionOutcome> {
  const order = await loadOrder(db, number);
  const { version } = parseInput(orderStepSchema, input);
  return move(db, staff, order, { action: "pack", expectedVersion: version, mail: orderPackedMail, message: `Order ${order.number} is marked as packed. The customer has been emailed.` }, options);
}

export async function shipOrder(db: Db, staff: StaffActor, number: string, input: ShipInput | Record<string, unknown>, options: StaffOrderOptions = {}): Promise<ActionOutcome> {
  const order = await loadOrder(db, number);
  const { version, carrier, trackingNumber } = parseInput(shipSchema, input);
  return move(
    db,
    staff,
    order,
    {
      action: "ship",
      expectedVersion: version,
      set: { carrier, tracking_number: trackingNumber },
      details: { carrier, trackingNumber },
      mail: (o) => orderShippedMail(o, { carrier, trackingNumber }),
      message: `Order ${order.number} is marked as shipped with ${carrier}, tracking number ${trackingNumber}. The customer has been emailed.`,
    },
    options,
  );
}

export async function deliverOrder(db: Db, staff: StaffActor, number: string, input: OrderStepInput | Record<string, unknown>, options: StaffOrderOptions = {}): Promise<ActionOutcome> {
  const order = await loadOrder(db, number);
  const { version } = parseInput(orderStepSchema, input);
  return move(db, staff, order, { action: "deliver", expectedVersion: version, mail: orderDeliveredMail, message: `Order ${order.number} is marked as delivered. The customer has been emailed.` }, options);
}

/** Cancels a placed or packed order; its stock goes back through the ledger ("cancellation"). */
export async function cancelOrder(db: Db, staff: StaffActor, number: string, input: CancelInput | Record<string, unknown>, options: StaffOrderOptions = {}): Promise<ActionOutcome> {
  const order = await loadOrder(db, number);
  const { version, reason } = parseInput(cancelSchema, input);
  return move(
    db,
    staff,
    order,
    {
      action: "cancel",
      expectedVersion: version,
      details: reason ? { reason } : {},
      mail: (o) => orderCancelledMail(o, { reason }),
      message: `Order ${order.number} is cancelled and its items are back in stock. The customer has been emailed.`,
    },
    options,
  );
}
