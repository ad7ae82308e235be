import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  // The home page's best products: biggest discounts among products in stock.
  await sql`create index products_best_idx on products (featured, discount_percent desc, id) where stock_quantity > 0 and discount_percent is not null`.execute(
    db,
  );
  await createCatalogVersion(db);
}

/** A counter bumped by every change that alters what catalog pages show (stock, prices). */
export async function createCatalogVersion(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("catalog_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .execute();
  await db.insertInto("catalog_version").values({ id: 1, version: 1 }).execute();
}
