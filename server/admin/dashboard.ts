import type { Db } from "../db/connection.ts";
import type { OrderStatus } from "../orders/states.ts";

/** Orders that are placed and not yet on their way (server/orders/states.ts). */
export const WAITING_TO_SHIP: readonly OrderStatus[] = ["placed", "processing", "packed"];
/** Statuses that never became a real order: unconfirmed holds and their expiry. */
const NOT_AN_ORDER: readonly OrderStatus[] = ["awaiting_confirmation", "awaiting_payment", "expired"];

export interface DashboardCounts {
  ordersToday: number;
  waitingToShip: number;
  unansweredMessages: number;
}

/** Start of the current UTC day as stored in orders.created_at (ISO-8601 UTC). */
export function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

/** The first figures of the back-office dashboard. */
export async function dashboardCounts(db: Db, now = new Date()): Promise<DashboardCounts> {
  const [today, waiting, messages] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("created_at", ">=", startOfUtcDay(now))
      .where("status", "not in", [...NOT_AN_ORDER])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "in", [...WAITING_TO_SHIP])
      .executeTakeFirstOrThrow(),
    // Contact messages have no "handled" mark yet (the Messages slice adds it): all are unanswered.
    db
      .selectFrom("contact_messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { ordersToday: Number(today.n), waitingToShip: Number(waiting.n), unansweredMessages: Number(messages.n) };
}
