import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpCatalogVersion, CATALOG_VERSION_STRIPES, readCatalogVersion } from "../../server/catalog/version.ts";
import { moveStocks } from "../../server/inventory/stock.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

describe.each(dialects)("the catalog version (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    await seedCatalog(t.db, { products: 40 });
  }, 60_000);
  afterAll(() => t?.drop());

  it("is the sum of its rows, and moves whichever row a change bumps", async () => {
    const rows = await t.db.selectFrom("catalog_version").select(["id", "version"]).orderBy("id").execute();
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: CATALOG_VERSION_STRIPES }, (_, i) => i + 1));
    let before = await readCatalogVersion(t.db);
    expect(before).toBe(rows.reduce((sum, r) => sum + Number(r.version), 0));
    for (let key = 0; key < CATALOG_VERSION_STRIPES * 2; key++) {
      await bumpCatalogVersion(t.db, key);
      const after = await readCatalogVersion(t.db);
      expect(after).toBe(before + 1);
      before = after;
    }
    await bumpCatalogVersion(t.db);
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
  });

  it("moves once for each committed stock change, and not for a rolled-back one", async () => {
    const before = await readCatalogVersion(t.db);
    await t.db.transaction().execute((trx) => moveStocks(trx, [{ productId: 3, delta: 1, reason: "adjustment" }, { productId: 20, delta: 1, reason: "adjustment" }]));
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await moveStocks(trx, [{ productId: 5, delta: 1, reason: "adjustment" }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
  });
});
