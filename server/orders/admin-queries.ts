import type { Currency } from "../../app/lib/money.ts";
/**
 * What the back office reads of orders: the list (filters on indexed columns, keyset pages so a
 * page costs the same at one million orders as at ten), one order in full, and its packing slip.
 */
import { sql } from "kysely";
import type { OrderFilter } from "../../app/lib/order-admin-schema.ts";
import type { Db } from "../db/connection.ts";
import { needsPaymentAttention } from "../payments/attention.ts";
import { HOLD_STATUSES } from "./states.ts";
import { listOrderEvents } from "./history.ts";
import { orderLinesWithSku } from "./line-skus.ts";
import { SHIP_ADDRESS_COLUMNS } from "./queries.ts";
import { RETURNABLE_STATUSES, returnableLines } from "./returns.ts";
import { orderTaxView } from "../tax/order-tax-view.ts";
import { canTransition } from "./states.ts";

const ORDER_PAGE_SIZE = 50;

/** Orders that never became orders (holds not confirmed): left out of the list unless asked for by status. */
const NEVER_PLACED = [...HOLD_STATUSES, "expired"] as const;

export interface OrderListRow {
  number: string;
  created_at: string;
  email: string;
  ship_name: string;
  ship_country: string;
  status: string;
  payment_method: string;
  payment_status: string;
  total_cents: number;
  currency: Currency;
  items: number;
}

export interface OrderListPage {
  rows: OrderListRow[];
  /** Cursor for the next page (further in the sort order), or null on the last page. */
  next: string | null;
  /** Cursor for the previous page, or null on the first page. */
  previous: string | null;
}

const dayStart = (date: string) => `${date}T00:00:00.000Z`;
const nextDayStart = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** The cursor's sort value and order id; null when it doesn't fit the sort (the list starts over). */
function parseCursor(cursor: string, key: "created_at" | "total_cents"): [string | number, number] | null {
  const at = cursor.lastIndexOf("~");
  const value = cursor.slice(0, at);
  const id = Number(cursor.slice(at + 1));
  if (at < 1 || !Number.isSafeInteger(id)) return null;
  if (key === "total_cents") return /^\d{1,15}$/.test(value) ? [Number(value), id] : null;
  return [value, id];
}

/**
 * One page of orders, newest first unless sorted otherwise. Pages are keyset pages on
 * (sort value, id): `after` continues past a row, `before` goes back.
 */
export async function listOrdersForStaff(
  db: Db,
  filter: OrderFilter,
  pageSize = ORDER_PAGE_SIZE,
): Promise<OrderListPage> {
  const key = filter.sort === "total" ? "total_cents" : "created_at";
  const desc = (filter.dir ?? "desc") === "desc";
  const position = filter.after ?? filter.before;
  const parsedCursor = position ? parseCursor(position, key) : null;
  const cursor = parsedCursor ? position : undefined;
  const backwards = Boolean(cursor) && !filter.after;
  // Reading backwards walks the index the other way, then the page is put back in order.
  const walkDesc = backwards ? !desc : desc;

  let query = db.selectFrom("orders as o").select([
    "o.id",
    "o.number",
    "o.created_at",
    "o.email",
    "o.ship_name",
    "o.ship_country",
    "o.status",
    "o.payment_method",
    "o.payment_status",
    "o.total_cents",
    "o.currency",
    (eb) =>
      eb
        .selectFrom("order_lines as l")
        .select((inner) => inner.fn.sum<number>("l.quantity").as("n"))
        .whereRef("l.order_id", "=", "o.id")
        .as("items"),
  ]);
  if (filter.status) query = query.where("o.status", "=", filter.status as never);
  // Flagged payments include orders never placed (a mismatched payment keeps the order waiting).
  else if (!filter.attention) query = query.where("o.status", "not in", NEVER_PLACED);
  if (filter.attention === "payment") query = query.where(needsPaymentAttention("o"));
  if (filter.number) query = query.where("o.number", "=", filter.number);
  if (filter.email) query = query.where(sql<string>`lower(o.email)`, "=", filter.email.trim().toLowerCase());
  if (filter.payment) query = query.where("o.payment_method", "=", filter.payment);
  if (filter.country) query = query.where("o.ship_country", "=", filter.country);
  if (filter.currency) query = query.where("o.currency", "=", filter.currency);
  if (filter.from) query = query.where("o.created_at", ">=", dayStart(filter.from));
  if (filter.to) query = query.where("o.created_at", "<", nextDayStart(filter.to));
  if (parsedCursor) {
    const [value, id] = parsedCursor;
    query = query.where((eb) =>
      eb(eb.refTuple(`o.${key}`, "o.id"), walkDesc ? "<" : ">", eb.tuple(value as never, id)),
    );
  }
  const dir = walkDesc ? "desc" : "asc";
  const found = await query
    .orderBy(`o.${key}`, dir)
    .orderBy("o.id", dir)
    .limit(pageSize + 1)
    .execute();

  const more = found.length > pageSize;
  const page = found.slice(0, pageSize);
  if (backwards) page.reverse();
  const cursorOf = (row: (typeof page)[number]) => `${row[key]}~${row.id}`;
  const first = page[0];
  const last = page.at(-1);
  return {
    rows: page.map(({ id: _id, items, total_cents, ...row }) => ({
      ...row,
      total_cents: Number(total_cents),
      items: Number(items ?? 0),
    })),
    next: last && (backwards || more) ? cursorOf(last) : null,
    previous: first && (backwards ? more : Boolean(cursor)) ? cursorOf(first) : null,
  };
}

