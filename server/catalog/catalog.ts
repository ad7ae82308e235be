import type {
  FacetOption,
  FeaturedProduct,
  ProductDetail,
  ProductPage,
  ProductSummary,
} from "../../app/lib/catalog-types.ts";
import { productImageUrl } from "../../app/lib/catalog-types.ts";
import type { Db } from "../db/connection.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import type { ProductQuery } from "./search-types.ts";
import { searchProducts } from "./search.ts";
import { references, type RefOption } from "./search-references.ts";
import { coverImageUrls, listProductImages } from "./product-images.ts";
import { isProductId, parseJsonList, productSpecs, productsWithSlugs } from "./product-rows.ts";
import { toSummary } from "./summary.ts";
import { marketListPrice, marketSalePrice, rowInMarket } from "./market-columns.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";

/** Categories and brands in display order (cached with the search's references, search-references.ts). */
export async function listFacets(db: Db): Promise<{ categories: FacetOption[]; brands: FacetOption[] }> {
  const refs = await references(db);
  const option = ({ name, slug }: RefOption): FacetOption => ({ name, slug });
  return { categories: refs.categories.map(option), brands: refs.brands.map(option) };
}

function summaryQuery(db: Db, market: MarketId) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select([
      "p.id",
      "p.slug",
      "p.title",
      marketListPrice(market),
      "p.discount_percent",
      marketSalePrice(market),
      "p.stock_quantity",
      "b.name as brand_name",
    ]);
}

const productDetailRows = compiledOnce((db: Db, id: number) =>
  productsWithSlugs(db)
    .select(["b.name as brand_name", "c.name as category_name"])
    .where("p.id", "=", id)
    .where("p.archived_at", "is", null),
);

/** A product's page in a market: its prices are the market's. */
export async function getProductDetail(
  db: Db,
  id: number,
  market: MarketId = DEFAULT_MARKET,
): Promise<ProductDetail | null> {
  if (!isProductId(id)) return null;
  const [found] = await productDetailRows(db, id);
  if (!found) return null;
  const row = rowInMarket(found, market);
  const uploads = await listProductImages(db, row.id);
  return {
    ...toSummary(row, uploads[0]?.url),
    sku: row.sku,
    description: row.description,
    features: parseJsonList(row.features),
    colors: parseJsonList(row.colors),
    images: uploads.length
      ? uploads.map((u) => u.url)
      : Array.from({ length: row.image_count }, (_, i) => productImageUrl(row.id, i + 1)),
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    categoryId: row.category_id,
    brandSlug: row.brand_slug,
    ...productSpecs(row),
  };
}

/** What the product image route needs to draw a picture. */
export async function getProductImageInfo(db: Db, id: number) {
  if (!isProductId(id)) return null;
  return db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["p.id", "p.title", "p.colors", "p.image_count", "c.slug as category_slug"])
    .where("p.id", "=", id)
    .executeTakeFirst()
    .then((row) => row && { ...row, colors: parseJsonList(row.colors) });
}

const idsOf = (rows: { id: number }[]) => rows.map((r) => r.id);

export async function listFeaturedProducts(
  db: Db,
  limit = 4,
  market: MarketId = DEFAULT_MARKET,
): Promise<FeaturedProduct[]> {
  const rows = await summaryQuery(db, market)
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["p.description", "p.features", "c.name as category_name"])
    .where("p.featured", "=", 1)
    .where("p.archived_at", "is", null)
    .orderBy("p.id")
    .limit(limit)
    .execute();
  const covers = await coverImageUrls(db, idsOf(rows));
  return rows.map((row) => ({
    ...toSummary(row, covers.get(row.id)),
    description: row.description,
    features: parseJsonList(row.features),
    categoryName: row.category_name,
  }));
}

/** The home page's best products: the biggest discounts among products in stock. */
export async function listBestProducts(
  db: Db,
  limit = 8,
  market: MarketId = DEFAULT_MARKET,
): Promise<ProductSummary[]> {
  const rows = await summaryQuery(db, market)
    .where("p.stock_quantity", ">", 0)
    .where("p.discount_percent", "is not", null)
    .where("p.featured", "=", 0)
    .where("p.archived_at", "is", null)
    .orderBy("p.discount_percent", "desc")
    .orderBy("p.id")
    .limit(limit)
    .execute();
  const covers = await coverImageUrls(db, idsOf(rows));
  return rows.map((row) => toSummary(row, covers.get(row.id)));
}

export type { ProductQuery };

/** A page of the catalog under filters, without words: the search (server/catalog/search.ts) does the work. */
export async function listProducts(db: Db, q: ProductQuery = {}): Promise<ProductPage> {
  const result = await searchProducts(db, { ...q, sort: q.sort === "relevance" ? "newest" : q.sort });
  return { items: result.items, total: result.total, page: result.page, pageCount: result.pageCount };
}

/** Every product on sale with its last change (or creation) time, for the sitemap. */
export async function listProductIdsForSitemap(db: Db, limit = 50_000) {
  const rows = await db
    .selectFrom("products")
    .select(["id", "created_at", "updated_at"])
    .where("archived_at", "is", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    created_at: r.created_at,
    lastmod: (r.updated_at ?? r.created_at).slice(0, 10),
  }));
}
