/**
 * SQLite's facet counts from each process's map of products to cells (decision 0023). The map must
 * follow every change that moves a product between cells or in or out of the shop, made by any
 * process: here a second connection to the same file stands for the other process. The oracle is
 * the same search with a price filter that keeps every product (`minCents: 0`), which counts in SQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setArchived, setCategory } from "../../server/catalog/admin-products.ts";
import { countCells, currentCellMap } from "../../server/catalog/search-cells.ts";
import { searchProducts } from "../../server/catalog/search.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { createDb, type Db } from "../../server/db/connection.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { migrateAll } from "./databases.ts";

const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "admin" };

describe("countCells", () => {
  const map = {
    version: 1,
    cellOf: Int32Array.from([0, 1, 2, 1, 0]),
    cells: [
      { category_id: 7, brand_id: 3 },
      { category_id: 8, brand_id: 3 },
    ],
  };
  it("counts the ids group_concat writes, leaving out products not on sale and ids past the map", () => {
    expect(countCells(map, "1,2,3,4,5,17")).toEqual([
      { category_id: 7, brand_id: 3, n: 2 },
      { category_id: 8, brand_id: 3, n: 1 },
    ]);
    expect(countCells(map, "2")).toEqual([{ category_id: 8, brand_id: 3, n: 1 }]);
    expect(countCells(map, "")).toEqual([]);
  });
});

describe("facet counts from the cell map, on SQLite with two processes", () => {
  let dir: string;
  let shop: Db;
  let office: Db;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "search-cells-"));
    const file = path.join(dir, "store.db");
    shop = createDb({ kind: "sqlite", sqlitePath: file });
    await migrateAll(shop);
    await seedCatalog(shop, { products: 120 });
    office = createDb({ kind: "sqlite", sqlitePath: file });
  }, 120_000);
  afterAll(async () => {
    await office?.destroy();
    await shop?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const counted = async (q: string) => {
    const fromMap = await searchProducts(shop, { q });
    const inSql = await searchProducts(shop, { q, minCents: 0 });
    expect(fromMap.facets).toEqual(inSql.facets);
    expect(fromMap.total).toBe(inSql.total);
    return fromMap;
  };
  const count = (facets: { slug: string; count: number }[], slug: string) => facets.find((f) => f.slug === slug)?.count;

  it("uses the map, and follows archiving, bringing back, a new category and a new brand made elsewhere", async () => {
    const first = await counted("drill");
    expect(first.total).toBeGreaterThan(3);
    expect(await currentCellMap(shop)).not.toBeNull();
    const [a, b] = first.items.map((i) => i.id);
    const categoryOf = (id: number) => first.items.find((i) => i.id === id)!.categoryId;

    await setArchived(office, staff, [a], true);
    const archived = await counted("drill");
    expect(archived.total).toBe(first.total - 1);

    await setArchived(office, staff, [a], false);
    expect((await counted("drill")).total).toBe(first.total);

    const categories = await office.selectFrom("categories").select(["id", "slug"]).execute();
    const elsewhere = categories.find((c) => c.id !== categoryOf(b))!;
    const before = count(first.facets.categories, elsewhere.slug) ?? 0;
    await setCategory(office, staff, [b], elsewhere.slug);
    const moved = await counted("drill");
    expect(count(moved.facets.categories, elsewhere.slug)).toBe(before + 1);
    expect(moved.total).toBe(first.total);

    const brand = await office
      .insertInto("brands")
      .values({ name: "Cellwright", slug: "cellwright", position: 99 })
      .returning("id")
      .executeTakeFirstOrThrow();
    await office.updateTable("products").set({ brand_id: brand.id }).where("id", "=", b).execute();
    const rebranded = await searchProducts(shop, { q: "drill" });
    const inSql = await searchProducts(shop, { q: "drill", minCents: 0 });
    expect(rebranded.facets).toEqual(inSql.facets);
    // A new brand shows once the shop's list of brands is read again; the cell moved at once.
    const cells = countCells((await currentCellMap(shop))!, String(b));
    expect(cells).toEqual([{ category_id: elsewhere.id, brand_id: brand.id, n: 1 }]);
  });

  it("a price change, which every order's stock change resembles, keeps the map", async () => {
    const map = await currentCellMap(shop);
    await office
      .updateTable("products")
      .set({ sale_price_cents: 4321, stock_quantity: 0 })
      .where("id", "=", 1)
      .execute();
    expect(await currentCellMap(shop)).toBe(map);
  });
});