/** One order as staff see it: everything but the secrets (access, checkout and confirmation tokens). */
export async function getOrderForStaff(db: Db, number: string) {
  if (!/^TH-[0-9A-F]{10}$/.test(number)) return null;
  const order = await db
    .selectFrom("orders as o")
    .leftJoin("invoices as i", "i.order_id", "o.id")
    .select([
      "i.number as invoice_number",
      "i.status as invoice_status",
      "i.due_at as invoice_due_at",
      "o.id",
      "o.number",
      "o.status",
      "o.version",
      "o.created_at",
      "o.updated_at",
      "o.email",
      "o.user_id",
      "o.payment_method",
      "o.payment_status",
      "o.business_name",
      "o.tax_number",
      "o.ship_name",
      "o.ship_line1",
      "o.ship_line2",
      "o.ship_city",
      "o.ship_region",
      "o.ship_postcode",
      "o.ship_country",
      "o.subtotal_cents",
      "o.member_discount_cents",
      "o.shipping_cents",
      "o.tax_cents",
      "o.tax_basis",
      "o.tax_state",
      "o.total_cents",
      "o.currency",
      "o.carrier",
      "o.tracking_number",
      "o.paid_cents",
      "o.refunded_cents",
      "o.payment_flag",
    ])
    .where("o.number", "=", number)
    .executeTakeFirst();
  if (!order) return null;
  const [lineRows, returned, events, returns, pendingRefunds, tax] = await Promise.all([
    orderLinesWithSku(db, order.id)
      .select(["l.id", "l.product_id", "l.title", "l.color", "l.quantity", "l.unit_price_cents", "l.line_total_cents"])
      .orderBy("l.id")
      .execute(),
    returnableLines(db, order.id),
    listOrderEvents(db, order.id),
    listReturns(db, order.id),
    db
      .selectFrom("payment_refunds")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("total"))
      .where("order_id", "=", order.id)
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow(),
    orderTaxView(db, order),
  ]);
  const returnedBy = new Map(returned.map((r) => [r.id, r.returned]));
  const lines = lineRows.map((l) => ({ ...l, returned: returnedBy.get(l.id) ?? 0 }));
  const status = order.status;
  const canReturn = RETURNABLE_STATUSES.includes(status) && lines.some((l) => l.returned < l.quantity);
  const refundableCents =
    order.payment_method === "card" && order.paid_cents != null
      ? order.paid_cents - Number(order.refunded_cents) - Number(pendingRefunds.total)
      : 0;
  return {
    ...order,
    refunded_cents: Number(order.refunded_cents),
    refundableCents,
    pendingRefundCents: Number(pendingRefunds.total),
    version: Number(order.version),
    lines,
    events,
    returns,
    tax,
    partlyReturned: status !== "returned" && lines.some((l) => l.returned > 0),
    actions: {
      pack: canTransition(status, "packed"),
      ship: status === "packed" || status === "processing",
      deliver: status === "shipped",
      cancel:
        ["placed", "processing", "packed"].includes(status) ||
        (status === "awaiting_payment" && order.payment_flag != null),
      return: canReturn,
      refund: refundableCents > 0,
      "mark-paid": order.payment_method === "invoice-net30" && order.invoice_status === "unpaid",
    },
  };
}
export type StaffOrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderForStaff>>>;

/** The order's returns, oldest first, with what came back. */
async function listReturns(db: Db, orderId: number) {
  const rows = await db
    .selectFrom("order_returns as r")
    .innerJoin("order_return_lines as rl", "rl.return_id", "r.id")
    .innerJoin("order_lines as l", "l.id", "rl.order_line_id")
    .select(["r.id", "r.created_at", "r.reason", "r.restock", "r.note", "l.title", "l.color", "rl.quantity"])
    .where("r.order_id", "=", orderId)
    .orderBy("r.id")
    .orderBy("rl.id")
    .execute();
  const returns = new Map<
    number,
    {
      created_at: string;
      reason: string;
      restocked: boolean;
      note: string | null;
      lines: { title: string; color: string; quantity: number }[];
    }
  >();
  for (const row of rows) {
    const entry = returns.get(row.id) ?? {
      created_at: row.created_at,
      reason: row.reason,
      restocked: Number(row.restock) === 1,
      note: row.note,
      lines: [],
    };
    entry.lines.push({ title: row.title, color: row.color, quantity: Number(row.quantity) });
    returns.set(row.id, entry);
  }
  return [...returns.values()];
}

/** What the packing slip prints: where it goes and what goes in the box (no prices). */
export async function getPackingSlip(db: Db, number: string) {
  if (!/^TH-[0-9A-F]{10}$/.test(number)) return null;
  const order = await db
    .selectFrom("orders")
    .select([
      "id",
      "number",
      "status",
      "created_at",
      "ship_name",
      "business_name",
      ...SHIP_ADDRESS_COLUMNS,
      "carrier",
      "tracking_number",
    ])
    .where("number", "=", number)
    .executeTakeFirst();
  if (!order) return null;
  const lines = await orderLinesWithSku(db, order.id)
    .select(["l.title", "l.color", "l.quantity"])
    .orderBy("p.sku")
    .orderBy("l.id")
    .execute();
  const { id: _id, ...slip } = order;
  return { ...slip, lines, units: lines.reduce((n, l) => n + Number(l.quantity), 0) };
}
