import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchProducts } from "../../server/catalog/search.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import type { SearchQuery } from "../../server/catalog/search-types.ts";
import { freshDb, pgUrl, type TestDb } from "./databases.ts";
import { seedSearchCatalog } from "./search-fixtures.ts";

/** The same catalog on SQLite and PostgreSQL must give the same answers. */
const QUERIES: SearchQuery[] = [
  { q: "drill" },
  { q: "drills", page: 2 },
  { q: "cordless drill" },
  { q: "ham" },
  { q: "hamer" },
  { q: "dril" },
  { q: "Forgcrest drill" },
  { q: "Tidwell" },
  { q: "safety glasses" },
  { q: "batteries" },
  { q: "quokka" },
  { q: "hand saw", sort: "price-asc" },
  { q: "saw", sort: "name", page: 3 },
  { q: "saw", sort: "discount" },
  { q: "saw", sort: "newest" },
  { q: "saw", sort: "price-desc", categories: ["woodworking", "hand"] },
  { q: "drill", brands: ["forgecrest", "tidewell"], inStockOnly: true },
  { q: "drill", minCents: 5000, maxCents: 15000, onSaleOnly: true },
  { q: "xylophone" },
  // Stems like a stop word ("in"): SQLite indexes stop words, PostgreSQL does not.
  { q: "ins" },
  { q: "ons hammer" },
  { q: '"; DROP TABLE products; --' },
  // Where the two stemmers used to differ (issue 15): one-letter and two-letter words, doubled letters.
  { q: "u" },
  { q: "us" },
  { q: "use" },
  { q: "uses" },
  { q: "markkings" },
  { q: "assemble" },
  { q: "assembly" },
  { q: "x" },
  { categories: ["gardening"] },
  { brands: ["saltmere"], sort: "price-asc", page: 2 },
  { minCents: 1000, maxCents: 2000, sort: "name" },
  { sort: "discount", onSaleOnly: true, page: 4 },
  { page: 999 },
];

describe.skipIf(!pgUrl)("SQLite and PostgreSQL agree", () => {
  let lite: TestDb;
  let pg: TestDb;

  beforeAll(async () => {
    [lite, pg] = await Promise.all([freshDb("sqlite"), freshDb("postgres")]);
    await seedSearchCatalog(lite.db);
    await seedSearchCatalog(pg.db);
  }, 180_000);
  afterAll(async () => {
    await lite?.drop();
    await pg?.drop();
  });

  it.each(QUERIES.map((q) => [JSON.stringify(q), q]))("on %s", async (_label, query) => {
    const [a, b] = await Promise.all([searchProducts(lite.db, query), searchProducts(pg.db, query)]);
    expect(b).toEqual(a);
  });

  it("on suggestions", async () => {
    for (const q of [
      "ham",
      "dri",
      "forg",
      "power",
      "Tidwell",
      "cordless dr",
      "safety gla",
      "us",
      "use",
      "markkings",
      "assembly",
    ]) {
      const [a, b] = await Promise.all([suggestSearch(lite.db, q), suggestSearch(pg.db, q)]);
      expect(b, q).toEqual(a);
    }
  });

  it("on random words from the catalog and near misses (property)", async () => {
    const vocabulary = (await lite.db.selectFrom("search_terms").select("term").orderBy("term").execute()).map(
      (r) => r.term,
    );
    const word = fc.constantFrom(...vocabulary);
    const nearMiss = fc.tuple(word, fc.nat(), fc.constantFrom("drop", "swap", "double")).map(([w, n, how]) => {
      const i = n % w.length;
      if (how === "drop") return w.slice(0, i) + w.slice(i + 1);
      if (how === "double") return w.slice(0, i) + w[i] + w.slice(i);
      return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w;
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            word,
            nearMiss,
            word.map((w) => w.slice(0, 3)),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        async (parts) => {
          const q = parts.join(" ");
          const [a, b] = await Promise.all([searchProducts(lite.db, { q }), searchProducts(pg.db, { q })]);
          expect({ q, total: b.total, ids: b.items.map((i) => i.id), facets: b.facets }).toEqual({
            q,
            total: a.total,
            ids: a.items.map((i) => i.id),
            facets: a.facets,
          });
        },
      ),
      { numRuns: Number(process.env.SEARCH_PROPERTY_RUNS ?? 120) },
    );
  }, 180_000);
});
