import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchProducts } from "../../server/catalog/search.ts";
import { moveStocks } from "../../server/inventory/stock.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

/** search_products follows each product's facts: the stock on its own (every order) and the rest. */
describe.each(dialects)("search facts follow the product on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 5);
  }, 60_000);
  afterAll(() => t?.drop());

  const facts = (id: number) =>
    t.db
      .selectFrom("search_products")
      .select(["stock_quantity", "sale_price_cents", "title", "category_id"])
      .where("product_id", "=", id)
      .executeTakeFirstOrThrow();

  it("follows the product's stock across zero, and its price and title", async () => {
    await t.db.updateTable("products").set({ stock_quantity: 4 }).where("id", "=", 2).execute();
    const copied = (await facts(2)).stock_quantity;
    expect(copied).toBeGreaterThan(0);
    await t.db.transaction().execute((trx) => moveStocks(trx, [{ productId: 2, delta: -3, reason: "order" }]));
    // Still in stock: the search's copy is not written at all (migration 021), so it keeps its amount.
    expect((await facts(2)).stock_quantity).toBe(copied);
    await t.db.transaction().execute((trx) => moveStocks(trx, [{ productId: 2, delta: -1, reason: "order" }]));
    const before = await facts(2);
    expect(before.stock_quantity).toBe(0);
    await t.db
      .updateTable("products")
      .set({ sale_price_cents: 1234, title: "Renamed Test Hammer" })
      .where("id", "=", 2)
      .execute();
    expect(await facts(2)).toEqual({ ...before, sale_price_cents: 1234, title: "Renamed Test Hammer" });
    await t.db.transaction().execute((trx) => moveStocks(trx, [{ productId: 2, delta: 5, reason: "received" }]));
    expect((await facts(2)).stock_quantity).toBe(5);
    await t.db.updateTable("products").set({ stock_quantity: 0, sale_price_cents: 999 }).where("id", "=", 2).execute();
    expect(await facts(2)).toMatchObject({ stock_quantity: 0, sale_price_cents: 999 });
  });

  it("the in-stock filter of the search follows an order that sells the last unit", async () => {
    const product = await t.db
      .selectFrom("products")
      .select(["id", "title"])
      .where("id", "=", 3)
      .executeTakeFirstOrThrow();
    await t.db.updateTable("products").set({ stock_quantity: 1 }).where("id", "=", 3).execute();
    const word = product.title.split(/\s+/).find((w) => /^[a-z]{4,}$/i.test(w))!;
    const ids = async () => (await searchProducts(t.db, { q: word, inStockOnly: true })).items.map((i) => i.id);
    expect(await ids()).toContain(3);
    await t.db.transaction().execute((trx) => moveStocks(trx, [{ productId: 3, delta: -1, reason: "order" }]));
    expect(await ids()).not.toContain(3);
  });
});
