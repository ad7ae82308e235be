/**
 * PostgreSQL's lists of products per word (migration 024, decision 0024). The lists must follow
 * every change to search_products made by any process (here a second pool stands for the other
 * process): a search from them must find what the GIN index finds. Two oracles: the lists equal
 * the words of search_products' own vectors, pair by pair, and a search from the lists equals the
 * same search asked in SQL (a price filter that keeps every product, `minCents: 0`).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productEditSchema } from "../../app/lib/product-schema.ts";
import { loadProductForEdit, setArchived, setCategory } from "../../server/catalog/admin-products.ts";
import { updateProduct } from "../../server/catalog/product-form.ts";
import { currentCellMap } from "../../server/catalog/search-cells.ts";
import { forEachId, postingsPage } from "../../server/catalog/search-postings.ts";
import { queryTerms } from "../../server/catalog/search-text.ts";
import { forgetVocabulary, resolveTerms } from "../../server/catalog/search-vocabulary.ts";
import { matchingProductIds, searchProducts } from "../../server/catalog/search.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { createDb, type Db } from "../../server/db/connection.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { freshDb, pgUrl, type TestDb } from "./databases.ts";

const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "admin" };

describe("forEachId", () => {
  const ids = (list: string) => {
    const out: number[] = [];
    forEachId(list, (id) => out.push(id));
    return out;
  };
  it("reads the first id, the distances after it in base 32, and a new run after '~'", () => {
    expect(ids("QU@3Q8~QW22")).toEqual([1200, 1203, 1243, 1250, 1252]);
    expect(ids("7")).toEqual([7]);
    expect(ids("")).toEqual([]);
    expect(ids("~5~1")).toEqual([5, 1]);
    expect(ids("QoooooO~O")).toEqual([2 ** 31 - 1, 31]);
  });
});

describe.skipIf(!pgUrl)("search from the lists of products per word, on PostgreSQL with two processes", () => {
  let test: TestDb;
  let shop: Db;
  let office: Db;
  beforeAll(async () => {
    test = await freshDb("postgres");
    shop = test.db;
    await seedCatalog(shop, { products: 120 });
    office = createDb({ kind: "postgres", url: test.url, poolSize: 2 });
  }, 120_000);
  afterAll(async () => {
    await office?.destroy();
    await test?.drop();
  });

  /** Pairs (word, in title, product) in the lists and not in the vectors, and the other way round. */
  const strays = async () => {
    const { rows } = await sql<{ n: number }>`
      WITH listed AS (SELECT p.word, p.in_title, id FROM search_postings p CROSS JOIN LATERAL search_posting_ids(p.ids) id),
           indexed AS (SELECT w.word, w.in_title, s.product_id AS id FROM search_products s CROSS JOIN LATERAL search_posting_words(s.document, s.head) w)
      SELECT (SELECT count(*) FROM (SELECT * FROM listed EXCEPT ALL SELECT * FROM indexed) a)
           + (SELECT count(*) FROM (SELECT * FROM indexed EXCEPT ALL SELECT * FROM listed) b) AS n`.execute(shop);
    return Number(rows[0].n);
  };

  /** The search from the lists (which must answer), checked against the same search in SQL. */
  const searched = async (q: string, extra: { page?: number; categories?: string[] } = {}) => {
    const terms = await resolveTerms(shop, queryTerms(q));
    const names = { brands: [], categories: [] };
    expect(await postingsPage(shop, terms, names, { categoryIds: [], brandIds: [] }, 0, 5)).not.toBeNull();
    const fromLists = await searchProducts(shop, { q, ...extra });
    const inSql = await searchProducts(shop, { q, minCents: 0, ...extra });
    expect(fromLists.items.map((i) => i.id)).toEqual(inSql.items.map((i) => i.id));
    expect(fromLists.facets).toEqual(inSql.facets);
    expect(fromLists.total).toBe(inSql.total);
    return fromLists;
  };

  it("writes numbers as it and the search read them", async () => {
    const numbers = [0, 1, 31, 32, 1023, 1024, 32767, 32768, 1048575, 2 ** 31 - 1];
    const { rows } = await sql<{ list: string }>`
      SELECT string_agg(search_posting_code(n), '~' ORDER BY i) AS list FROM unnest(${numbers}::integer[]) WITH ORDINALITY u(n, i)`.execute(
      shop,
    );
    const read: number[] = [];
    forEachId(rows[0].list, (id) => read.push(id));
    expect(read).toEqual(numbers);
    const back = await sql<{
      ids: number[];
    }>`SELECT array_agg(id ORDER BY id) AS ids FROM search_posting_ids(${rows[0].list}) id`.execute(shop);
    expect(back.rows[0].ids).toEqual(numbers);
  });

  it("holds every word of every product, and searches as SQL does, on every page and under a category", async () => {
    expect(await strays()).toBe(0);
    const drill = await searched("drill");
    expect(drill.total).toBeGreaterThan(3);
    await searched("drill", { page: 2 });
    await searched("cordless drill");
    await searched("dril"); // a typo: its corrections
    const category = drill.facets.categories[0].slug;
    await searched("drill", { categories: [category] });
  });

  it("follows archiving, bringing back, a new title, a new category and a renamed brand made elsewhere", async () => {
    const first = await searched("drill");
    const [a, b] = first.items.map((i) => i.id);

    await setArchived(office, staff, [a], true);
    expect((await searched("drill")).total).toBe(first.total - 1);
    expect(await strays()).toBe(0);
    await setArchived(office, staff, [a], false);
    expect((await searched("drill")).total).toBe(first.total);

    await office.updateTable("products").set({ title: "Quillon Cordless Drill Driver" }).where("id", "=", b).execute();
    forgetVocabulary(shop); // a new word (the map of cells is left to follow on its own)
    expect((await searched("quillon")).items.map((i) => i.id)).toEqual([b]);
    expect(await strays()).toBe(0);

    const categories = await office.selectFrom("categories").select(["id", "slug"]).execute();
    const elsewhere = categories.find((c) => c.id !== first.items.find((i) => i.id === b)!.categoryId)!;
    await setCategory(office, staff, [b], elsewhere.slug);
    expect((await searched("drill")).facets.categories.find((c) => c.slug === elsewhere.slug)?.count).toBeGreaterThan(
      0,
    );
    expect(await strays()).toBe(0);

    const brand = await office.selectFrom("products").select("brand_id").where("id", "=", b).executeTakeFirstOrThrow();
    await office.updateTable("brands").set({ name: "Zephyrline" }).where("id", "=", brand.brand_id).execute();
    forgetVocabulary(shop); // a new word (the map of cells is left to follow on its own)
    const renamed = await searched("zephyrline");
    expect(renamed.items.map((i) => i.id)).toContain(b);
    expect(await strays()).toBe(0);
  });

  it("finds a product whose id is in a later block of 4,096 ids", async () => {
    await sql`
      INSERT INTO products (id, slug, sku, title, description, features, price_cents, discount_percent, sale_price_cents, colors,
                            stock_quantity, brand_id, category_id, model, material, weight_grams, country_of_origin, manufacturer,
                            return_policy, image_count, rating, featured, created_at)
      SELECT 200000, 'farcaster-drill', 'FAR-200000', 'Farcaster Hammer Drill', description, features, price_cents, discount_percent,
             sale_price_cents, colors, stock_quantity, brand_id, category_id, model, material, weight_grams, country_of_origin,
             manufacturer, return_policy, image_count, rating, featured, created_at
      FROM products WHERE id = 1`.execute(office);
    forgetVocabulary(shop); // a new word (the map of cells is left to follow on its own)
    expect((await searched("farcaster")).items.map((i) => i.id)).toEqual([200000]);
    expect((await searched("drill")).items.length).toBeGreaterThan(0);
    // With ids up to 200,000, a few candidates from several words (a typo's corrections) are sorted, not walked.
    await searched("dril");
    await searched("cordless dril");
    await searched("drill farcaster");
    expect(await strays()).toBe(0);
  });

  const wordsVersion = async () =>
    Number((await sql<{ v: number }>`SELECT words_version AS v FROM search_cells_version`.execute(shop)).rows[0].v);

  it("keeps the lists it has read while the words version holds, reads them again once it moves, and drops them when it goes back", async () => {
    const hammer = await resolveTerms(shop, ["hammer"]);
    const words = hammer[0].matchWords;
    const page = () =>
      postingsPage(shop, hammer, { brands: [], categories: [] }, { categoryIds: [], brandIds: [] }, 0, 100);
    const setVersion = (v: number) => sql`UPDATE search_cells_version SET words_version = ${v}`.execute(office);
    const start = await wordsVersion();
    const before = (await page())!;
    expect(before.ids.length).toBeGreaterThan(0);
    // Emptied behind the triggers' back, the lists this process read still answer: they were kept.
    const stored = (
      await sql<{ word: string; in_title: boolean; block: number; ids: string }>`
        SELECT word, in_title, block, ids FROM search_postings WHERE word = ANY(${words}::text[])`.execute(office)
    ).rows;
    await sql`UPDATE search_postings SET ids = '' WHERE word = ANY(${words}::text[])`.execute(office);
    expect((await page())!.ids).toEqual(before.ids);
    // The version moves: the emptied lists are read.
    await setVersion(start + 1);
    expect((await page())!.ids).toEqual([]);
    // It goes back (a database restored from a backup), the lists change, and it climbs back to the
    // number whose (empty) lists were kept: those are not served again.
    await setVersion(start - 1);
    expect((await page())!.ids).toEqual([]);
    for (const row of stored) {
      await sql`UPDATE search_postings SET ids = ${row.ids} WHERE word = ${row.word} AND in_title = ${row.in_title} AND block = ${row.block}`.execute(
        office,
      );
    }
    await setVersion(start + 1);
    expect((await page())!.ids).toEqual(before.ids);
    expect(await strays()).toBe(0);
  });

  it("sees a word given to a product elsewhere, after searching for it", async () => {
    const before = await searched("hammer drill");
    const matching = await matchingProductIds(shop, "hammer drill");
    if (!matching || matching === "none") throw new Error("no match set for the query");
    const { rows } = await sql<{
      id: number;
    }>`SELECT id FROM products WHERE id NOT IN (${matching}) ORDER BY id LIMIT 1`.execute(shop);
    const outsider = rows[0];
    const version = await wordsVersion();
    await office
      .updateTable("products")
      .set({ title: "Quillon Hammer Drill Pro" })
      .where("id", "=", outsider.id)
      .execute();
    expect(await wordsVersion()).toBeGreaterThan(version);
    const after = await searched("hammer drill");
    expect(after.total).toBe(before.total + 1);
  });

  it("an edit and an archive at the same time, sharing words, both finish", async () => {
    const drill = await searched("drill");
    const [a, b] = drill.items.map((i) => i.id);
    // The back office's edit: the product's row (whose triggers write the lists and the version's
    // row), then the vocabulary's rows. Archiving takes them in the same order; a deadlock that is
    // left (lists' rows locked in another order) is run again, never shown.
    const edit = async (title: string) => {
      const opened = (await loadProductForEdit(office, staff, a))!;
      await updateProduct(office, staff, a, productEditSchema.parse({ ...opened.fields, title }), opened.version);
    };
    for (let round = 0; round < 12; round++) {
      // Both change how many products have "drill": the same row of the vocabulary.
      const results = await Promise.allSettled([
        edit(round % 2 === 0 ? "Quillon Driver" : "Quillon Drill Driver"),
        setArchived(shop, staff, [b], round % 2 === 0),
      ]);
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok"]);
    }
    expect(await strays()).toBe(0);
  });

  it("a price and stock change, which orders make, changes neither the lists nor the map, nor their versions", async () => {
    const map = await currentCellMap(shop);
    const lists = await sql`SELECT word, in_title, block, ids FROM search_postings ORDER BY 1, 2, 3`.execute(shop);
    const version = await wordsVersion();
    await office
      .updateTable("products")
      .set({ sale_price_cents: 4321, stock_quantity: 0 })
      .where("id", "=", 1)
      .execute();
    expect(await currentCellMap(shop)).toBe(map);
    expect(await wordsVersion()).toBe(version);
    expect(
      (await sql`SELECT word, in_title, block, ids FROM search_postings ORDER BY 1, 2, 3`.execute(shop)).rows,
    ).toEqual(lists.rows);
  });

  it("is emptied with search_products", async () => {
    await sql`TRUNCATE search_products`.execute(office);
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM search_postings`.execute(shop)).rows[0].n).toBe(0);
  });
});
