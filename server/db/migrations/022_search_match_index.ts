import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * SQLite: an index of search_products by product id that holds what the facet counts and filters
 * of a search read (issue 15, docs/decisions/0023-search-at-a-million.md). A search looks up every
 * product FTS5 matches in search_products; in this narrow index the lookups of a 1,000,000-product
 * catalog stay in the page cache, where the table's rows (with their titles, 93 MB) did not.
 * PostgreSQL reads its matches from the table's own rows: nothing to do there.
 */
export const SQLITE_MATCH_INDEX = "search_products_match_idx";
export const SQLITE_MATCH_INDEX_COLUMNS = [
  "category_id",
  "brand_id",
  "sale_price_cents",
  "stock_quantity",
  "discount_percent",
];

export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  await createMatchIndex(db, kind);
}

/** Also run by the search schema's repair (migration 028) after it re-creates 004's table. */
export async function createMatchIndex(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind !== "sqlite") return;
  await sql
    .raw(
      `CREATE INDEX IF NOT EXISTS ${SQLITE_MATCH_INDEX} ON search_products (product_id, ${SQLITE_MATCH_INDEX_COLUMNS.join(", ")})`,
    )
    .execute(db);
}
