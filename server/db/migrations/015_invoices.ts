import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Invoices: one per order, numbered from a gap-free sequence (one counter row, incremented in the
 * transaction that issues the invoice, so a rolled-back issue leaves no hole), and each order
 * line's list price, so an invoice shows the volume or trade discount it got.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const id = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema.alterTable("order_lines").addColumn("list_price_cents", "integer").execute();

  await db.schema
    .createTable("invoice_sequence")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("last_number", "integer", (c) => c.notNull())
    .execute();
  await db.insertInto("invoice_sequence").values({ name: "invoices", last_number: 0 }).execute();

  await db.schema
    .createTable("invoices")
    .addColumn("id", serial, id)
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "integer", (c) => c.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("organization_id", "text")
    .addColumn("issued_at", "text", (c) => c.notNull())
    .addColumn("due_at", "text")
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .execute();
  await db.schema
    .createIndex("invoices_organization_status_idx")
    .on("invoices")
    .columns(["organization_id", "status", "due_at"])
    .execute();
}
