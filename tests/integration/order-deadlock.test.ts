import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema, type CheckoutInput } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { DomainError } from "../../server/errors.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const SITE = "https://shop.example";
const member = () => `user-${randomBytes(6).toString("hex")}`;

function checkout(): CheckoutInput {
  return checkoutSchema.parse({
    ...validCheckoutForm,
    email: `buyer.${randomBytes(4).toString("hex")}@example.com`,
    checkoutToken: randomBytes(18).toString("base64url"),
  });
}

/**
 * Issue 17, item 1: carts holding the same products in opposite orders used to lock the product
 * rows in cart order, so two checkouts could each hold one row and wait for the other's: on
 * PostgreSQL one of them died with a deadlock (40P01) and the shopper got a 500.
 */
describe.each(dialects)("concurrent checkouts of the same products in opposite orders on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const stockOf = async (ids: number[]) =>
    Object.fromEntries(
      (await t.db.selectFrom("products").select(["id", "stock_quantity"]).where("id", "in", ids).execute()).map((r) => [
        r.id,
        r.stock_quantity,
      ]),
    );

  async function race(ids: number[], stock: number, orders: number) {
    await t.db.updateTable("products").set({ stock_quantity: stock }).where("id", "in", ids).execute();
    const buyers = Array.from({ length: orders }, member);
    for (const [i, uid] of buyers.entries()) {
      // Half the carts hold the products in ascending order, half in descending order.
      const order = i % 2 === 0 ? ids : [...ids].reverse();
      for (const productId of order) {
        await addToCart(t.db, `u:${uid}`, { productId, quantity: 1 });
        await new Promise((r) => setTimeout(r, 2)); // distinct created_at, so the cart order is the insertion order
      }
    }
    const before = await stockOf(ids);
    const results = await Promise.allSettled(
      buyers.map((uid) => placeOrder(t.db, { owner: `u:${uid}`, userId: uid, checkout: checkout(), siteUrl: SITE })),
    );
    const failures = results
      .filter((r): r is PromiseRejectedResult => r.status === "rejected")
      .map((r) => r.reason as unknown);
    const unexpected = failures.filter(
      (e) => !(e instanceof DomainError && e.code === "OUT_OF_STOCK" && e.status === 409),
    );
    const after = await stockOf(ids);
    const sold = await t.db
      .selectFrom("order_lines")
      .select(["product_id", (eb) => eb.fn.sum<number>("quantity").as("n")])
      .where("product_id", "in", ids)
      .groupBy("product_id")
      .execute();
    // The ledger agrees: one 'order' row per order line, and its deltas add up to the units sold.
    const ledger = await t.db
      .selectFrom("stock_movements")
      .select(["product_id", (eb) => eb.fn.sum<number>("delta").as("n"), (eb) => eb.fn.countAll<number>().as("rows")])
      .where("product_id", "in", ids)
      .where("reason", "=", "order")
      .groupBy("product_id")
      .execute();
    for (const row of ledger) {
      const units = Number(sold.find((s) => s.product_id === row.product_id)?.n ?? 0);
      expect(-Number(row.n)).toBe(units);
      expect(Number(row.rows)).toBe(units); // every cart line held one unit
    }
    return {
      results,
      unexpected,
      before,
      after,
      sold: Object.fromEntries(sold.map((r) => [r.product_id, Number(r.n)])),
    };
  }

  it("30 concurrent orders with plenty of stock: all placed, no deadlock, sold units = stock taken", async () => {
    const ids = [1, 2, 3, 4];
    const { results, unexpected, before, after, sold } = await race(ids, 500, 30);
    expect(unexpected.map(String)).toEqual([]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(30);
    for (const id of ids) {
      expect(after[id]).toBeGreaterThanOrEqual(0);
      expect(before[id] - after[id]).toBe(sold[id]);
      expect(sold[id]).toBe(30);
    }
  });

  it("30 concurrent orders for 10 units: only clear out-of-stock refusals, never negative stock", async () => {
    const ids = [5, 6, 7];
    const { results, unexpected, after, sold } = await race(ids, 10, 30);
    expect(unexpected.map(String)).toEqual([]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    for (const id of ids) {
      expect(after[id]).toBe(0);
      expect(sold[id]).toBe(10);
    }
  });
});
