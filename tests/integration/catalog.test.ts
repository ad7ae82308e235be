import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getProductDetail,
  listBestProducts,
  listFacets,
  listFeaturedProducts,
  listProducts,
} from "../../server/catalog/catalog.ts";
import type { Db, DbKind } from "../../server/db/connection.ts";
import { BRANDS, CATEGORIES } from "../../server/db/seed/catalog-data.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { forgetReferences, references } from "../../server/catalog/search-references.ts";
import type { ProductQuery } from "../../server/catalog/catalog.ts";
import type { ProductSummary } from "../../app/lib/catalog-types.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { productsWithBrandAndCategory } from "../../server/catalog/product-rows.ts";

const PRODUCTS = 600;
const PER_PAGE = 15;

/** The same queries on every dialect; their results are compared across dialects at the end. */
const SHARED_QUERIES: Record<string, ProductQuery> = {
  default: {},
  "page 7": { page: 7 },
  "past the end": { page: 999 },
  "category hand": { categories: ["hand"] },
  "two categories, page 2": { categories: ["automotive", "safety"], page: 2 },
  "brand forgecrest": { brands: ["forgecrest"] },
  "price 20–80": { minCents: 2000, maxCents: 8000 },
  "in stock": { inStockOnly: true },
  "on sale": { onSaleOnly: true },
  "everything combined": {
    categories: ["power-tools", "gardening"],
    brands: ["tidewell", "saltmere", "redmarsh"],
    minCents: 1000,
    maxCents: 50000,
    inStockOnly: true,
    onSaleOnly: true,
    sort: "price-desc",
  },
  "price-asc": { sort: "price-asc", page: 3 },
  "price-desc": { sort: "price-desc" },
  newest: { sort: "newest", page: 40 },
  discount: { sort: "discount", page: 2 },
  name: { sort: "name", page: 5 },
  "no match": { minCents: 100_000_000 },
};

const results: Partial<Record<DbKind, Record<string, unknown>>> = {};

interface RawProduct {
  id: number;
  title: string;
  sku: string;
  category_slug: string;
  brand_slug: string;
  sale_price_cents: number;
  price_cents: number;
  discount_percent: number | null;
  stock_quantity: number;
  featured: number;
  created_at: string;
}

