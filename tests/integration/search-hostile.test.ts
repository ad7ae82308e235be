import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchProducts } from "../../server/catalog/search.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import type { SearchResult } from "../../server/catalog/search-types.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { productCount, seedSearchCatalog } from "./search-fixtures.ts";

/** Text that breaks naive full-text and SQL code: FTS5 and tsquery syntax, quotes, control and bidi characters, SQL. */
export const HOSTILE_QUERIES: string[] = [
  `"`,
  `'`,
  `""`,
  `"drill`,
  `drill"`,
  `'drill'`,
  `*`,
  `dri*`,
  `^drill`,
  `-drill`,
  `+drill`,
  `drill:*`,
  `title:drill`,
  `{title}: drill`,
  `{title brand} : (drill OR saw)`,
  `NEAR(drill saw, 2)`,
  `drill AND`,
  `OR NOT AND`,
  `drill NOT saw`,
  `(`,
  `)`,
  `((drill)`,
  `drill & saw | !hammer <-> x`,
  `drill:A & saw:*B`,
  `!!!`,
  `\\`,
  `%`,
  `_`,
  `drill\u0000saw`,
  `\u0000`,
  `\u202Edrill\u202C`,
  `\u200Fhammer\u200E`,
  `\u2066saw\u2069`,
  `\uFEFFdrill`,
  `\uD800drill`,
  `drill\uDFFF`,
  `مثقاب`,
  `מקדחה`,
  `电钻`,
  `🔨 hammer 🔧`,
  `ＤＲＩＬＬ`,
  `Ｄｒｉｌｌ`,
  `a`.repeat(5000),
  `drill `.repeat(1000),
  `${"x".repeat(4999)}"`,
  `'; DROP TABLE products; --`,
  `1' OR '1'='1`,
  `1; DELETE FROM products WHERE 1=1`,
  `drill' UNION SELECT password FROM users --`,
  `$1`,
  `?`,
  `:q`,
  `%s%s%s%n`,
  `<script>alert(1)</script>`,
  `\n\t\r`,
  `   `,
  ``,
];

function expectSane(r: SearchResult) {
  expect(r.q.length).toBeLessThanOrEqual(200);
  expect(r.page).toBeGreaterThanOrEqual(1);
  expect(r.page).toBeLessThanOrEqual(r.pageCount);
  expect(r.items.length).toBeLessThanOrEqual(r.perPage);
  expect(r.total).toBeGreaterThanOrEqual(r.items.length);
  expect(r.q).not.toMatch(/[\u0000-\u001f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
  for (const item of r.items) expect(item.titleSegments.map((s) => s.text).join("")).toBe(item.title);
}

describe.each(dialects)("hostile search input on %s", (kind) => {
  let t: TestDb;
  let products: number;

  beforeAll(async () => {
    t = await freshDb(kind);
    await seedSearchCatalog(t.db);
    products = await productCount(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it.each(
    HOSTILE_QUERIES.map((q) => [JSON.stringify(q.length > 40 ? `${q.slice(0, 30)}… (${q.length} chars)` : q), q]),
  )("answers %s with a page", async (_label, q) => {
    for (const sort of [undefined, "relevance", "name"] as const) {
      const r = await searchProducts(t.db, { q, sort, page: 3 });
      expectSane(r);
    }
    const s = await suggestSearch(t.db, q);
    expect(Array.isArray(s.options)).toBe(true);
    expect(await productCount(t.db)).toBe(products);
  });

  it("still finds the real words inside hostile text", async () => {
    const plain = await searchProducts(t.db, { q: "drill" });
    for (const q of [`"drill`, `drill:*`, `(drill)`, `\u202Edrill\u202C`, `drill\u0000`, `ＤＲＩＬＬ`, `'drill'`]) {
      expect((await searchProducts(t.db, { q })).total, q).toBe(plain.total);
    }
  });

  it("caps a 5,000-character query at 200 characters", async () => {
    const r = await searchProducts(t.db, { q: `drill ${"x".repeat(4994)}` });
    expect(r.q.length).toBe(200);
  });

  it("survives extreme numbers in filters and pages", async () => {
    for (const query of [
      { minCents: Number.MAX_SAFE_INTEGER },
      { maxCents: 1e20, minCents: -5 },
      { minCents: Number.NaN, maxCents: Infinity },
      { page: Number.MAX_SAFE_INTEGER },
      { page: -1, perPage: 0 },
      { page: 2.5, perPage: 1e9 },
      { categories: ["'; DROP TABLE products; --"], brands: Array.from({ length: 500 }, (_, i) => `b${i}`) },
    ]) {
      expectSane(await searchProducts(t.db, { q: "saw", ...query }));
      expectSane(await searchProducts(t.db, query));
    }
    expect(await productCount(t.db)).toBe(products);
  });

  it("never throws on random query text (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 300 }),
          fc.string({ unit: "grapheme", maxLength: 60 }),
          fc
            .array(
              fc.constantFrom(
                "drill",
                "saw",
                "ham",
                "hamer",
                '"',
                "*",
                "(",
                ")",
                ":",
                "^",
                "-",
                "OR",
                "AND",
                "NOT",
                "NEAR",
                "{title}",
                "&",
                "|",
                "!",
                "'",
                ";",
                "\u0000",
                "\u202e",
                " ",
              ),
              { maxLength: 12 },
            )
            .map((a) => a.join(" ")),
        ),
        fc.constantFrom(undefined, "relevance", "price-asc", "name"),
        fc.integer({ min: -3, max: 50 }),
        async (q, sort, page) => {
          expectSane(await searchProducts(t.db, { q, sort, page }));
          await suggestSearch(t.db, q);
        },
      ),
      { numRuns: 150 },
    );
    expect(await productCount(t.db)).toBe(products);
  }, 120_000);
});
