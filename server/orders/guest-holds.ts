/**
 * Guests can't hold stock they never pay for (decision 0039). A guest's order holds its stock
 * before it is placed (awaiting the confirmation link, or awaiting its card payment); the units
 * that such orders hold at once are capped per client network (the limiter's key: an IPv4
 * address or an IPv6 /64) and per email address, across payment methods, counted from the
 * database inside the transaction that would take more, so every app process of a fleet sees the
 * same count. A card order's "Try again" takes its stock again through the same rule. Members'
 * orders are not counted.
 */
import { createHash } from "node:crypto";
import { sql, type Transaction } from "kysely";
import { formatCount } from "../../app/lib/numbers.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError } from "../errors.ts";
import { expireOverdueHolds } from "./holds.ts";
import { HOLD_STATUSES } from "./states.ts";

declare module "../db/schema.ts" {
  interface OrderTable {
    /** While a guest's order holds stock: a hash of its client network (guestHoldClient); null otherwise (migration 027). */
    hold_client: string | null;
  }
}

export interface GuestHoldCaps {
  /** Units that guests' held orders from one client network may hold at once (GUEST_HOLD_IP_UNITS). */
  perClient: number;
  /** Units that guests' held orders for one email address may hold at once (GUEST_HOLD_EMAIL_UNITS). */
  perEmail: number;
}

/** Who takes the stock and the caps they are held to: the checkout's and the order page's share. */
export interface GuestHoldClaim {
  /** The client's limiter key (clientIp(request): an IPv4 address or an IPv6 /64). */
  client: string;
  caps: GuestHoldCaps;
}

/** What a client network's held orders are stored under: a hash of its limiter key, so no address sits in the orders table. */
export function guestHoldClient(client: string): string {
  return createHash("sha256").update(`hold-client:${client}`).digest("hex").slice(0, 32);
}

/** The one form of an address that the email count compares. */
function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

type GuestHoldCap = "order" | "email" | "client";

export interface GuestHoldRefusal {
  cap: GuestHoldCap;
  /** Units the counted orders hold now (0 for "order": this order alone is above a cap). */
  held: number;
  limit: number;
}

/**
 * The rule: a guest's order of `units` may start holding stock only if it fits, with the units
 * that the guest's other held orders hold, under both caps. An order above the smaller cap on
 * its own can never fit ("order"); otherwise the email's count is checked before the network's.
 */
export function guestHoldRefusal(
  counts: { units: number; heldByEmail: number; heldByClient: number },
  caps: GuestHoldCaps,
): GuestHoldRefusal | null {
  const smaller = Math.min(caps.perClient, caps.perEmail);
  if (counts.units > smaller) return { cap: "order", held: 0, limit: smaller };
  if (counts.heldByEmail + counts.units > caps.perEmail)
    return { cap: "email", held: counts.heldByEmail, limit: caps.perEmail };
  if (counts.heldByClient + counts.units > caps.perClient)
    return { cap: "client", held: counts.heldByClient, limit: caps.perClient };
  return null;
}

/** Where the refusal is read: under the checkout form (whose values stay) or on the order's page. */
export type GuestHoldPlace = "checkout" | "order-page";

/** What the guest reads: which cap, why, and what to do about it. */
export function guestHoldMessage(refusal: GuestHoldRefusal, place: GuestHoldPlace): string {
  const limit = formatCount(refusal.limit);
  const held = formatCount(refusal.held);
  const tail = place === "checkout" ? " Your details are still filled in below." : "";
  if (refusal.cap === "order") {
    const fix =
      place === "checkout"
        ? "Lower the quantities in your cart, or log in to order more."
        : "Log in and order again to buy this many.";
    return `An order placed without an account can hold at most ${limit} units while it waits for confirmation or payment. ${fix}${tail}`;
  }
  const whose = refusal.cap === "email" ? "Your orders with this email address" : "Orders placed from your network";
  return (
    `${whose} that are waiting for confirmation or payment already hold ${held} units, and orders placed without an account can hold at most ${limit} at a time. ` +
    `Confirm or pay for the orders you already placed (the links are in our emails), or log in to order more; an order not confirmed or paid in time is released and stops counting.${tail}`
  );
}

