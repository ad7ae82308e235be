import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bumpCatalogVersion,
  CATALOG_VERSION_STRIPES,
  committedCatalogVersion,
  readCatalogVersion,
} from "../../server/catalog/version.ts";
import { createDb, type Db } from "../../server/db/connection.ts";
import { moveStocks } from "../../server/inventory/stock.ts";
import { dialects, freshDb, freshSeededDb, migrateAll, type TestDb } from "./databases.ts";

describe.each(dialects)("the catalog version (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 40);
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
    await t.db.transaction().execute((trx) =>
      moveStocks(trx, [
        { productId: 3, delta: 1, reason: "adjustment" },
        { productId: 20, delta: 1, reason: "adjustment" },
      ]),
    );
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await moveStocks(trx, [{ productId: 5, delta: 1, reason: "adjustment" }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
  });

  it("moves when only an earlier move of several succeeds, and not when none does", async () => {
    await t.db.updateTable("products").set({ stock_quantity: 1 }).where("id", "in", [7, 30]).execute();
    const before = await readCatalogVersion(t.db);
    const results = await t.db.transaction().execute((trx) =>
      moveStocks(trx, [
        { productId: 30, delta: -2, reason: "order" },
        { productId: 7, delta: -1, reason: "order" },
      ]),
    );
    expect(results.map((r) => r && [r.stockBefore, r.stockAfter])).toEqual([null, [1, 0]]);
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
    const none = await t.db.transaction().execute((trx) =>
      moveStocks(trx, [
        { productId: 7, delta: -1, reason: "order" },
        { productId: 30, delta: -2, reason: "order" },
      ]),
    );
    expect(none).toEqual([null, null]);
    expect(await readCatalogVersion(t.db)).toBe(before + 1);
  });

  it("writes the ledger row with the stock before and after, who and why", async () => {
    await t.db.updateTable("products").set({ stock_quantity: 5 }).where("id", "=", 11).execute();
    const [moved] = await t.db.transaction().execute((trx) =>
      moveStocks(trx, [{ productId: 11, delta: -3, reason: "damaged", actor: "staff:s1", note: "x".repeat(600) }], {
        now: new Date("2026-11-26T12:00:00Z"),
      }),
    );
    const row = await t.db
      .selectFrom("stock_movements")
      .selectAll()
      .where("id", "=", moved!.movementId)
      .executeTakeFirstOrThrow();
    expect({ ...row, id: undefined }).toEqual({
      id: undefined,
      product_id: 11,
      delta: -3,
      stock_before: 5,
      stock_after: 2,
      reason: "damaged",
      order_id: null,
      actor: "staff:s1",
      note: "x".repeat(500),
      created_at: "2026-11-26T12:00:00.000Z",
    });
    expect(moved).toMatchObject({ stockBefore: 5, stockAfter: 2 });
    await expect(
      t.db.transaction().execute((trx) =>
        moveStocks(trx, [
          { productId: 11, delta: 1, reason: "order" },
          { productId: 12, delta: 0, reason: "order" },
        ]),
      ),
    ).rejects.toThrow(RangeError);
    expect(
      (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", 11).executeTakeFirstOrThrow())
        .stock_quantity,
    ).toBe(2);
  });
});

describe("the catalog version of a SQLite file, read beside the connection (server/db/committed-read.ts)", () => {
  let dir: string;
  let db: Db;
  let other: Db;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "committed-read-"));
    db = createDb({ kind: "sqlite", sqlitePath: path.join(dir, "store.db") });
    await migrateAll(db);
    other = createDb({ kind: "sqlite", sqlitePath: path.join(dir, "store.db") });
  }, 60_000);
  afterAll(async () => {
    await other?.destroy();
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is read at once, without the handle's queue, and sees every commit of this connection and of another", async () => {
    const before = committedCatalogVersion(db)!;
    expect(before).toEqual(expect.any(Number));
    expect(await readCatalogVersion(db)).toBe(before);
    await bumpCatalogVersion(db, 3);
    expect(committedCatalogVersion(db)).toBe(before + 1);
    await bumpCatalogVersion(other, 4);
    expect(committedCatalogVersion(db)).toBe(before + 2);
    expect(await readCatalogVersion(other)).toBe(before + 2);
  });

  it("never sees a change a transaction has not committed, and sees it once it has", async () => {
    const before = committedCatalogVersion(db)!;
    await db.transaction().execute(async (trx) => {
      await bumpCatalogVersion(trx, 5);
      // Inside the transaction its own reads see the bump; the committed read does not (and does
      // not wait for the transaction, which holds the only connection).
      expect(await readCatalogVersion(trx)).toBe(before + 1);
      expect(committedCatalogVersion(trx)).toBeUndefined();
      expect(committedCatalogVersion(db)).toBe(before);
    });
    expect(committedCatalogVersion(db)).toBe(before + 1);
    await expect(
      db.transaction().execute(async (trx) => {
        await bumpCatalogVersion(trx, 6);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(committedCatalogVersion(db)).toBe(before + 1);
  });

  it("is not there for an in-memory database, whose data no second connection sees", async () => {
    const memory = await freshDb("sqlite");
    expect(committedCatalogVersion(memory.db)).toBeUndefined();
    await bumpCatalogVersion(memory.db);
    expect(await readCatalogVersion(memory.db)).toBeGreaterThan(0);
    await memory.drop();
  });
});
