import { sql } from "kysely";
import type { Db } from "../../server/db/connection.ts";
import { rebuildSearchVocabulary } from "../../server/catalog/search-vocabulary.ts";
import { clearSearchCaches, searchProducts } from "../../server/catalog/search.ts";
import type { SearchQuery, SearchResult } from "../../server/catalog/search-types.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { productsWithBrandAndCategory } from "../../server/catalog/product-rows.ts";

/** Products the catalog seed is built from, plus a few written for exact ranking checks. */
const SEED_PRODUCTS = 600;

export interface Crafted {
  /** "Quokka" in the title. */
  titleId: number;
  /** "Quokka" only in the category name. */
  categoryId: number;
  /** "Quokka" only in the brand name. */
  brandId: number;
  /** "Quokka" only in the description. */
  descriptionId: number;
  /** Markup and quotes in the title. */
  markupId: number;
}

function product(overrides: Record<string, unknown>) {
  const n = overrides.sku as string;
  return {
    slug: `crafted-${n.toLowerCase()}`,
    description: "A plain description.",
    features: "[]",
    price_cents: 1999,
    discount_percent: null,
    sale_price_cents: 1999,
    colors: "[]",
    stock_quantity: 5,
    model: "X-1",
    material: "Steel",
    weight_grams: 100,
    country_of_origin: "United Kingdom",
    manufacturer: "Crafted Ltd",
    return_policy: "14 days",
    image_count: 1,
    rating: 5,
    featured: 0,
    created_at: "2024-06-01T00:00:00.000Z",
    ...overrides,
  };
}

/** Seeds the catalog, then adds the crafted products and rebuilds the vocabulary. */
export async function seedSearchCatalog(db: Db): Promise<Crafted> {
  await seedCatalog(db, { products: SEED_PRODUCTS });
  const brand = await db
    .insertInto("brands")
    .values({ name: "Quokka Tools", slug: "quokka-tools", position: 15 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto("categories")
    .values({ name: "Quokka Gear", slug: "quokka-gear", position: 15 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const hand = await db.selectFrom("categories").select("id").where("slug", "=", "hand").executeTakeFirstOrThrow();
  const forgecrest = await db
    .selectFrom("brands")
    .select("id")
    .where("slug", "=", "forgecrest")
    .executeTakeFirstOrThrow();
  const insert = async (row: Record<string, unknown>) =>
    Number(
      (
        await db
          .insertInto("products")
          .values(product(row) as never)
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
  // Inserted in reverse order of the expected ranking, so the ranking cannot come from ids.
  const descriptionId = await insert({
    sku: "Q-DESC",
    title: "Forgecrest Folding Workbench",
    description: "Sturdy enough for a quokka to stand on.",
    brand_id: forgecrest.id,
    category_id: hand.id,
  });
  const brandId = await insert({
    sku: "Q-BRAND",
    title: "Precision Screwdriver",
    brand_id: brand.id,
    category_id: hand.id,
  });
  const categoryId = await insert({
    sku: "Q-CAT",
    title: "Forgecrest Kneeling Pad",
    brand_id: forgecrest.id,
    category_id: category.id,
  });
  const titleId = await insert({
    sku: "Q-TITLE",
    title: "Forgecrest Quokka Claw Hammer",
    brand_id: forgecrest.id,
    category_id: hand.id,
  });
  const markupId = await insert({
    sku: "Q-MARKUP",
    title: `Forgecrest <b>Quokka</b> & "Wombat" Mallet <script>alert(1)</script>`,
    brand_id: forgecrest.id,
    category_id: hand.id,
    stock_quantity: 0,
  });
  await rebuildSearchVocabulary(db);
  clearSearchCaches(db);
  return { titleId, categoryId, brandId, descriptionId, markupId };
}

/** Every product id a query matches, in result order, by walking all its pages. */
export async function allIds(db: Db, query: SearchQuery): Promise<{ ids: number[]; first: SearchResult }> {
  const first = await searchProducts(db, { ...query, page: 1, perPage: 60 });
  const ids = first.items.map((i) => i.id);
  for (let page = 2; page <= first.pageCount; page++) {
    const next = await searchProducts(db, { ...query, page, perPage: 60 });
    ids.push(...next.items.map((i) => i.id));
  }
  return { ids, first };
}

export interface ProductFacts {
  id: number;
  title: string;
  description: string;
  category: string;
  brand: string;
  sale_price_cents: number;
  discount_percent: number | null;
  stock_quantity: number;
  created_at: string;
}

/** The catalog as plain rows, for checking results by brute force. */
export async function productFacts(db: Db): Promise<ProductFacts[]> {
  const rows = await productsWithBrandAndCategory(db)
    .select([
      "p.id",
      "p.title",
      "p.description",
      "c.slug as category",
      "b.slug as brand",
      "p.sale_price_cents",
      "p.discount_percent",
      "p.stock_quantity",
      "p.created_at",
    ])
    .orderBy("p.id")
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** True when the products table is still there and whole (hostile input must not touch it). */
export async function productCount(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM products`.execute(db);
  return Number(rows[0].n);
}
