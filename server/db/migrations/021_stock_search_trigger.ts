import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { SQLITE_COPY_FACTS, SQLITE_FACT_COLUMNS } from "./004_search.ts";

/**
 * The search asks only whether a product is in stock (`stock_quantity > 0`), so a stock change
 * (every order) touches search_products only when it crosses zero. In search_products the stock is
 * exact in its sign, not in its amount; the product pages read the amount from products.
 *
 * Before, every stock change rewrote the product's whole search_products row. On SQLite that
 * rewrote the entries of its four indexes. On PostgreSQL it made a new row version, with new entries
 * in every index of the table, the full-text ones included (issue 15). Migration 004's triggers
 * keep their work; they only get a condition.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  await copyStockWhenItCrossesZero(db, kind);
}

/** Also run by the search schema's repair (migration 028) after it re-creates 004's triggers. */
export async function copyStockWhenItCrossesZero(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind === "sqlite") {
    const changed = SQLITE_FACT_COLUMNS.split(", ")
      .map((c) =>
        c === "stock_quantity"
          ? "(old.stock_quantity > 0) IS NOT (new.stock_quantity > 0)"
          : `old.${c} IS NOT new.${c}`,
      )
      .join(" OR ");
    await sql`DROP TRIGGER products_search_update_facts`.execute(db);
    await sql
      .raw(
        `
      CREATE TRIGGER products_search_update_facts
      AFTER UPDATE OF ${SQLITE_FACT_COLUMNS} ON products WHEN ${changed} BEGIN
        ${SQLITE_COPY_FACTS}
      END`,
      )
      .execute(db);
    return;
  }
  // The trigger function copies the facts and rebuilds the text vectors when their text changed:
  // it runs when any of those changed, or the stock crossed zero.
  await sql`DROP TRIGGER products_search_update ON products`.execute(db);
  await sql`
    CREATE TRIGGER products_search_update AFTER UPDATE ON products FOR EACH ROW
    WHEN ((OLD.title, OLD.description, OLD.brand_id, OLD.category_id, OLD.sale_price_cents, OLD.discount_percent, OLD.created_at, OLD.stock_quantity > 0)
          IS DISTINCT FROM (NEW.title, NEW.description, NEW.brand_id, NEW.category_id, NEW.sale_price_cents, NEW.discount_percent, NEW.created_at, NEW.stock_quantity > 0))
    EXECUTE FUNCTION search_products_after_update()`.execute(db);
}
