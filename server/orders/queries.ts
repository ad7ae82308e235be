import type { Db } from "../db/connection.ts";
import { paymentView } from "../payments/order-page.ts";
import { customerTimeline } from "./history.ts";
import { orderTaxView } from "../tax/order-tax-view.ts";

/**
 * What an order page shows, and nothing else: no row ids, no access or checkout token, no account
 * id, no payment bookkeeping. Loaders return these views, so they are all that reaches the browser.
 */
/** The delivery address's lines (the name apart). */
export const SHIP_ADDRESS_COLUMNS = [
  "ship_line1",
  "ship_line2",
  "ship_city",
  "ship_region",
  "ship_postcode",
  "ship_country",
] as const;

export const ORDER_VIEW_COLUMNS = [
  "number",
  "email",
  "status",
  "payment_method",
  "created_at",
  "ship_name",
  ...SHIP_ADDRESS_COLUMNS,
  "subtotal_cents",
  "member_discount_cents",
  "shipping_cents",
  "tax_cents",
  "total_cents",
  "currency",
  "po_number",
] as const;

const LINE_VIEW_COLUMNS = ["title", "color", "quantity", "unit_price_cents", "line_total_cents"] as const;

export async function listOrdersForUser(db: Db, userId: string) {
  return db
    .selectFrom("orders")
    .select(["number", "status", "total_cents", "currency", "created_at", "payment_method", "payment_status"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(100)
    .execute();
}

function findOrder(db: Db) {
  return db
    .selectFrom("orders")
    .select([
      "id",
      ...ORDER_VIEW_COLUMNS,
      "carrier",
      "tracking_number",
      "payment_status",
      "payment_flag",
      "hold_expires_at",
      "paid_cents",
      "refunded_cents",
      "tax_basis",
      "tax_state",
    ]);
}

async function withLines(db: Db, order: Awaited<ReturnType<ReturnType<typeof findOrder>["executeTakeFirst"]>>) {
  if (!order) return null;
  const {
    id,
    payment_status,
    payment_flag,
    hold_expires_at,
    paid_cents,
    refunded_cents,
    tax_basis,
    tax_state,
    ...view
  } = order;
  const payment = paymentView({ ...view, payment_status, payment_flag, hold_expires_at, paid_cents, refunded_cents });
  const [lines, timeline, tax] = await Promise.all([
    db.selectFrom("order_lines").select(LINE_VIEW_COLUMNS).where("order_id", "=", id).orderBy("id").execute(),
    customerTimeline(db, { id, created_at: view.created_at }),
    orderTaxView(db, { id, tax_basis, tax_state }),
  ]);
  return { ...view, lines, timeline, payment, tax };
}

/** The order, only when it belongs to this user; otherwise null (the route answers 404). */
export async function getOrderForUser(db: Db, number: string, userId: string) {
  if (!/^TH-[0-9A-F]{10}$/.test(number)) return null;
  return withLines(
    db,
    await findOrder(db).where("number", "=", number).where("user_id", "=", userId).executeTakeFirst(),
  );
}

/** The guest's order behind the unguessable link in the confirmation mail. */
export async function getOrderByAccessToken(db: Db, token: string) {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  return withLines(db, await findOrder(db).where("access_token", "=", token).executeTakeFirst());
}

/** An order as its page shows it. */
export type OrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderForUser>>>;