for (const kind of dialects) {
  describe(`catalog queries on ${kind}`, () => {
    let t: TestDb;
    let db: Db;
    let raw: RawProduct[];
    const byId = (id: number) => raw.find((r) => r.id === id)!;

    beforeAll(async () => {
      t = await freshDb(kind);
      db = t.db;
      await seedCatalog(db, { products: PRODUCTS });
      raw = await productsWithBrandAndCategory(db)
        .select([
          "p.id",
          "p.title",
          "p.sku",
          "c.slug as category_slug",
          "b.slug as brand_slug",
          "p.sale_price_cents",
          "p.price_cents",
          "p.discount_percent",
          "p.stock_quantity",
          "p.featured",
          "p.created_at",
        ])
        .orderBy("p.id")
        .execute();
      expect(raw).toHaveLength(PRODUCTS);
    }, 120_000);

    afterAll(async () => {
      await t?.drop();
    });

    /** Every product matching a query, by walking the pages; also checks the page arithmetic. */
    async function allPages(q: ProductQuery): Promise<ProductSummary[]> {
      const first = await listProducts(db, { ...q, page: 1 });
      const items = [...first.items];
      for (let page = 2; page <= first.pageCount; page++) {
        const next = await listProducts(db, { ...q, page });
        expect(next.page).toBe(page);
        expect(next.total).toBe(first.total);
        items.push(...next.items);
      }
      expect(items).toHaveLength(first.total);
      expect(new Set(items.map((i) => i.id)).size).toBe(first.total);
      return items;
    }

    it("listFacets: the 15 categories and 15 brands in display order", async () => {
      const facets = await listFacets(db);
      expect(facets.categories).toEqual(CATEGORIES.map(({ name, slug }) => ({ name, slug })));
      expect(facets.brands).toEqual(BRANDS.map(({ name, slug }) => ({ name, slug })));
      expect(facets.categories).toHaveLength(15);
      expect(facets.brands).toHaveLength(15);
    });

    it("listProducts: 15 per page out of 600, with summaries that match the rows", async () => {
      const page = await listProducts(db);
      expect(page.total).toBe(PRODUCTS);
      expect(page.page).toBe(1);
      expect(page.pageCount).toBe(PRODUCTS / PER_PAGE);
      expect(page.items).toHaveLength(PER_PAGE);
      for (const item of page.items) {
        const row = byId(item.id);
        expect(item).toMatchObject({
          title: row.title,
          priceCents: row.price_cents,
          salePriceCents: row.sale_price_cents,
          discountPercent: row.discount_percent,
          stockQuantity: row.stock_quantity,
          imageUrl: `/images/products/${row.id}/1.svg`,
        });
        expect(typeof item.id).toBe("number");
        expect(typeof item.priceCents).toBe("number");
      }
      const all = await allPages({});
      expect(all.map((i) => i.id).sort((a, b) => a - b)).toEqual(raw.map((r) => r.id));
    });

    it("listProducts: a page past the end is clamped to the last page", async () => {
      for (const requested of [41, 999, Number.MAX_SAFE_INTEGER]) {
        const page = await listProducts(db, { page: requested });
        expect(page.page).toBe(40);
        expect(page.pageCount).toBe(40);
        expect(page.items).toHaveLength(PER_PAGE);
        expect(page.items).toEqual((await listProducts(db, { page: 40 })).items);
      }
      for (const requested of [0, -3]) expect((await listProducts(db, { page: requested })).page).toBe(1);
      const filtered = await listProducts(db, { categories: ["hand"], page: 999 });
      expect(filtered.page).toBe(filtered.pageCount);
      expect(filtered.items.length).toBe(filtered.total - (filtered.pageCount - 1) * PER_PAGE);
      const none = await listProducts(db, { minCents: 100_000_000, page: 3 });
      expect(none).toEqual({ items: [], total: 0, page: 1, pageCount: 1 });
    });

    it("listProducts: category filter, one or several", async () => {
      for (const categories of [["hand"], ["automotive", "safety"]]) {
        const items = await allPages({ categories });
        const expected = raw.filter((r) => categories.includes(r.category_slug));
        expect(expected.length).toBeGreaterThan(0);
        expect(items.map((i) => i.id).sort((a, b) => a - b)).toEqual(expected.map((r) => r.id));
      }
    });

    it("listProducts: brand filter", async () => {
      for (const brands of [["forgecrest"], ["tidewell", "halvorsen-dale"]]) {
        const items = await allPages({ brands });
        const expected = raw.filter((r) => brands.includes(r.brand_slug));
        expect(expected.length).toBeGreaterThan(0);
        expect(items.map((i) => i.id).sort((a, b) => a - b)).toEqual(expected.map((r) => r.id));
        const names = BRANDS.filter((b) => brands.includes(b.slug)).map((b) => b.name);
        for (const item of items) expect(names).toContain(item.brandName);
      }
    });

    it("listProducts: min and max price filter on the price the shopper pays, inclusive", async () => {
      const prices = raw.map((r) => r.sale_price_cents).sort((a, b) => a - b);
      const min = prices[100];
      const max = prices[400];
      const items = await allPages({ minCents: min, maxCents: max });
      const expected = raw.filter((r) => r.sale_price_cents >= min && r.sale_price_cents <= max);
      expect(items.map((i) => i.id).sort((a, b) => a - b)).toEqual(expected.map((r) => r.id));
      expect(items.some((i) => i.salePriceCents === min)).toBe(true);
      expect(items.some((i) => i.salePriceCents === max)).toBe(true);
      expect((await listProducts(db, { minCents: min })).total).toBe(
        raw.filter((r) => r.sale_price_cents >= min).length,
      );
      expect((await listProducts(db, { maxCents: max })).total).toBe(
        raw.filter((r) => r.sale_price_cents <= max).length,
      );
      expect((await listProducts(db, { minCents: prices.at(-1)! + 1 })).total).toBe(0);
    });

    it("listProducts: in-stock and on-sale filters", async () => {
      const inStock = await allPages({ inStockOnly: true });
      expect(inStock.length).toBe(raw.filter((r) => r.stock_quantity > 0).length);
      expect(inStock.length).toBeLessThan(PRODUCTS);
      for (const item of inStock) expect(item.stockQuantity).toBeGreaterThan(0);

      const onSale = await allPages({ onSaleOnly: true });
      expect(onSale.length).toBe(raw.filter((r) => r.discount_percent != null).length);
      expect(onSale.length).toBeGreaterThan(PRODUCTS / 5);
      for (const item of onSale) {
        expect(item.discountPercent).toBeGreaterThan(0);
        expect(item.salePriceCents).toBeLessThan(item.priceCents);
      }

      const both = await allPages({ inStockOnly: true, onSaleOnly: true, categories: ["power-tools"] });
      expect(both.length).toBe(
        raw.filter((r) => r.stock_quantity > 0 && r.discount_percent != null && r.category_slug === "power-tools")
          .length,
      );
    });

    it("listProducts: every sort order is actually sorted, with id as the tie-break", async () => {
      const check = async (
        sort: ProductQuery["sort"],
        key: (i: ProductSummary) => number | string,
        direction: 1 | -1,
      ) => {
        const items = await allPages({ sort });
        for (let i = 1; i < items.length; i++) {
          const [a, b] = [key(items[i - 1]), key(items[i])];
          const cmp = a < b ? -1 : a > b ? 1 : 0;
          if (cmp === 0) expect(items[i - 1].id, `${sort} tie-break`).toBeLessThan(items[i].id);
          else expect(cmp, `${sort} at ${i}: ${a} then ${b}`).toBe(-direction);
        }
      };
      await check("price-asc", (i) => i.salePriceCents, 1);
      await check("price-desc", (i) => i.salePriceCents, -1);
      await check("newest", (i) => byId(i.id).created_at, -1);
      await check("discount", (i) => i.discountPercent ?? 0, -1);
      await check("name", (i) => i.title, 1);
    });

    it("getProductDetail: every field, read from the database", async () => {
      const row = await db.selectFrom("products").selectAll().where("id", "=", 7).executeTakeFirstOrThrow();
      const detail = await getProductDetail(db, 7);
      expect(detail).not.toBeNull();
      const category = CATEGORIES.find((c) => c.slug === byId(7).category_slug)!;
      const brand = BRANDS.find((b) => b.slug === byId(7).brand_slug)!;
      expect(detail).toEqual({
        id: 7,
        slug: row.slug,
        sku: row.sku,
        title: row.title,
        description: row.description,
        features: JSON.parse(row.features),
        priceCents: row.price_cents,
        discountPercent: row.discount_percent,
        salePriceCents: row.sale_price_cents,
        stockQuantity: row.stock_quantity,
        colors: JSON.parse(row.colors),
        imageUrl: "/images/products/7/1.svg",
        images: Array.from({ length: row.image_count }, (_, i) => `/images/products/7/${i + 1}.svg`),
        brandName: brand.name,
        brandSlug: brand.slug,
        categoryId: row.category_id,
        categoryName: category.name,
        categorySlug: category.slug,
        model: row.model,
        material: row.material,
        weightGrams: row.weight_grams,
        countryOfOrigin: row.country_of_origin,
        manufacturer: row.manufacturer,
        returnPolicy: row.return_policy,
      });
      expect(detail!.features.length).toBeGreaterThan(0);
      expect(detail!.colors.length).toBeGreaterThan(0);
      expect(detail!.images.length).toBeGreaterThanOrEqual(1);
      expect(detail!.images.length).toBeLessThanOrEqual(4);
      expect(detail!.returnPolicy).toMatch(/14 days/);
      const other = await getProductDetail(db, 8);
      expect(other!.title).not.toBe(detail!.title);
    });

    it("getProductDetail: unknown or invalid ids give null", async () => {
      for (const id of [
        PRODUCTS + 1,
        999_999,
        0,
        -1,
        Number.NaN,
        1.5,
        Number.POSITIVE_INFINITY,
        Number.MAX_SAFE_INTEGER + 2,
      ]) {
        expect(await getProductDetail(db, id), String(id)).toBeNull();
      }
    });

    it("listFeaturedProducts: the four featured products", async () => {
      const featured = await listFeaturedProducts(db);
      expect(featured).toHaveLength(4);
      expect(featured.map((f) => byId(f.id).sku)).toEqual(["TH-0000001", "TH-0000002", "TH-0000003", "TH-0000004"]);
      for (const f of featured) {
        expect(byId(f.id).featured).toBe(1);
        expect(f.description.length).toBeGreaterThan(20);
        expect(f.features.length).toBeGreaterThan(0);
        expect(CATEGORIES.map((c) => c.name)).toContain(f.categoryName);
      }
    });

    it("listBestProducts: discounted, in stock, biggest discount first", async () => {
      for (const limit of [8, 10]) {
        const best = await listBestProducts(db, limit);
        expect(best).toHaveLength(limit);
        expect(new Set(best.map((b) => b.id)).size).toBe(limit);
        for (const b of best) {
          expect(b.discountPercent).toBeGreaterThan(0);
          expect(b.stockQuantity).toBeGreaterThan(0);
          expect(b.salePriceCents).toBeLessThan(b.priceCents);
          expect(byId(b.id).featured).toBe(0);
        }
        const discounts = best.map((b) => b.discountPercent!);
        expect(discounts).toEqual([...discounts].sort((a, b) => b - a));
        const topDiscount = Math.max(
          ...raw.filter((r) => r.stock_quantity > 0 && r.featured === 0).map((r) => r.discount_percent ?? 0),
        );
        expect(discounts[0]).toBe(topDiscount);
      }
    });

    it("records the shared queries for the cross-dialect comparison", async () => {
      const out: Record<string, unknown> = {};
      for (const [name, q] of Object.entries(SHARED_QUERIES)) out[name] = await listProducts(db, q);
      const { categories, brands } = await listFacets(db);
      out.facets = { categories, brands };
      out.featured = await listFeaturedProducts(db);
      out.best = await listBestProducts(db, 10);
      for (const id of [1, 2, 300, 600]) out[`detail ${id}`] = await getProductDetail(db, id);
      results[kind] = out;
    });
  });
}

