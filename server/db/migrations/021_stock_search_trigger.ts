import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * SQLite: a stock change (every order) copies only the stock into search_products. The one trigger
 * for all of a product's facts rewrote every search_products column, so SQLite rewrote the entries
 * of all four of its indexes and wrote their pages at each commit; now only the index that holds
 * the stock changes. PostgreSQL's trigger function is left as it is (issue 15).
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind === "sqlite") await copyStockAlone(db);
}

/** Also run by the search schema's repair (server/catalog/search-schema.ts) after it re-creates 004's triggers. */
export async function copyStockAlone(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER products_search_update_facts`.execute(db);
  await sql`
    CREATE TRIGGER products_search_update_facts
    AFTER UPDATE OF category_id, brand_id, sale_price_cents, discount_percent, created_at, title ON products BEGIN
      UPDATE search_products SET category_id = new.category_id, brand_id = new.brand_id,
        sale_price_cents = new.sale_price_cents, discount_percent = new.discount_percent,
        stock_quantity = new.stock_quantity, created_at = new.created_at, title = new.title
      WHERE product_id = new.id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER products_search_update_stock AFTER UPDATE OF stock_quantity ON products BEGIN
      UPDATE search_products SET stock_quantity = new.stock_quantity WHERE product_id = new.id;
    END`.execute(db);
}
