/**
 * The back office's product list and its bulk actions (archive, unarchive, change category).
 * Words are matched by the shop's own search (matchingProductIds); filters and sorting run on
 * products' indexed columns. Archived products stay in the database (old orders show them) but
 * leave everything the storefront lists: search_products, the vocabulary, the sitemap.
 */
import { sql, type Expression, type SqlBool } from "kysely";
import { ADMIN_PER_PAGE } from "../../app/lib/admin-products.ts";
import type { ProductField } from "../../app/lib/product-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import { InvalidError, NotFoundError } from "../errors.ts";
import { listProductImages, type ProductImage } from "./product-images.ts";
import { isProductId, productRowToFields, productsWithSlugs } from "./product-rows.ts";
import { cleanQueryText } from "../../app/lib/shop-query.ts";
import { matchingProductIds } from "./search.ts";
import { restoreToSearch, searchTextOf, updateVocabulary, withdrawFromSearch } from "./search-sync.ts";
import { assertCan, type StaffActor } from "./staff-actor.ts";
import { nextStamp, versionOf } from "./product-form.ts";
import type { VatClass } from "../../app/lib/product-tax.ts";
import { bumpCatalogVersion } from "./version.ts";

const ADMIN_SORTS = ["title", "sku", "price", "stock", "updated"] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];
const STOCK_FILTERS = ["in", "low", "out"] as const;
type StockFilter = (typeof STOCK_FILTERS)[number];
const ARCHIVE_FILTERS = ["live", "archived", "all"] as const;
type ArchiveFilter = (typeof ARCHIVE_FILTERS)[number];
const MAX_BULK = 100;
const MAX_PAGE = 10_000;

export interface AdminProductQuery {
  q?: string;
  category?: string;
  brand?: string;
  stock?: StockFilter;
  archived?: ArchiveFilter;
  sort?: AdminSort;
  dir?: "asc" | "desc";
  page?: number;
}

interface AdminProductRow {
  id: number;
  sku: string;
  title: string;
  brandName: string;
  categoryName: string;
  priceCents: number;
  salePriceCents: number;
  discountPercent: number | null;
  stock: number;
  lowStockThreshold: number;
  archivedAt: string | null;
  updatedAt: string;
}

/** Reads the list's query string; anything unknown falls back to the default. */
export function parseAdminProductQuery(
  params: URLSearchParams,
): Required<Omit<AdminProductQuery, "category" | "brand" | "stock">> &
  Pick<AdminProductQuery, "category" | "brand" | "stock"> {
  const pick = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
    (list as readonly string[]).includes(value ?? "") ? (value as T) : undefined;
  const page = Number(params.get("page"));
  const slug = (v: string | null) => (v && /^[a-z0-9-]{1,100}$/.test(v) ? v : undefined);
  const sort = pick(ADMIN_SORTS, params.get("sort")) ?? "updated";
  return {
    q: cleanQueryText(params.get("q")),
    category: slug(params.get("category")),
    brand: slug(params.get("brand")),
    stock: pick(STOCK_FILTERS, params.get("stock")),
    archived: pick(ARCHIVE_FILTERS, params.get("archived")) ?? "live",
    sort,
    dir: pick(["asc", "desc"] as const, params.get("dir")) ?? (sort === "updated" ? "desc" : "asc"),
    page: Number.isSafeInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
  };
}

