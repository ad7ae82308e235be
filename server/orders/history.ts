/**
 * An order's history: one order_events row per status move, return or payment change, written
 * in the transaction that made the change. Staff see every event with who made it; the customer
 * sees the same events without names or internal notes (customerTimeline).
 */
import type { Transaction } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Database, OrderEventKind } from "../db/schema.ts";

export interface OrderEventInput {
  orderId: number;
  /** "staff:<user id>", "user:<id>", "guest", "system:<job>". */
  actor: string | null;
  kind: OrderEventKind;
  from?: string | null;
  to?: string | null;
  details?: EventDetails;
  now?: Date;
}

/** What an event carries besides its status move. Everything here except `by` and `note` is shown to the customer. */
export interface EventDetails {
  /** The staff member's display name (never shown to the customer). */
  by?: string;
  carrier?: string;
  trackingNumber?: string;
  /** A cancellation's reason, or a return's (both are told to the customer). */
  reason?: string;
  /** A staff note on a return (internal). */
  note?: string;
  restock?: boolean;
  /** A return: the lines that came back. */
  lines?: { title: string; color: string; quantity: number }[];
}

export async function recordOrderEvent(trx: Transaction<Database>, event: OrderEventInput): Promise<void> {
  await trx
    .insertInto("order_events")
    .values({
      order_id: event.orderId,
      created_at: (event.now ?? new Date()).toISOString(),
      actor: event.actor,
      kind: event.kind,
      from_status: event.from ?? null,
      to_status: event.to ?? null,
      details: JSON.stringify(event.details ?? {}),
    })
    .execute();
}

function parseDetails(text: string): EventDetails {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export interface StaffOrderEvent {
  at: string;
  kind: OrderEventKind;
  from: string | null;
  to: string | null;
  actor: string | null;
  details: EventDetails;
}

/** Every event of the order, oldest first (the page reads it top to bottom, newest last). */
export async function listOrderEvents(db: Db | Transaction<Database>, orderId: number): Promise<StaffOrderEvent[]> {
  const rows = await db
    .selectFrom("order_events")
    .select(["created_at", "kind", "from_status", "to_status", "actor", "details"])
    .where("order_id", "=", orderId)
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((r) => ({
    at: r.created_at,
    kind: r.kind,
    from: r.from_status,
    to: r.to_status,
    actor: r.actor,
    details: parseDetails(r.details),
  }));
}

/** One step of the customer's timeline: nothing in it names staff, rows or internal notes. */
export interface TimelineStep {
  at: string;
  kind: "placed" | "status" | "return";
  status: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  reason: string | null;
  lines: { title: string; color: string; quantity: number }[];
}

/**
 * What the customer's order page shows of the history: when it was placed, then each move
 * (with carrier and tracking number once shipped), each return and the cancellation reason.
 */
export async function customerTimeline(db: Db, order: { id: number; created_at: string }): Promise<TimelineStep[]> {
  const events = await listOrderEvents(db, order.id);
  const steps: TimelineStep[] = [
    {
      at: order.created_at,
      kind: "placed",
      status: "placed",
      carrier: null,
      trackingNumber: null,
      reason: null,
      lines: [],
    },
  ];
  for (const e of events) {
    if (e.kind === "status" && e.to === "placed") continue;
    if (e.kind !== "status" && e.kind !== "return") continue;
    steps.push({
      at: e.at,
      kind: e.kind,
      status: e.to,
      carrier: e.details.carrier ?? null,
      trackingNumber: e.details.trackingNumber ?? null,
      reason: e.details.reason ?? null,
      lines: (e.details.lines ?? []).map((l) => ({
        title: String(l.title),
        color: String(l.color ?? ""),
        quantity: Number(l.quantity),
      })),
    });
  }
  return steps;
}
