import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/connection.ts";
import { compiledOnce } from "../../server/db/compiled-once.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const titleAndStock = compiledOnce((db: Db, id: number) =>
  db.selectFrom("products").select(["id", "title", "stock_quantity"]).where("id", "=", id),
);

describe.each(dialects)("compiledOnce (%s)", (kind) => {
  let t: TestDb;
  let other: TestDb;
  beforeAll(async () => {
    [t, other] = [await freshDb(kind), await freshDb(kind)];
    await seedCatalog(t.db, { products: 12 });
    await seedCatalog(other.db, { products: 3 });
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
    await other?.drop();
  });

  const built = (db: Db, id: number) =>
    db.selectFrom("products").select(["id", "title", "stock_quantity"]).where("id", "=", id).execute();

  it("answers each call with its own value, as the query built afresh does", async () => {
    const ids = (await t.db.selectFrom("products").select("id").orderBy("id").execute()).map((r) => r.id);
    for (const id of [ids[3], ids[0], ids[11], ids[3]]) {
      const rows = await titleAndStock(t.db, id);
      expect(rows).toHaveLength(1);
      expect(rows).toEqual(await built(t.db, id));
    }
    expect(await titleAndStock(t.db, 999_999)).toEqual([]);
  });

  it("reads what is there now, in a transaction and on another database", async () => {
    const [first] = await t.db.selectFrom("products").select("id").orderBy("id").limit(1).execute();
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable("products").set({ stock_quantity: 4321 }).where("id", "=", first.id).execute();
      expect((await titleAndStock(trx, first.id))[0].stock_quantity).toBe(4321);
    });
    expect((await titleAndStock(t.db, first.id))[0].stock_quantity).toBe(4321);
    const [elsewhere] = await other.db.selectFrom("products").select(["id", "title"]).orderBy("id").limit(1).execute();
    expect((await titleAndStock(other.db, elsewhere.id))[0].title).toBe(elsewhere.title);
  });

  it("builds its query once per database, not once per transaction (an order's statements run in one)", async () => {
    let builds = 0;
    const counted = compiledOnce((db: Db, id: number) => {
      builds++;
      return db.selectFrom("products").select("title").where("id", "=", id);
    });
    const ids = (await t.db.selectFrom("products").select("id").orderBy("id").limit(3).execute()).map((r) => r.id);
    for (const id of ids)
      await t.db.transaction().execute(async (trx) => expect(await counted(trx, id)).toHaveLength(1));
    expect(await counted(t.db, ids[0])).toHaveLength(1);
    expect(builds).toBe(1);
    // Another database (its own adapter) builds its own.
    await counted(other.db, 1);
    expect(builds).toBe(2);
  });

  it("refuses a query whose parameters are not just its one value", async () => {
    const twoValues = compiledOnce((db: Db, id: number) =>
      db.selectFrom("products").select("id").where("id", "=", id).where("stock_quantity", ">", 0),
    );
    await expect(twoValues(t.db, 1)).rejects.toThrow(/only parameter is its value/);
    const valueIgnored = compiledOnce((db: Db, _id: number) =>
      db.selectFrom("products").select("id").where("id", "=", 1),
    );
    await expect(valueIgnored(t.db, 7)).rejects.toThrow(/only parameter is its value/);
    const noValue = compiledOnce((db: Db, _id: number) => db.selectFrom("products").select("id"));
    await expect(noValue(t.db, 7)).rejects.toThrow(/only parameter is its value/);
  });
});
