import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Each product's tax rules, set by staff (issue 51): its UK VAT rate class (standard 20%, reduced
 * 5%, zero) and whether it needs a California Proposition 65 warning before a Californian pays;
 * and on each order whether that warning was shown before it was placed.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema
    .alterTable("products")
    .addColumn("vat_class", "text", (c) => c.notNull().defaultTo("standard"))
    .execute();
  await db.schema
    .alterTable("products")
    .addColumn("prop65", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("orders")
    .addColumn("prop65_warned", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
