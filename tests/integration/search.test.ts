import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearSearchCaches, searchProducts } from "../../server/catalog/search.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import { porterStem, words } from "../../server/catalog/search-text.ts";
import { rebuildSearchVocabulary } from "../../server/catalog/search-vocabulary.ts";
import { listProducts } from "../../server/catalog/catalog.ts";
import type { SearchResult } from "../../server/catalog/search-types.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { allIds, productFacts, seedSearchCatalog, type Crafted, type ProductFacts } from "./search-fixtures.ts";

const marked = (segments: { text: string; match: boolean }[]) =>
  segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join("");
const hasStem = (text: string, stem: string) => words(text).some((w) => porterStem(w) === stem);

describe.each(dialects)("search on %s", (kind) => {
  let t: TestDb;
  let crafted: Crafted;
  let facts: ProductFacts[];
  const byId = (id: number) => facts.find((f) => f.id === id)!;

  beforeAll(async () => {
    t = await freshDb(kind);
    crafted = await seedSearchCatalog(t.db);
    facts = await productFacts(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  describe("ranking", () => {
    it("puts title matches first, then brand and category, then description", async () => {
      const r = await searchProducts(t.db, { q: "quokka" });
      expect(r.items.map((i) => i.id)).toEqual([
        crafted.titleId,
        crafted.markupId,
        crafted.brandId,
        crafted.categoryId,
        crafted.descriptionId,
      ]);
      expect(r.total).toBe(5);
      expect(r.sort).toBe("relevance");
    });
    it("ranks every title match of a common word above every description-only match", async () => {
      const { ids } = await allIds(t.db, { q: "drill" });
      expect(ids.length).toBeGreaterThan(30);
      const inTitle = ids.map((id) => hasStem(byId(id).title, "drill"));
      const firstNonTitle = inTitle.indexOf(false);
      expect(firstNonTitle).toBeGreaterThan(0);
      expect(inTitle.slice(firstNonTitle).every((x) => !x)).toBe(true);
      // Within a tier: lowest id first, so the order is the same on every database.
      const titleIds = ids.slice(0, firstNonTitle);
      expect(titleIds).toEqual([...titleIds].sort((a, b) => a - b));
    });
    it("scores each word on its own: title 4, brand or category name 2, description 1", async () => {
      // quokka + forgecrest: title+title 8 (two, lower id first), category+title 6, description+title 5.
      const r = await searchProducts(t.db, { q: "quokka forgecrest" });
      expect(r.items.map((i) => i.id)).toEqual([
        crafted.titleId,
        crafted.markupId,
        crafted.categoryId,
        crafted.descriptionId,
      ]);
      const brand = await searchProducts(t.db, { q: "screwdriver quokka" });
      expect(brand.items.map((i) => i.id)).toEqual([crafted.brandId]);
    });
    it("orders a category word and a title word by the summed score (brute force check)", async () => {
      // "power" is in the category name "Power Tools" and in some titles; "drill" in titles and descriptions.
      const { ids } = await allIds(t.db, { q: "power drill" });
      const inCategory = (f: ProductFacts) => f.category === "power-tools";
      const score = (f: ProductFacts) =>
        (hasStem(f.title, "power") ? 4 : inCategory(f) ? 2 : 1) + (hasStem(f.title, "drill") ? 4 : 1);
      const expected = facts
        .filter((f) => {
          const text = `${f.title} ${f.description}`;
          return (hasStem(text, "power") || inCategory(f)) && hasStem(text, "drill");
        })
        .sort((a, b) => score(b) - score(a) || a.id - b.id)
        .map((f) => f.id);
      expect(expected.length).toBeGreaterThan(5);
      expect(new Set(expected.map((id) => score(byId(id)))).size).toBeGreaterThan(2);
      expect(ids).toEqual(expected);
    });
    it("gives the same order in pages of any size, filtered too: pages wholly of title matches, the page where they end, and those after", async () => {
      const inCategory = (f: ProductFacts) => f.category === "power-tools";
      const score = (f: ProductFacts) =>
        (hasStem(f.title, "power") ? 4 : inCategory(f) ? 2 : 1) + (hasStem(f.title, "drill") ? 4 : 1);
      const expected = facts
        .filter(
          (f) =>
            f.stock_quantity > 0 &&
            (hasStem(`${f.title} ${f.description}`, "power") || inCategory(f)) &&
            hasStem(`${f.title} ${f.description}`, "drill"),
        )
        .sort((a, b) => score(b) - score(a) || a.id - b.id)
        .map((f) => f.id);
      // Two in stock with both words in the title: pages of 1 and the first page of 2 hold only them.
      expect(expected.filter((id) => score(byId(id)) === 8)).toHaveLength(2);
      expect(expected.length).toBeGreaterThan(6);
      for (const perPage of [1, 2, 5]) {
        const ids: number[] = [];
        for (let page = 1; ; page++) {
          const r = await searchProducts(t.db, { q: "power drill", inStockOnly: true, perPage, page });
          expect(r.total).toBe(expected.length);
          ids.push(...r.items.map((i) => i.id));
          if (page >= r.pageCount) break;
        }
        expect(ids).toEqual(expected);
      }
    });
    it("requires every word, and rewards words found in the title", async () => {
      const { ids } = await allIds(t.db, { q: "cordless drill" });
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        const f = byId(id);
        const text = `${f.title} ${f.description}`;
        expect(hasStem(text, "cordless") && hasStem(text, "drill")).toBe(true);
      }
      const both = (id: number) => hasStem(byId(id).title, "cordless") && hasStem(byId(id).title, "drill");
      const firstPartial = ids.findIndex((id) => !both(id));
      if (firstPartial >= 0) expect(ids.slice(firstPartial).some(both)).toBe(false);
    });
  });

  describe("stemming, prefixes and typos", () => {
    it("stems: “drills” finds what “drill” finds", async () => {
      const a = await allIds(t.db, { q: "drill" });
      const b = await allIds(t.db, { q: "drills" });
      const c = await allIds(t.db, { q: "drilling" });
      expect(b.ids).toEqual(a.ids);
      expect(c.ids).toEqual(a.ids);
      expect(b.first.didYouMean).toBeNull();
    });
    it("completes prefixes: “ham” finds hammers", async () => {
      const r = await allIds(t.db, { q: "ham" });
      const hammers = facts.filter((f) => hasStem(f.title, "hammer")).map((f) => f.id);
      expect(hammers.length).toBeGreaterThan(3);
      for (const id of hammers) expect(r.ids).toContain(id);
      expect(r.first.items[0].titleSegments.some((s) => s.match && /^ham/i.test(s.text))).toBe(true);
      expect(r.first.adjusted).toContainEqual(
        expect.objectContaining({ input: "ham", used: expect.arrayContaining(["hammer"]) }),
      );
      const sledge = await searchProducts(t.db, { q: "sledgeham" });
      expect(sledge.total).toBeGreaterThan(0);
      expect(sledge.items[0].title).toMatch(/sledgehammer/i);
    });
    it("forgives one typo: “hamer” finds hammers and suggests “hammer”", async () => {
      const typo = await allIds(t.db, { q: "hamer" });
      const right = await allIds(t.db, { q: "hammer" });
      for (const id of right.ids) expect(typo.ids).toContain(id);
      expect(typo.first.didYouMean).toBe("hammer");
    });
    it("forgives “dril” and a swapped pair of letters", async () => {
      const right = await allIds(t.db, { q: "drill" });
      for (const q of ["dril", "drlil"]) {
        const typo = await allIds(t.db, { q });
        for (const id of right.ids) expect(typo.ids).toContain(id);
        expect(typo.first.didYouMean).toBe("drill");
      }
    });
    it("finds a misspelt brand", async () => {
      const forgecrest = facts
        .filter((f) => f.brand === "forgecrest" || hasStem(f.title, "forgecrest"))
        .map((f) => f.id);
      for (const q of ["Forgcrest", "forgecrst", "Frogecrest"]) {
        const r = await allIds(t.db, { q });
        expect(r.ids.sort((a, b) => a - b)).toEqual([...forgecrest].sort((a, b) => a - b));
        expect(r.first.didYouMean).toBe("forgecrest");
      }
      const tidewell = await searchProducts(t.db, { q: "Tidwell" });
      expect(tidewell.total).toBeGreaterThan(0);
      expect(tidewell.items.every((i) => i.brandName === "Tidewell")).toBe(true);
    });
    it("does not “correct” words the catalog knows, nor numbers", async () => {
      expect((await searchProducts(t.db, { q: "saw" })).didYouMean).toBeNull();
      const volts = await searchProducts(t.db, { q: "14v" });
      expect(volts.adjusted.flatMap((a) => a.used)).not.toContain("18v");
    });
    it("finds nothing for a word far from every known word, and says so", async () => {
      const r = await searchProducts(t.db, { q: "xylophone" });
      expect(r.total).toBe(0);
      expect(r.items).toEqual([]);
      expect(r.page).toBe(1);
      expect(r.pageCount).toBe(1);
      expect(r.facets.categories.every((c) => c.count === 0)).toBe(true);
    });
  });

  describe("highlighting", () => {
    it("marks the matching words of each title", async () => {
      const r = await searchProducts(t.db, { q: "drills" });
      for (const item of r.items.filter((i) => hasStem(i.title, "drill"))) {
        expect(item.titleSegments.map((s) => s.text).join("")).toBe(item.title);
        expect(
          item.titleSegments.filter((s) => s.match).every((s) => words(s.text).some((w) => porterStem(w) === "drill")),
        ).toBe(true);
        expect(item.titleSegments.some((s) => s.match)).toBe(true);
      }
    });
    it("keeps markup in titles as text", async () => {
      const r = await searchProducts(t.db, { q: "quokka wombat" });
      expect(r.items.map((i) => i.id)).toEqual([crafted.markupId]);
      expect(marked(r.items[0].titleSegments)).toBe(
        `Forgecrest <b>[Quokka]</b> & "[Wombat]" Mallet <script>alert(1)</script>`,
      );
    });
    it("quotes the description when the title does not hold every word", async () => {
      const r = await searchProducts(t.db, { q: "quokka" });
      const desc = r.items.find((i) => i.id === crafted.descriptionId)!;
      expect(marked(desc.snippet!)).toContain("[quokka]");
      expect(r.items.find((i) => i.id === crafted.titleId)!.snippet).toBeNull();
    });
  });

  describe("filters and facet counts", () => {
    const expectFacetsMatch = (
      r: SearchResult,
      matching: ProductFacts[],
      selected: { categories?: string[]; brands?: string[] },
    ) => {
      for (const c of r.facets.categories) {
        const n = matching.filter(
          (f) => f.category === c.slug && (!selected.brands?.length || selected.brands.includes(f.brand)),
        ).length;
        expect({ slug: c.slug, count: c.count }).toEqual({ slug: c.slug, count: n });
      }
      for (const b of r.facets.brands) {
        const n = matching.filter(
          (f) => f.brand === b.slug && (!selected.categories?.length || selected.categories.includes(f.category)),
        ).length;
        expect({ slug: b.slug, count: b.count }).toEqual({ slug: b.slug, count: n });
      }
    };

    it("counts every category and brand for the query (brute force check)", async () => {
      const { ids, first } = await allIds(t.db, { q: "drill" });
      const matching = ids.map(byId);
      expectFacetsMatch(first, matching, {});
      expect(first.facets.categories.reduce((s, c) => s + c.count, 0)).toBe(first.total);
      expect(first.facets.brands.reduce((s, b) => s + b.count, 0)).toBe(first.total);
      expect(first.facets.categories.map((c) => c.slug).slice(0, 3)).toEqual(["power-tools", "hand", "automotive"]);
    });

    it("applies each filter and their combinations, counting other options as if chosen too", async () => {
      const { ids: base } = await allIds(t.db, { q: "drill" });
      const baseFacts = base.map(byId);
      const cases = [
        { categories: ["power-tools"] },
        { categories: ["power-tools", "construction"] },
        { brands: ["forgecrest", "tidewell"] },
        { minCents: 5000 },
        { maxCents: 3000 },
        { minCents: 2000, maxCents: 9000 },
        { inStockOnly: true },
        { onSaleOnly: true },
        {
          categories: ["power-tools"],
          brands: ["forgecrest", "saltmere"],
          minCents: 4000,
          inStockOnly: true,
          onSaleOnly: true,
        },
      ];
      for (const filters of cases) {
        const { ids, first } = await allIds(t.db, { q: "drill", ...filters });
        const common = (f: ProductFacts) =>
          (filters.minCents == null || f.sale_price_cents >= filters.minCents) &&
          (filters.maxCents == null || f.sale_price_cents <= filters.maxCents) &&
          (!filters.inStockOnly || f.stock_quantity > 0) &&
          (!filters.onSaleOnly || f.discount_percent != null);
        const expected = baseFacts.filter(
          (f) =>
            common(f) &&
            (!filters.categories?.length || filters.categories.includes(f.category)) &&
            (!filters.brands?.length || filters.brands.includes(f.brand)),
        );
        expect(
          ids.sort((a, b) => a - b),
          JSON.stringify(filters),
        ).toEqual(expected.map((f) => f.id).sort((a, b) => a - b));
        expect(first.total).toBe(expected.length);
        expectFacetsMatch(first, baseFacts.filter(common), filters);
      }
    });

    it("filters the discounted price, inclusive at both ends", async () => {
      const sample = facts.find((f) => f.discount_percent != null)!;
      const r = await allIds(t.db, { minCents: sample.sale_price_cents, maxCents: sample.sale_price_cents });
      expect(r.ids).toContain(sample.id);
      for (const id of r.ids) expect(byId(id).sale_price_cents).toBe(sample.sale_price_cents);
    });

    it("browses without words, with the same counts", async () => {
      const r = await searchProducts(t.db, { categories: ["hand"], inStockOnly: true });
      const expected = facts.filter((f) => f.category === "hand" && f.stock_quantity > 0);
      expect(r.total).toBe(expected.length);
      expect(r.sort).toBe("newest");
      expectFacetsMatch(
        r,
        facts.filter((f) => f.stock_quantity > 0),
        { categories: ["hand"] },
      );
      const all = await searchProducts(t.db, {});
      expect(all.total).toBe(facts.length);
      expectFacetsMatch(all, facts, {});
    });

    it("ignores unknown slugs and swaps a reversed price range", async () => {
      const unknown = await searchProducts(t.db, { q: "drill", categories: ["no-such-thing"] });
      const plain = await searchProducts(t.db, { q: "drill" });
      expect(unknown.total).toBe(plain.total);
      const reversed = await searchProducts(t.db, { minCents: 9000, maxCents: 2000 });
      const straight = await searchProducts(t.db, { minCents: 2000, maxCents: 9000 });
      expect(reversed.total).toBe(straight.total);
    });
  });

  describe("sorting and pages", () => {
    it.each([
      ["price-asc", (a: ProductFacts, b: ProductFacts) => a.sale_price_cents - b.sale_price_cents || a.id - b.id],
      ["price-desc", (a: ProductFacts, b: ProductFacts) => b.sale_price_cents - a.sale_price_cents || a.id - b.id],
      [
        "newest",
        (a: ProductFacts, b: ProductFacts) =>
          a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id - b.id,
      ],
      [
        "discount",
        (a: ProductFacts, b: ProductFacts) => (b.discount_percent ?? 0) - (a.discount_percent ?? 0) || a.id - b.id,
      ],
      ["name", (a: ProductFacts, b: ProductFacts) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id)],
    ] as const)("sorts by %s, with and without words", async (sort, compare) => {
      for (const q of ["saw", ""]) {
        const { ids } = await allIds(t.db, { q, sort });
        const expected = ids
          .map(byId)
          .sort(compare)
          .map((f) => f.id);
        expect(ids).toEqual(expected);
      }
    });

    it("pages by 15, and a page past the end shows the last page", async () => {
      const p1 = await searchProducts(t.db, { q: "saw" });
      expect(p1.perPage).toBe(15);
      expect(p1.items).toHaveLength(15);
      expect(p1.pageCount).toBe(Math.ceil(p1.total / 15));
      const p2 = await searchProducts(t.db, { q: "saw", page: 2 });
      expect(p2.items.map((i) => i.id).some((id) => p1.items.some((i) => i.id === id))).toBe(false);
      const beyond = await searchProducts(t.db, { q: "saw", page: 9999 });
      const lastPage = await searchProducts(t.db, { q: "saw", page: p1.pageCount });
      expect(beyond.page).toBe(p1.pageCount);
      expect(beyond.items.map((i) => i.id)).toEqual(lastPage.items.map((i) => i.id));
      expect(beyond.items.length).toBe(p1.total - (p1.pageCount - 1) * 15);
      const browseBeyond = await searchProducts(t.db, { page: 1_000_000 });
      expect(browseBeyond.page).toBe(browseBeyond.pageCount);
      expect(browseBeyond.items.length).toBeGreaterThan(0);
    });

    it("keeps listProducts (the catalog's browse interface) working through the search", async () => {
      const page = await listProducts(t.db, { categories: ["hand"], sort: "price-asc", page: 2 });
      const r = await searchProducts(t.db, { categories: ["hand"], sort: "price-asc", page: 2 });
      expect(page.items.map((i) => i.id)).toEqual(r.items.map((i) => i.id));
      expect(page.total).toBe(r.total);
    });
  });

  describe("suggestions", () => {
    it("offers products, categories and brands for a prefix", async () => {
      const s = await suggestSearch(t.db, "ham");
      const products = s.options.filter((o) => o.type === "product");
      expect(products.length).toBeGreaterThan(0);
      expect(products.every((o) => /ham/i.test(o.label) && /^\/shop\/\d+$/.test(o.href))).toBe(true);
      expect(products[0].segments.some((seg) => seg.match)).toBe(true);
      const brand = await suggestSearch(t.db, "forg");
      expect(brand.options).toContainEqual(
        expect.objectContaining({ type: "brand", label: "Forgecrest", href: "/shop?brand=forgecrest" }),
      );
      const category = await suggestSearch(t.db, "power");
      expect(category.options).toContainEqual(
        expect.objectContaining({ type: "category", label: "Power Tools", href: "/shop?category=power-tools" }),
      );
      const typo = await suggestSearch(t.db, "Tidwell");
      expect(typo.options).toContainEqual(expect.objectContaining({ type: "brand", label: "Tidewell" }));
      const ids = [...s.options, ...brand.options].map((o) => o.id);
      expect(new Set(ids).size).toBe(ids.length);
    });
    it("stays quiet for one letter or nothing", async () => {
      expect((await suggestSearch(t.db, "d")).options).toEqual([]);
      expect((await suggestSearch(t.db, "   ")).options).toEqual([]);
    });
  });

  describe("keeping the index in step", () => {
    it("follows product inserts, edits, stock changes, brand renames and deletes", async () => {
      const probe = "zanzibar";
      expect((await searchProducts(t.db, { q: probe })).total).toBe(0);
      await t.db
        .updateTable("products")
        .set({ title: `Forgecrest Zanzibar Chisel Set` })
        .where("id", "=", crafted.brandId)
        .execute();
      let r = await searchProducts(t.db, { q: probe });
      expect(r.items.map((i) => i.id)).toEqual([crafted.brandId]);

      await t.db.updateTable("products").set({ stock_quantity: 0 }).where("id", "=", crafted.brandId).execute();
      expect((await searchProducts(t.db, { q: probe, inStockOnly: true })).total).toBe(0);
      await t.db.updateTable("products").set({ stock_quantity: 7 }).where("id", "=", crafted.brandId).execute();
      expect((await searchProducts(t.db, { q: probe, inStockOnly: true })).total).toBe(1);

      await t.db.updateTable("brands").set({ name: "Wallaby Tools" }).where("slug", "=", "quokka-tools").execute();
      clearSearchCaches(t.db);
      r = await searchProducts(t.db, { q: "wallaby" });
      expect(r.items.map((i) => i.id)).toEqual([crafted.brandId]);
      expect((await searchProducts(t.db, { q: "quokka" })).items.map((i) => i.id)).not.toContain(crafted.brandId);

      await t.db.deleteFrom("products").where("id", "=", crafted.brandId).execute();
      expect((await searchProducts(t.db, { q: probe })).total).toBe(0);
      expect((await searchProducts(t.db, { q: "wallaby" })).total).toBe(0);
      clearSearchCaches(t.db);
      expect((await searchProducts(t.db, {})).total).toBe(facts.length - 1);
    });
    it("learns new words when the vocabulary is rebuilt", async () => {
      expect((await searchProducts(t.db, { q: "zanzibr" })).total).toBe(0);
      await t.db
        .updateTable("products")
        .set({ title: "Forgecrest Zanzibar Chisel Set" })
        .where("id", "=", crafted.categoryId)
        .execute();
      await rebuildSearchVocabulary(t.db);
      const r = await searchProducts(t.db, { q: "zanzibr" });
      expect(r.items.map((i) => i.id)).toEqual([crafted.categoryId]);
      expect(r.didYouMean).toBe("zanzibar");
    });
  });
});