class GuestHoldLimitError extends ConflictError {
  readonly refusal: GuestHoldRefusal;
  /** Counted orders whose hold has already run out: releasing them may make room. */
  readonly overdueOrderIds: number[];
  constructor(refusal: GuestHoldRefusal, overdueOrderIds: number[], place: GuestHoldPlace) {
    super("GUEST_HOLD_LIMIT", guestHoldMessage(refusal, place));
    this.refusal = refusal;
    this.overdueOrderIds = overdueOrderIds;
  }
}

type Handle = Db | Transaction<Database>;

interface HeldOrder {
  id: number;
  hold_expires_at: string | null;
  units: number;
}

/** Guests' orders holding stock now under `column = value`, each with its units (members' orders, flagged payments and payments under way are not counted). */
async function heldOrders(db: Handle, by: { client: string } | { email: string }): Promise<HeldOrder[]> {
  let query = db
    .selectFrom("orders as o")
    .innerJoin("order_lines as ol", "ol.order_id", "o.id")
    .select(["o.id", "o.hold_expires_at", (eb) => eb.fn.sum<number>("ol.quantity").as("units")])
    .where("o.status", "in", HOLD_STATUSES)
    .where("o.user_id", "is", null)
    .where("o.payment_flag", "is", null)
    .where("o.payment_status", "!=", "processing")
    .groupBy(["o.id", "o.hold_expires_at"]);
  query =
    "client" in by
      ? query.where("o.hold_client", "=", guestHoldClient(by.client))
      : query.where(sql`lower(o.email)`, "=", normalEmail(by.email));
  const rows = await query.execute();
  return rows.map((r) => ({ id: Number(r.id), hold_expires_at: r.hold_expires_at, units: Number(r.units) }));
}

/** Units that guests' orders hold now, per client network and per email address (for tests and the decision's figures). */
export async function guestUnitsHeld(db: Handle, by: { client: string } | { email: string }): Promise<number> {
  return (await heldOrders(db, by)).reduce((sum, o) => sum + o.units, 0);
}

/**
 * Checks a guest's order of `units` against the caps inside the transaction that takes the
 * stock, and returns the value to store in the order's `hold_client`. On PostgreSQL two checkouts
 * of one network or one address wait for each other (transaction-scoped advisory locks, taken in
 * one order before any row lock); SQLite's single writer does the same. Throws
 * GuestHoldLimitError with the readable reason.
 */
export async function claimGuestHold(
  trx: Transaction<Database>,
  input: { claim: GuestHoldClaim; email: string; units: number; now: Date; place: GuestHoldPlace },
): Promise<string> {
  const { claim, email, units, now } = input;
  const client = guestHoldClient(claim.client);
  if (dbKind(trx) === "postgres") {
    for (const key of [`guest-hold:client:${client}`, `guest-hold:email:${normalEmail(email)}`].sort()) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    }
  }
  const [byClient, byEmail] = [await heldOrders(trx, { client: claim.client }), await heldOrders(trx, { email })];
  const sum = (orders: HeldOrder[]) => orders.reduce((n, o) => n + o.units, 0);
  const refusal = guestHoldRefusal({ units, heldByEmail: sum(byEmail), heldByClient: sum(byClient) }, claim.caps);
  if (refusal) {
    const counted = refusal.cap === "email" ? byEmail : refusal.cap === "client" ? byClient : [];
    const overdue = counted
      .filter((o) => o.hold_expires_at != null && o.hold_expires_at <= now.toISOString())
      .map((o) => o.id);
    throw new GuestHoldLimitError(refusal, overdue, input.place);
  }
  return client;
}

/**
 * Runs `attempt` (a transaction that claims a guest hold); when it is refused over a cap that
 * counted holds already run out (the expiry job has not come by yet), releases those and tries once more.
 */
export async function releasingOverdueGuestHolds<T>(db: Db, now: Date, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (
      error instanceof GuestHoldLimitError &&
      error.overdueOrderIds.length > 0 &&
      (await expireOverdueHolds(db, { now, orderIds: error.overdueOrderIds })) > 0
    )
      return attempt();
    throw error;
  }
}
