/**
 * The back-office dashboard's figures. Each is one aggregate query on an indexed range, so the page
 * stays fast with a million orders:
 * - sales: orders.created_at over the last 30 UTC days, grouped by day, each currency summed
 *   apart (never pounds added to dollars); the indexes orders_created_idx and orders_status_idx
 *   hold created_at, status, currency and total_cents, so the scan is index-only;
 * - waiting to ship: orders.status (orders_hold_idx starts with status);
 * - low stock: a partial index on products (stock_quantity, id) where archived_at is null and
 *   stock_quantity <= low_stock_threshold;
 * - messages: contact_messages where handled_at is null; stuck mail: mail_queue_due_idx.
 */
import { overdueInvoices } from "../invoices/open-invoices.ts";
import { countQuoteRequests } from "../quotes/staff-quotes.ts";
import { sql } from "kysely";
import { CURRENCIES, type Currency } from "../../app/lib/money.ts";
import type { Db } from "../db/connection.ts";
import { inCurrency } from "../orders/currency-sums.ts";
import type { OrderStatus } from "../orders/states.ts";
import { countUnhandledMessages } from "../contact/inbox.ts";
import { countStuckMail } from "../mail/admin-queue.ts";
import { countPaymentsNeedingAttention } from "../payments/attention.ts";

/** Orders that are placed and not yet on their way (server/orders/states.ts). */
const WAITING_TO_SHIP: readonly OrderStatus[] = ["placed", "processing", "packed"];
/**
 * Orders that count as sales: placed and everything after it. Holds that were never confirmed or
 * paid, their expiry, and cancelled orders (the money was never kept) are not sales. A returned
 * order stays a sale here: returns are recorded per line and may be partial.
 */
export const SALE_STATUSES: readonly OrderStatus[] = [
  "placed",
  "processing",
  "packed",
  "shipped",
  "delivered",
  "returned",
];

const CHART_DAYS = 30;
const LOW_STOCK_SHOWN = 5;

export interface DashboardCounts {
  ordersToday: number;
  waitingToShip: number;
  unansweredMessages: number;
}

/** An amount in each currency (revenue in its minor units, or a count). */
type Revenue = Record<Currency, number>;

interface SalesFigure {
  orders: number;
  revenue: Revenue;
}

const noRevenue = (): Revenue => ({ usd: 0, gbp: 0 });

interface DailySales extends SalesFigure {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** The day's orders in each currency (`orders` is all of them). */
  ordersIn: Revenue;
}

interface LowStockProduct {
  id: number;
  title: string;
  sku: string;
  stock: number;
  threshold: number;
}

export interface Dashboard {
  today: SalesFigure;
  last7Days: SalesFigure;
  last30Days: SalesFigure;
  /** Oldest first, one entry per day (days without sales are zero), the last one is today. */
  daily: DailySales[];
  waitingToShip: number;
  lowStock: { count: number; first: LowStockProduct[] };
  unansweredMessages: number;
  stuckMails: number;
  /** Card payments flagged for staff (amount mismatch, paid twice, paid after release). */
  paymentsNeedingAttention: number;
  /** Quote requests waiting for staff's prices. */
  quoteRequests: number;
  /** Net-30 invoices past their due date, the oldest first. */
  overdueInvoices: Awaited<ReturnType<typeof overdueInvoices>>;
}

/** The UTC days ending today, oldest first, as YYYY-MM-DD. */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** The UTC day of an order: created_at is ISO-8601 UTC text on both databases. Literal SQL, so the SELECT and the GROUP BY are the same expression. */
const DAY = sql<string>`substr(created_at, 1, 10)`;

