import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * The market a signed-in shopper chose (issue 51), kept on the account so another device starts
 * in it; a guest's choice lives in the `market` cookie alone (server/shopper/market.ts). Keyed
 * like the cart, by owner (`u:<user id>`). A cart line also records the market its seen price is
 * in, so a price is only flagged as changed within one market.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema
    .createTable("shopper_markets")
    .addColumn("owner", "text", (c) => c.primaryKey())
    .addColumn("market", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable("cart_items")
    .addColumn("seen_market", "text", (c) => c.notNull().defaultTo("us"))
    .execute();
}
