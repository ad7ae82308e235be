import type { Currency } from "../../app/lib/money.ts";
/** Hand-made rows for the dashboard, customers and messages tests (issue 12, "people" slice). */
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { buildAuthOptions } from "../../server/auth/auth.ts";
import { UNGUARDED } from "../../server/auth/sign-in-guard.ts";
import type { AuditActor } from "../../server/audit/audit.ts";
import { loadConfig } from "../../server/config.ts";
import type { Db } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import type { OrderStatus } from "../../server/orders/states.ts";

export const cfg = loadConfig({
  SITE_URL: "http://127.0.0.1:3999",
  NODE_ENV: "test",
  AUTH_SECRET: "integration-secret-0123456789abcdef0123",
});
export const PASSWORD = "Sturdy-Hammer-42";
export const authFor = (db: Db) => betterAuth(buildAuthOptions(db, cfg, UNGUARDED));

export const staffActor: AuditActor = { userId: "staff-user-1", name: "Sam Staff" };

/** What a refused call said: its status and message (anything but a DomainError, or success, fails the test). */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

let n = 0;
export async function insertOrder(
  db: Db,
  o: {
    status: OrderStatus;
    total: number;
    createdAt: string;
    userId?: string | null;
    email?: string;
    currency?: Currency;
  },
): Promise<{ id: number; number: string }> {
  n++;
  const token = randomBytes(8).toString("hex");
  const number = `TH-${token.slice(0, 8).toUpperCase()}`;
  const row = await db
    .insertInto("orders")
    .values({
      number,
      access_token: `a-${token}`,
      checkout_token: `c-${token}`,
      user_id: o.userId ?? null,
      email: o.email ?? `buyer${n}@example.com`,
      status: o.status,
      payment_method: "cod",
      payment_status: "due_on_delivery",
      business_name: null,
      tax_number: null,
      ship_name: "Ada Buyer",
      ship_line1: "1 Road",
      ship_line2: null,
      ship_city: "London",
      ship_region: null,
      ship_postcode: "SW1A 1AA",
      ship_country: "GB",
      subtotal_cents: o.total,
      member_discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      currency: o.currency ?? "usd",
      total_cents: o.total,
      created_at: o.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), number };
}

export async function insertProduct(
  db: Db,
  p: { sku: string; stock: number; threshold: number; archived?: boolean },
): Promise<number> {
  const brand =
    (await db.selectFrom("brands").select("id").where("slug", "=", "people-brand").executeTakeFirst()) ??
    (await db
      .insertInto("brands")
      .values({ name: "People Brand", slug: "people-brand", position: 99 })
      .returning("id")
      .executeTakeFirstOrThrow());
  const category =
    (await db.selectFrom("categories").select("id").where("slug", "=", "people-cat").executeTakeFirst()) ??
    (await db
      .insertInto("categories")
      .values({ name: "People Cat", slug: "people-cat", position: 99 })
      .returning("id")
      .executeTakeFirstOrThrow());
  const row = await db
    .insertInto("products")
    .values({
      slug: `p-${p.sku.toLowerCase()}`,
      sku: p.sku,
      title: `Product ${p.sku}`,
      description: "A product.",
      features: "[]",
      price_cents: 1000,
      discount_percent: null,
      sale_price_cents: 1000,
      colors: "[]",
      stock_quantity: p.stock,
      brand_id: Number(brand.id),
      category_id: Number(category.id),
      model: "M",
      material: "Steel",
      weight_grams: 10,
      country_of_origin: "UK",
      manufacturer: "Maker",
      return_policy: "14 days",
      image_count: 1,
      rating: 5,
      featured: 0,
      created_at: "2024-01-01T00:00:00.000Z",
      archived_at: p.archived ? "2024-02-01T00:00:00.000Z" : null,
      low_stock_threshold: p.threshold,
      updated_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertMessage(
  db: Db,
  m: { subject: string; email?: string; name?: string; createdAt?: string; handled?: boolean },
): Promise<number> {
  const row = await db
    .insertInto("contact_messages")
    .values({
      name: m.name ?? "Ada Sender",
      email: m.email ?? "ada.sender@example.com",
      subject: m.subject,
      message: "Hello,\nwhere is my drill?",
      ip: null,
      created_at: m.createdAt ?? new Date().toISOString(),
      handled_at: m.handled ? new Date().toISOString() : null,
      handled_by: null,
      replied_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function auditRows(db: Db, objectType: string, objectId: string | number) {
  return db
    .selectFrom("audit_log")
    .selectAll()
    .where("object_type", "=", objectType)
    .where("object_id", "=", String(objectId))
    .orderBy("id")
    .execute();
}