describe.runIf(dialects.length > 1)("SQLite and PostgreSQL agree", () => {
  it("return identical results for the same queries", () => {
    const [a, b] = dialects;
    expect(results[a], `${a} results`).toBeDefined();
    expect(results[b], `${b} results`).toBeDefined();
    for (const name of Object.keys(results[a]!)) {
      expect(results[b]![name], name).toEqual(results[a]![name]);
    }
  });
});

describe.each(dialects)("category and brand lists on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("are one cache for the facets and the search: not kept while the catalog is unseeded, kept once it is", async () => {
    expect(await listFacets(t.db)).toEqual({ categories: [], brands: [] });
    await seedCatalog(t.db, { products: 20 });
    // No cache to clear: the seed's lists show with the next request.
    const facets = await listFacets(t.db);
    expect(facets.categories).toEqual(CATEGORIES.map(({ name, slug }) => ({ name, slug })));
    expect(facets.brands).toEqual(BRANDS.map(({ name, slug }) => ({ name, slug })));
    const refs = await references(t.db);
    expect(refs.categories.map(({ name, slug }) => ({ name, slug }))).toEqual(facets.categories);
    expect(refs.brands.every((b) => Number.isInteger(b.id))).toBe(true);
    // Kept (a minute per process): a change made outside the store shows later, not here.
    await t.db.updateTable("categories").set({ name: "Renamed" }).where("slug", "=", CATEGORIES[0].slug).execute();
    expect((await listFacets(t.db)).categories[0].name).toBe(CATEGORIES[0].name);
    expect(await references(t.db)).toBe(await references(t.db));
    forgetReferences(t.db);
    expect((await listFacets(t.db)).categories[0].name).toBe("Renamed");
  });
});
