/**
 * How SQLite runs the search's full-text statements. Each must let the FTS5 index find the matching
 * rows by itself; it must never receive product ids to look up one at a time. The suggestions'
 * statement once read `rowid IN (SELECT product_id FROM search_products)`. SQLite handed that list
 * to FTS5 as rowid look-ups, one MATCH per product on sale: 50 s for the prefix "ha" at 100,000
 * products, while the small test catalogs answered at once.
 */
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearSearchCaches, searchProducts } from "../../server/catalog/search.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import type { Db } from "../../server/db/connection.ts";
import { freshDb, type TestDb } from "./databases.ts";
import { seedSearchCatalog } from "./search-fixtures.ts";
import { recording } from "./statement-recorder.ts";

/** Plan lines in which FTS5 is given rowids to look up (`=` in its index string, e.g. "INDEX 192:=M4"). */
async function rowidLookupsIntoFts(db: Db, statement: CompiledQuery): Promise<string[]> {
  const plan = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]),
  );
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

/**
 * At 1,000,000 products the rows of search_products (93 MB, titles included) do not fit the page
 * cache, and looking up each match there was most of a broad search's time (decision 0023). A search
 * must look its matches up in the narrow match index instead, whenever that index holds the columns.
 */
describe("the match index on SQLite", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb("sqlite");
    await seedSearchCatalog(t.db);
    // The statistics of a 1,000,000-product catalog (as ANALYZE left them before migration 022
    // added the index), with which SQLite, left to choose, looked matches up by the primary key.
    await sql`DELETE FROM sqlite_stat1 WHERE tbl = 'search_products'`.execute(t.db);
    for (const [idx, stat] of [
      ["search_products_facets_idx", "1000000 66667 4445 3 1 1"],
      ["search_products_title_idx", "1000000 68"],
      ["search_products_price_idx", "1000000 86"],
      ["search_products_created_idx", "1000000 1"],
    ]) {
      await sql`INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('search_products', ${idx}, ${stat})`.execute(t.db);
    }
    await sql`ANALYZE sqlite_schema`.execute(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  const searches: [string, Parameters<typeof searchProducts>[1]][] = [
    ["a search by relevance", { q: "drill" }],
    [
      "a search of two words, in stock only, on sale only, in a price range",
      { q: "cordless drill", inStockOnly: true, onSaleOnly: true, minCents: 100, maxCents: 90000 },
    ],
    ["a search by price, in one brand", { q: "saw", sort: "price-asc", brands: ["forgecrest"] }],
    ["a search past the title matches' end", { q: "drill", page: 4, perPage: 5 }],
  ];
  it.each(searches)("%s reads search_products only through it", async (_label, query) => {
    const { db, compiled, reset } = recording(t.db);
    clearSearchCaches(t.db);
    reset();
    await searchProducts(db, query);
    const matches = compiled().filter((s) => /products_fts\s+MATCH/i.test(s.sql) && /search_products/.test(s.sql));
    expect(matches.length).toBeGreaterThan(0);
    for (const statement of matches) {
      const plan = await t.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]),
      );
      const lookups = plan.rows.map((r) => r.detail).filter((d) => /^(SEARCH|SCAN) s\b/.test(d));
      expect(lookups.length, statement.sql).toBeGreaterThan(0);
      for (const detail of lookups)
        expect(detail, statement.sql).toContain("USING COVERING INDEX search_products_match_idx");
    }
  });
});