/** Sales (orders and revenue) per UTC day over the last `days` days: one GROUP BY over a created_at range. */
async function dailySales(db: Db, now = new Date(), days = CHART_DAYS): Promise<DailySales[]> {
  const range = lastDays(now, days);
  // One row per day; each currency's count and sum beside the others (GROUP BY the day alone keeps
  // the plan the index scan it was before currencies).
  const rows = await db
    .selectFrom("orders")
    .select((eb) => [
      DAY.as("day"),
      ...CURRENCIES.flatMap((currency) => [
        eb.fn.count<number>(inCurrency(eb, currency, "id")).as(`orders_${currency}` as const),
        eb.fn.sum<number>(inCurrency(eb, currency, "total_cents")).as(`revenue_${currency}` as const),
      ]),
    ])
    .where("created_at", ">=", `${range[0]}T00:00:00.000Z`)
    .where("status", "in", [...SALE_STATUSES])
    .groupBy(DAY)
    .execute();
  const byDay = new Map<string, DailySales>(
    range.map((day) => [day, { day, orders: 0, ordersIn: noRevenue(), revenue: noRevenue() }]),
  );
  for (const row of rows) {
    const day = byDay.get(row.day);
    if (!day) continue;
    for (const currency of CURRENCIES) {
      day.ordersIn[currency] = Number(row[`orders_${currency}`] ?? 0);
      day.revenue[currency] = Number(row[`revenue_${currency}`] ?? 0);
      day.orders += day.ordersIn[currency];
    }
  }
  return [...byDay.values()];
}

function total(days: DailySales[]): SalesFigure {
  const sum: SalesFigure = { orders: 0, revenue: noRevenue() };
  for (const d of days) {
    sum.orders += d.orders;
    for (const currency of CURRENCIES) sum.revenue[currency] += d.revenue[currency];
  }
  return sum;
}

/** Counts stop here: a figure above it shows as "10,000+", and the count stays cheap whatever the backlog. */
export const COUNT_CAP = 10_000;

/** Orders waiting to ship, counted up to COUNT_CAP + 1. */
async function countWaitingToShip(db: Db): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("orders")
        .select("id")
        .where("status", "in", [...WAITING_TO_SHIP])
        .limit(COUNT_CAP + 1)
        .as("w"),
    )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Products on sale whose stock is at or below their own threshold: how many, and the lowest few. */
async function lowStockProducts(db: Db, shown = LOW_STOCK_SHOWN): Promise<{ count: number; first: LowStockProduct[] }> {
  const base = db
    .selectFrom("products")
    .where("archived_at", "is", null)
    .whereRef("stock_quantity", "<=", "low_stock_threshold");
  const [count, first] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    base
      .select(["id", "title", "sku", "stock_quantity", "low_stock_threshold"])
      .orderBy("stock_quantity")
      .orderBy("id")
      .limit(shown)
      .execute(),
  ]);
  return {
    count: Number(count.n),
    first: first.map((p) => ({
      id: Number(p.id),
      title: p.title,
      sku: p.sku,
      stock: Number(p.stock_quantity),
      threshold: Number(p.low_stock_threshold),
    })),
  };
}

/** Awaits every promise of the object at once: the same keys, with their values. */
async function allOf<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const values = await Promise.all(Object.values(promises));
  return Object.fromEntries(Object.keys(promises).map((key, i) => [key, values[i]])) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}

export async function loadDashboard(db: Db, now = new Date()): Promise<Dashboard> {
  const { daily, ...queues } = await allOf({
    daily: dailySales(db, now),
    waitingToShip: countWaitingToShip(db),
    lowStock: lowStockProducts(db),
    unansweredMessages: countUnhandledMessages(db),
    stuckMails: countStuckMail(db, now),
    paymentsNeedingAttention: countPaymentsNeedingAttention(db),
    overdueInvoices: overdueInvoices(db, now),
    quoteRequests: countQuoteRequests(db),
  });
  return {
    today: total(daily.slice(-1)),
    last7Days: total(daily.slice(-7)),
    last30Days: total(daily),
    daily,
    ...queues,
  };
}

/** The dashboard's first three figures (kept for callers that need only these). */
export async function dashboardCounts(db: Db, now = new Date()): Promise<DashboardCounts> {
  const [daily, waitingToShip, unansweredMessages] = await Promise.all([
    dailySales(db, now, 1),
    countWaitingToShip(db),
    countUnhandledMessages(db),
  ]);
  return { ordersToday: daily[0].orders, waitingToShip, unansweredMessages };
}