export async function listAdminProducts(db: Db, actor: StaffActor, query: AdminProductQuery) {
  assertCan(actor, { product: ["view"] });
  const q = cleanQueryText(query.q);
  const archived = query.archived ?? "live";
  const match = q ? await matchingProductIds(db, q) : null;
  // Filters on products alone, so the count needs no join (it reads an index at 100k products).
  let base = db.selectFrom("products as p");
  if (archived === "live") base = base.where("p.archived_at", "is", null);
  if (archived === "archived") base = base.where("p.archived_at", "is not", null);
  if (query.category)
    base = base.where("p.category_id", "=", (eb) =>
      eb.selectFrom("categories").select("id").where("slug", "=", query.category!),
    );
  if (query.brand)
    base = base.where("p.brand_id", "=", (eb) => eb.selectFrom("brands").select("id").where("slug", "=", query.brand!));
  if (query.stock === "out") base = base.where("p.stock_quantity", "=", 0);
  if (query.stock === "in") base = base.where("p.stock_quantity", ">", 0);
  if (query.stock === "low")
    base = base.where("p.stock_quantity", ">", 0).whereRef("p.stock_quantity", "<=", "p.low_stock_threshold");
  if (q) {
    const sku = q.toUpperCase();
    base = base.where((eb) => {
      // One IN over the search's matches and the SKU's product: an OR of the two would make
      // PostgreSQL run the search once per product row.
      const bySku = sql<{ id: number }>`SELECT id FROM products WHERE sku = ${sku}`;
      const ids = match && match !== "none" ? sql`${match} UNION ${bySku}` : bySku;
      const any: Expression<SqlBool>[] = [sql<SqlBool>`p.id IN (${ids})`];
      // Archived products are not in the shop's search: staff find them by SKU or by words of the title.
      if (archived !== "live") {
        const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        any.push(eb.and([eb("p.archived_at", "is not", null), sql<boolean>`lower(p.title) LIKE ${like} ESCAPE '\\'`]));
      }
      return eb.or(any);
    });
  }
  const countRow = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(countRow.n);
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_PER_PAGE));
  const page = Math.min(query.page ?? 1, pageCount);
  const dir = query.dir ?? "asc";
  const column = {
    title: "p.title",
    sku: "p.sku",
    price: "p.sale_price_cents",
    stock: "p.stock_quantity",
    updated: "p.updated_at",
  }[query.sort ?? "updated"];
  const rows = await base
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select([
      "p.id",
      "p.sku",
      "p.title",
      "b.name as brand_name",
      "c.name as category_name",
      "p.price_cents",
      "p.sale_price_cents",
      "p.discount_percent",
      "p.stock_quantity",
      "p.low_stock_threshold",
      "p.archived_at",
      "p.updated_at",
      "p.created_at",
    ])
    .orderBy(sql.ref(column), dir)
    .orderBy("p.id", dir)
    .limit(ADMIN_PER_PAGE)
    .offset((page - 1) * ADMIN_PER_PAGE)
    .execute();
  const items: AdminProductRow[] = rows.map((r) => ({
    id: Number(r.id),
    sku: r.sku,
    title: r.title,
    brandName: r.brand_name,
    categoryName: r.category_name,
    priceCents: r.price_cents,
    salePriceCents: r.sale_price_cents,
    discountPercent: r.discount_percent,
    stock: r.stock_quantity,
    lowStockThreshold: Number(r.low_stock_threshold),
    archivedAt: r.archived_at,
    updatedAt: r.updated_at ?? r.created_at,
  }));
  return { items, total, page, pageCount, q };
}

function checkIds(ids: number[]): number[] {
  const clean = [...new Set(ids.filter(isProductId))];
  if (clean.length === 0) throw new InvalidError("nothing_selected", "Choose at least one product.");
  if (clean.length > MAX_BULK) throw new InvalidError("too_many", `Choose at most ${MAX_BULK} products at a time.`);
  return clean;
}

async function productsOrFail(trx: Db, ids: number[]) {
  const rows = await trx
    .selectFrom("products")
    .select(["id", "archived_at", "category_id", "updated_at"])
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
  if (rows.length !== ids.length)
    throw new NotFoundError("not_found", "Some of those products don't exist any more; reload the list.");
  return rows;
}

