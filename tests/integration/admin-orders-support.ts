/** Orders for the back-office order tests, made through the real cart and checkout. */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import type { Db } from "../../server/db/connection.ts";
import { DomainError } from "../../server/errors.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { net30Buyer } from "./trade-support.ts";

export const SITE = "https://shop.example";
export const STAFF = { userId: "staff-1", name: "Sam Staff" };
export const OTHER_STAFF = { userId: "staff-2", name: "Pat Packer" };

const token = () => randomBytes(18).toString("base64url");

export interface OrderSpec {
  lines: { productId: number; quantity: number }[];
  /** A member's order is placed at once; a guest's waits for confirmation. */
  guest?: boolean;
  email?: string;
  country?: "US" | "GB";
  payment?: "pay-on-delivery" | "invoice-net30";
  now?: Date;
}

/** Places an order through the cart and checkout; returns its number and row id. */
export async function placeTestOrder(db: Db, spec: OrderSpec) {
  const invoice = spec.payment === "invoice-net30";
  // Net 30 is a trade company's credit: an invoice order's buyer belongs to one with net-30 terms.
  const userId = spec.guest
    ? null
    : invoice
      ? (await net30Buyer(db, { name: "Acme Tools Ltd", country: spec.country ?? "US" })).userId
      : `user-${randomBytes(6).toString("hex")}`;
  const owner = userId ? `u:${userId}` : `g:${randomBytes(18).toString("base64url")}`;
  for (const line of spec.lines) await addToCart(db, owner, line);
  const gb = spec.country === "GB";
  const checkout = checkoutSchema.parse({
    ...validCheckoutForm,
    email: spec.email ?? `buyer.${randomBytes(4).toString("hex")}@example.com`,
    checkoutToken: token(),
    ...(gb ? { country: "GB", city: "London", region: "", postcode: "SW1A 1AA" } : {}),
    ...(invoice ? { paymentMethod: "invoice-net30" } : {}),
  });
  const placed = await placeOrder(db, { owner, userId, checkout, siteUrl: SITE, now: spec.now });
  const row = await db
    .selectFrom("orders")
    .select(["id", "version", "status"])
    .where("number", "=", placed.number)
    .executeTakeFirstOrThrow();
  return {
    number: placed.number,
    id: row.id,
    version: Number(row.version),
    status: row.status,
    userId,
    accessToken: placed.accessToken,
    email: checkout.email,
  };
}

/** The rejection of `promise`, asserted to be a DomainError with this code and a 4xx status (this one when given). */
export async function domainError(promise: Promise<unknown>, code: string, status?: number): Promise<DomainError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected DomainError ${code}, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const d = error as DomainError;
  expect(d.code).toBe(code);
  expect(d.status).toBeGreaterThanOrEqual(400);
  expect(d.status).toBeLessThan(500);
  if (status) expect(d.status).toBe(status);
  expect(d.message.length).toBeGreaterThan(10);
  return d;
}

/** Counts of everything an order action writes, to prove a refused one wrote nothing. */
export async function footprint(db: Db, orderId: number) {
  const count = async (table: "order_events" | "order_returns" | "stock_movements", column: "order_id") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where(column, "=", orderId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const all = async (table: "audit_log" | "mail_queue") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const order = await db
    .selectFrom("orders")
    .select(["status", "version", "carrier", "tracking_number"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  return {
    order: { ...order, version: Number(order.version) },
    events: await count("order_events", "order_id"),
    returns: await count("order_returns", "order_id"),
    movements: await count("stock_movements", "order_id"),
    audit: await all("audit_log"),
    mails: await all("mail_queue"),
  };
}

export async function stockOf(db: Db, productId: number): Promise<number> {
  return Number(
    (await db.selectFrom("products").select("stock_quantity").where("id", "=", productId).executeTakeFirstOrThrow())
      .stock_quantity,
  );
}

export async function setStock(db: Db, productId: number, stock: number) {
  await db.updateTable("products").set({ stock_quantity: stock }).where("id", "=", productId).execute();
}
