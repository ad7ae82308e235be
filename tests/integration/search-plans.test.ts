/**
 * How SQLite runs the search's full-text statements. Each must let the FTS5 index find the matching
 * rows by itself; it must never receive product ids to look up one at a time. The suggestions'
 * statement once read `rowid IN (SELECT product_id FROM search_products)`. SQLite handed that list
 * to FTS5 as rowid look-ups, one MATCH per product on sale: 50 s for the prefix "ha" at 100,000
 * products, while the small test catalogs answered at once.
 */
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearSearchCaches, searchProducts, suggestSearch } from "../../server/catalog/search.ts";
import type { Db } from "../../server/db/connection.ts";
import { freshDb, type TestDb } from "./databases.ts";
import { seedSearchCatalog } from "./search-fixtures.ts";
import { recording } from "./statement-recorder.ts";

/** Plan lines in which FTS5 is given rowids to look up (`=` in its index string, e.g. "INDEX 192:=M4"). */
async function rowidLookupsIntoFts(db: Db, statement: CompiledQuery): Promise<string[]> {
  const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]));
  return plan.rows.map((r) => r.detail).filter((detail) => /VIRTUAL TABLE INDEX \d+:\S*=/.test(detail));
}

describe("full-text statements on SQLite", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb("sqlite");
    await seedSearchCatalog(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  const cases: [string, (db: Db) => Promise<unknown>][] = [
    ["suggestions for a two-letter prefix", (db) => suggestSearch(db, "ha")],
    ["suggestions for a word and a prefix", (db) => suggestSearch(db, "cordless dr")],
    ["suggestions for a typo", (db) => suggestSearch(db, "hamer")],
    ["a search", (db) => searchProducts(db, { q: "drill" })],
    ["a search of two words with a typo", (db) => searchProducts(db, { q: "cordless dril" })],
  ];
  it.each(cases)("%s: FTS5 finds the rows itself", async (_label, run) => {
    const { db, compiled, reset } = recording(t.db);
    clearSearchCaches(t.db);
    reset();
    await run(db);
    const fullText = compiled().filter((s) => /products_fts\s+MATCH|products_fts\s+f\b/i.test(s.sql));
    expect(fullText.length).toBeGreaterThan(0);
    for (const statement of fullText) expect(await rowidLookupsIntoFts(t.db, statement), statement.sql).toEqual([]);
  });
});
