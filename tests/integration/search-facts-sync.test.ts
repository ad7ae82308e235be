import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { moveStocks } from "../../server/inventory/stock.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

/** search_products follows each product's facts: the stock on its own (every order) and the rest. */
describe.each(dialects)("search facts follow the product on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    await seedCatalog(t.db, { products: 5 });
  }, 60_000);
  afterAll(() => t?.drop());

  const facts = (id: number) =>
    t.db.selectFrom("search_products").select(["stock_quantity", "sale_price_cents", "title", "category_id"]).where("product_id", "=", id).executeTakeFirstOrThrow();

  it("copies a stock change alone, and a change of price or title with the stock as it is", async () => {
    await t.db.updateTable("products").set({ stock_quantity: 4 }).where("id", "=", 2).execute();
    await t.db.transaction().execute((trx) => moveStocks(trx, [{ productId: 2, delta: -4, reason: "order" }]));
    const before = await facts(2);
    expect(before.stock_quantity).toBe(0);
    await t.db.updateTable("products").set({ sale_price_cents: 1234, title: "Renamed Test Hammer" }).where("id", "=", 2).execute();
    expect(await facts(2)).toEqual({ ...before, stock_quantity: 0, sale_price_cents: 1234, title: "Renamed Test Hammer" });
    await t.db.updateTable("products").set({ stock_quantity: 9, sale_price_cents: 999 }).where("id", "=", 2).execute();
    expect(await facts(2)).toMatchObject({ stock_quantity: 9, sale_price_cents: 999 });
  });
});
