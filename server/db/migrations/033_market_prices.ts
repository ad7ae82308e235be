import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { DEFAULT_UK_PRICE_RULE } from "../../../app/lib/price-derivation.ts";
import { rederiveUkPrices } from "../../catalog/market-prices.ts";

/**
 * Prices per market (issue 51): each product's UK price in pence beside its US price in cents,
 * either set by staff (`uk_price_set` = 1) or derived from the US price by the rule staff keep in
 * `market_price_rules` (a rate and a price ending). The derived price is stored, never computed
 * while a page is served. Existing products get the default rule's prices. Each order records the
 * currency of its amounts (every order so far was in US dollars), and the back office's sums, now
 * per currency, keep reading indexes only.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema
    .createTable("market_price_rules")
    .addColumn("market", "text", (c) => c.primaryKey())
    .addColumn("source_market", "text", (c) => c.notNull())
    .addColumn("rate_micros", "integer", (c) => c.notNull())
    .addColumn("ending", "integer")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text")
    .execute();
  await db
    .insertInto("market_price_rules")
    .values({
      market: "uk",
      source_market: "us",
      rate_micros: DEFAULT_UK_PRICE_RULE.rateMicros,
      ending: DEFAULT_UK_PRICE_RULE.ending,
    })
    .execute();
  for (const column of ["uk_price_pence", "uk_sale_price_pence", "uk_price_set"]) {
    await db.schema
      .alterTable("products")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .alterTable("orders")
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("usd"))
    .execute();
  // The indexes that let the back office sum orders without reading them (migrations 011 and 020)
  // carry the currency too, as sums are now per currency.
  for (const [name, columns, where] of [
    ["orders_created_idx", "created_at, id, status, currency, total_cents", ""],
    ["orders_status_idx", "status, created_at, id, currency, total_cents", ""],
    ["orders_user_idx", "user_id, id, status, currency, total_cents", " where user_id is not null"],
  ]) {
    await sql.raw(`drop index ${name}`).execute(db);
    await sql.raw(`create index ${name} on orders (${columns})${where}`).execute(db);
  }
  await rederiveUkPrices(db, DEFAULT_UK_PRICE_RULE);
}
