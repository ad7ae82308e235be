import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { DEFAULT_UK_PRICE_RULE } from "../../../app/lib/price-derivation.ts";
import { rederiveUkPrices } from "../../catalog/market-prices.ts";

/**
 * Prices per market (issue 51): each product's UK price in pence beside its US price in cents,
 * either set by staff (`uk_price_set` = 1) or derived from the US price by the rule staff keep in
 * `market_price_rules` (a rate and a price ending). The derived price is stored, never computed
 * while a page is served. Existing products get the default rule's prices. Each order records the
 * currency of its amounts (every order so far was in US dollars), and the dashboard's sales, now
 * summed per currency, keep reading only the orders_created_idx index.
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
  await sql`drop index orders_created_idx`.execute(db);
  await sql`create index orders_created_idx on orders (created_at, id, status, currency, total_cents)`.execute(db);
  await rederiveUkPrices(db, DEFAULT_UK_PRICE_RULE);
}
