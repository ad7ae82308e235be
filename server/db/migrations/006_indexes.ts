import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  // The home page's best products: biggest discounts among products in stock.
  await sql`create index products_best_idx on products (featured, discount_percent desc, id) where stock_quantity > 0 and discount_percent is not null`.execute(db);
}
