import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Every order's tax, as it was when the order was placed (issue 51): one row per tax line (one
 * rate of one jurisdiction), and on the order why it holds the tax it does: collected, included
 * in the prices (UK VAT), not registered in the delivery state, or exempt by a verified
 * certificate. Written once with the order and never changed.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("order_tax_lines")
    .addColumn("id", serial, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("jurisdiction", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("rate_ppm", "integer", (c) => c.notNull())
    .addColumn("taxable_cents", "integer", (c) => c.notNull())
    .addColumn("tax_cents", "integer", (c) => c.notNull())
    .addColumn("included", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("order_tax_lines_order_idx").on("order_tax_lines").column("order_id").execute();
  await db.schema.alterTable("orders").addColumn("tax_basis", "text").execute();
  await db.schema.alterTable("orders").addColumn("tax_state", "text").execute();
  await db.schema.alterTable("orders").addColumn("tax_certificate_id", "integer").execute();
}
