import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { BRANDS, CATEGORIES } from "../../server/db/seed/catalog-data.ts";
import { generateProduct } from "../../server/db/seed/generate.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";

async function count(db: Db, table: "categories" | "brands" | "products"): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("seedCatalog on in-memory SQLite", () => {
  let db: Db;

  beforeAll(async () => {
    db = createDb({ kind: "sqlite", sqlitePath: ":memory:" });
    await migrateToLatest(db);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it("seeds 15 categories, 15 brands and 600 products", async () => {
    const progress: number[] = [];
    const result = await seedCatalog(db, { products: 600, onProgress: (done) => progress.push(done) });
    expect(result).toEqual({ inserted: 600 });
    expect(progress.at(-1)).toBe(600);
    expect(await count(db, "categories")).toBe(15);
    expect(await count(db, "brands")).toBe(15);
    expect(await count(db, "products")).toBe(600);

    const categories = await db.selectFrom("categories").selectAll().orderBy("position").execute();
    expect(categories.map((c) => c.slug)).toEqual(CATEGORIES.map((c) => c.slug));
    expect(categories.map((c) => c.position)).toEqual(CATEGORIES.map((_, i) => i));
    const brands = await db.selectFrom("brands").selectAll().orderBy("position").execute();
    expect(brands.map((b) => b.name)).toEqual(BRANDS.map((b) => b.name));
  });

  it("stores rows exactly as generateProduct builds them", async () => {
    const categoryIds = (await db.selectFrom("categories").select("id").orderBy("position").execute()).map((r) => r.id);
    const brandIds = (await db.selectFrom("brands").select("id").orderBy("position").execute()).map((r) => r.id);
    const rows = await db.selectFrom("products").selectAll().orderBy("id").execute();
    for (const i of [0, 1, 299, 599]) {
      const { id, ...stored } = rows[i];
      expect(id).toBeGreaterThan(0);
      // The back office's columns (migrations 010 and 032) start at their defaults.
      expect(stored).toEqual({
        archived_at: null,
        low_stock_threshold: 5,
        vat_class: "standard",
        prop65: 0,
        ...generateProduct(i, { categoryIds, brandIds }),
      });
    }
    const usedCategories = new Set(rows.map((r) => r.category_id));
    const usedBrands = new Set(rows.map((r) => r.brand_id));
    expect(usedCategories.size).toBe(15);
    expect(usedBrands.size).toBe(15);
    expect(rows.filter((r) => r.featured === 1).map((r) => r.sku)).toEqual([
      "TH-0000001",
      "TH-0000002",
      "TH-0000003",
      "TH-0000004",
    ]);
  });

  it("is idempotent: a second run inserts nothing", async () => {
    const result = await seedCatalog(db, { products: 600 });
    expect(result).toEqual({ inserted: 0 });
    expect(await count(db, "categories")).toBe(15);
    expect(await count(db, "brands")).toBe(15);
    expect(await count(db, "products")).toBe(600);
  });

  it("resumes from the current count when the target is raised", async () => {
    const result = await seedCatalog(db, { products: 700 });
    expect(result).toEqual({ inserted: 100 });
    expect(await count(db, "products")).toBe(700);
    const skus = await db.selectFrom("products").select("sku").orderBy("id").execute();
    expect(new Set(skus.map((r) => r.sku)).size).toBe(700);
    expect(skus.at(-1)?.sku).toBe("TH-0000700");
  });

  it("does not shrink the catalog when asked for fewer products", async () => {
    const result = await seedCatalog(db, { products: 10 });
    expect(result).toEqual({ inserted: 0 });
    expect(await count(db, "products")).toBe(700);
  });
});