/** Archives (or brings back) products: one transaction, one audit row per product that changed. Returns how many changed. */
export async function setArchived(db: Db, actor: StaffActor, ids: number[], archived: boolean): Promise<number> {
  assertCan(actor, { product: ["archive"] });
  const list = checkIds(ids);
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const rows = await productsOrFail(trx, list);
      const changing = rows.filter((r) => (r.archived_at !== null) !== archived);
      if (changing.length === 0) return 0;
      const now = new Date().toISOString();
      const changingIds = changing.map((r) => Number(r.id));
      if (archived) await withdrawFromSearch(trx, changingIds);
      for (const r of changing) {
        await trx
          .updateTable("products")
          .set({ archived_at: archived ? now : null, updated_at: nextStamp(r.updated_at) })
          .where("id", "=", r.id)
          .execute();
        await writeAudit(trx, actor, {
          action: archived ? "product.archive" : "product.unarchive",
          objectType: "product",
          objectId: Number(r.id),
          before: { archived_at: r.archived_at },
          after: { archived_at: archived ? now : null },
        });
      }
      if (!archived) await restoreToSearch(trx, changingIds);
      await bumpCatalogVersion(trx);
      return changing.length;
    }),
  );
}

/** Moves products to another category: one transaction, one audit row per product that moved. */
export async function setCategory(db: Db, actor: StaffActor, ids: number[], categorySlug: string): Promise<number> {
  assertCan(actor, { product: ["update"] });
  const list = checkIds(ids);
  const category = await db
    .selectFrom("categories")
    .select(["id", "name"])
    .where("slug", "=", categorySlug)
    .executeTakeFirst();
  if (!category) throw new InvalidError("bad_category", "Choose a category.");
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const rows = await productsOrFail(trx, list);
      const moving = rows.filter((r) => Number(r.category_id) !== Number(category.id));
      for (const r of moving) {
        const before = r.archived_at ? null : await searchTextOf(trx, Number(r.id));
        await trx
          .updateTable("products")
          .set({ category_id: category.id, updated_at: nextStamp(r.updated_at) })
          .where("id", "=", r.id)
          .execute();
        if (before) await updateVocabulary(trx, before, await searchTextOf(trx, Number(r.id)));
        await writeAudit(trx, actor, {
          action: "product.update",
          objectType: "product",
          objectId: Number(r.id),
          before: { category_id: r.category_id },
          after: { category_id: category.id },
        });
      }
      if (moving.length) await bumpCatalogVersion(trx);
      return moving.length;
    }),
  );
}

export interface ProductForEdit {
  id: number;
  fields: Record<ProductField, string>;
  version: string;
  stock: number;
  archivedAt: string | null;
  createdAt: string;
  orderCount: number;
  images: ProductImage[];
  taxRules: { vatClass: VatClass; prop65: boolean };
  /** Its UK price in use (set by staff or derived), in pence. */
  ukPricePence: number;
}

export async function loadProductForEdit(db: Db, actor: StaffActor, id: number): Promise<ProductForEdit | null> {
  assertCan(actor, { product: ["view"] });
  if (!isProductId(id)) return null;
  const row = await productsWithSlugs(db).where("p.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [orders, images] = await Promise.all([
    db
      .selectFrom("order_lines")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("product_id", "=", id)
      .executeTakeFirstOrThrow(),
    listProductImages(db, id),
  ]);
  return {
    id: Number(row.id),
    fields: productRowToFields(row),
    version: versionOf(row),
    stock: row.stock_quantity,
    archivedAt: row.archived_at,
    createdAt: row.created_at,
    orderCount: Number(orders.n),
    images,
    taxRules: { vatClass: row.vat_class, prop65: Number(row.prop65) === 1 },
    ukPricePence: Number(row.uk_price_pence),
  };
}

/** Categories and brands for the form's selects and the list's filters. */
export async function listCatalogRefs(db: Db) {
  const [categories, brands] = await Promise.all([
    db.selectFrom("categories").select(["name", "slug"]).orderBy("position").execute(),
    db.selectFrom("brands").select(["name", "slug"]).orderBy("position").execute(),
  ]);
  return { categories, brands };
}
