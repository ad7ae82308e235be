import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * The search asks only whether a product is in stock (`stock_quantity > 0`), so a stock change
 * (every order) touches search_products only when it crosses zero. In search_products the stock is
 * exact in its sign, not in its amount; the product pages read the amount from products.
 *
 * Before, every stock change rewrote the product's whole search_products row. On SQLite that
 * rewrote the entries of its four indexes. On PostgreSQL it made a new row version, with new entries
 * in every index of the table, the full-text ones included (issue 15).
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  await copyStockWhenItCrossesZero(db, kind);
}

/** Also run by the search schema's repair (server/catalog/search-schema.ts) after it re-creates 004's triggers. */
export async function copyStockWhenItCrossesZero(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind === "sqlite") {
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
      CREATE TRIGGER products_search_update_stock AFTER UPDATE OF stock_quantity ON products
      WHEN (old.stock_quantity > 0) IS NOT (new.stock_quantity > 0) BEGIN
        UPDATE search_products SET stock_quantity = new.stock_quantity WHERE product_id = new.id;
      END`.execute(db);
    return;
  }
  await sql`
    CREATE OR REPLACE FUNCTION search_products_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      brand_name text;
      category_name text;
    BEGIN
      IF (OLD.category_id, OLD.brand_id, OLD.sale_price_cents, OLD.discount_percent, OLD.created_at, OLD.title, OLD.stock_quantity > 0)
         IS DISTINCT FROM (NEW.category_id, NEW.brand_id, NEW.sale_price_cents, NEW.discount_percent, NEW.created_at, NEW.title, NEW.stock_quantity > 0) THEN
        UPDATE search_products SET
          category_id = NEW.category_id, brand_id = NEW.brand_id, sale_price_cents = NEW.sale_price_cents,
          discount_percent = NEW.discount_percent, stock_quantity = NEW.stock_quantity,
          created_at = NEW.created_at, title = NEW.title
        WHERE product_id = NEW.id;
      END IF;
      IF (OLD.title, OLD.description, OLD.brand_id, OLD.category_id) IS DISTINCT FROM (NEW.title, NEW.description, NEW.brand_id, NEW.category_id) THEN
        SELECT name INTO brand_name FROM brands WHERE id = NEW.brand_id;
        SELECT name INTO category_name FROM categories WHERE id = NEW.category_id;
        UPDATE search_products SET
          head = search_head(NEW.title, brand_name, category_name),
          document = search_document(NEW.title, brand_name, category_name, NEW.description)
        WHERE product_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
}
