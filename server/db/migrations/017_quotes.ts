import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Quotes: a signed-in buyer asks for a price on a cart (server/quotes/); staff set a price per
 * line and a validity date; the buyer accepts it at the checkout, which makes an order at the
 * quoted prices (`order_id`), or it expires. `version` guards staff edits against stale forms.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const id = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable("quotes")
    .addColumn("id", serial, id)
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("message", "text")
    .addColumn("staff_note", "text")
    .addColumn("valid_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("quoted_at", "text")
    .addColumn("quoted_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("quotes_status_idx").on("quotes").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("quotes_user_idx").on("quotes").columns(["user_id", "id"]).execute();

  await db.schema
    .createTable("quote_lines")
    .addColumn("id", serial, id)
    .addColumn("quote_id", "integer", (c) => c.notNull().references("quotes.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("list_price_cents", "integer", (c) => c.notNull())
    .addColumn("requested_unit_cents", "integer", (c) => c.notNull())
    .addColumn("quoted_unit_cents", "integer")
    .execute();
  await db.schema.createIndex("quote_lines_quote_idx").on("quote_lines").columns(["quote_id", "id"]).execute();
}
