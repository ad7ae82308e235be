/** Rows the dashboard, customers and messages specs put straight into the e2e store's SQLite database. */
import { randomBytes } from "node:crypto";
import { storeDb } from "../shopping/support.ts";

/** Statuses the dashboard counts as sales (server/admin/dashboard.ts SALE_STATUSES). */
const SALE_STATUSES = ["placed", "processing", "packed", "shipped", "delivered", "returned"];

export function insertOrder(o: {
  status: string;
  totalCents: number;
  createdAt?: string;
  userId?: string | null;
  email?: string;
  currency?: "usd" | "gbp";
}): string {
  const token = randomBytes(8).toString("hex");
  const number = `TH-${token.slice(0, 10).toUpperCase()}`;
  storeDb()
    .prepare(
      `INSERT INTO orders (number, access_token, checkout_token, user_id, email, status, payment_method, payment_status, ship_name, ship_line1, ship_city, ship_postcode, ship_country,
        subtotal_cents, member_discount_cents, shipping_cents, tax_cents, total_cents, created_at, currency)
       VALUES (?, ?, ?, ?, ?, ?, 'cod', 'due_on_delivery', 'Ada Buyer', '1 Road', 'London', 'SW1A 1AA', 'GB', ?, 0, 0, 0, ?, ?, ?)`,
    )
    .run(
      number,
      `a-${token}`,
      `c-${token}`,
      o.userId ?? null,
      o.email ?? `e2e-${token}@example.com`,
      o.status,
      o.totalCents,
      o.totalCents,
      o.createdAt ?? new Date().toISOString(),
      o.currency ?? "usd",
    );
  return number;
}

/** Today's (UTC) sales as the dashboard should count them: all orders, and orders and revenue per currency. */
export function salesToday(): Record<"usd" | "gbp", { orders: number; revenue: number }> & { orders: number } {
  const today = new Date().toISOString().slice(0, 10);
  const marks = SALE_STATUSES.map(() => "?").join(",");
  const inCurrency = (currency: string) =>
    storeDb()
      .prepare(
        `SELECT count(*) AS orders, coalesce(sum(total_cents), 0) AS revenue FROM orders WHERE created_at >= ? AND status IN (${marks}) AND currency = ?`,
      )
      .get(`${today}T00:00:00.000Z`, ...SALE_STATUSES, currency) as { orders: number; revenue: number };
  const usd = inCurrency("usd");
  const gbp = inCurrency("gbp");
  return { usd, gbp, orders: usd.orders + gbp.orders };
}

export function userIdOf(email: string): string {
  return (storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(email) as { id: string }).id;
}

export function unansweredMessages(): number {
  return (
    storeDb().prepare("SELECT count(*) AS n FROM contact_messages WHERE handled_at IS NULL").get() as { n: number }
  ).n;
}

export function insertFailedMail(to: string, subject: string, status: "failed" | "unknown" = "failed"): number {
  const now = new Date().toISOString();
  const result = storeDb()
    .prepare(
      `INSERT INTO mail_queue (to_address, subject, text_body, html_body, reply_to, headers, message_id, status, attempts, next_attempt_at, created_at, updated_at, last_error)
       VALUES (?, ?, 'Body', '<p>Body</p>', NULL, '{}', ?, ?, 5, ?, ?, ?, ?)`,
    )
    .run(
      to,
      subject,
      `<${randomBytes(8).toString("hex")}@toolhub.example>`,
      status,
      now,
      now,
      now,
      `550 No such user ${to}`,
    );
  return Number(result.lastInsertRowid);
}

export function mailStatus(id: number): string {
  return (storeDb().prepare("SELECT status FROM mail_queue WHERE id = ?").get(id) as { status: string }).status;
}

export function auditActions(objectType: string, objectId: string | number): string[] {
  return (
    storeDb()
      .prepare("SELECT action FROM audit_log WHERE object_type = ? AND object_id = ? ORDER BY id")
      .all(objectType, String(objectId)) as { action: string }[]
  ).map((r) => r.action);
}

export function insertSubscriber(email: string, status: "pending" | "confirmed" | "unsubscribed") {
  const now = new Date().toISOString();
  storeDb()
    .prepare(
      `INSERT INTO newsletter_subscribers (email, status, unsubscribe_token, created_at, updated_at, confirmed_at, unsubscribed_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      email,
      status,
      randomBytes(24).toString("base64url"),
      now,
      now,
      status === "pending" ? null : now,
      status === "unsubscribed" ? now : null,
    );
}
