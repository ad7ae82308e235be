import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("cart_items")
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("color", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity >= 1`))
    .addColumn("seen_price_cents", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("cart_items_pk", ["owner", "product_id", "color"])
    .execute();
  await db.schema
    .createTable("wishlist_items")
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("color", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("wishlist_items_pk", ["owner", "product_id"])
    .execute();
  await db.schema
    .createTable("orders")
    .addColumn("id", serial, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("access_token", "text", (c) => c.notNull().unique())
    .addColumn("checkout_token", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("payment_method", "text", (c) => c.notNull())
    .addColumn("payment_status", "text", (c) => c.notNull())
    .addColumn("business_name", "text")
    .addColumn("tax_number", "text")
    .addColumn("ship_name", "text", (c) => c.notNull())
    .addColumn("ship_line1", "text", (c) => c.notNull())
    .addColumn("ship_line2", "text")
    .addColumn("ship_city", "text", (c) => c.notNull())
    .addColumn("ship_region", "text")
    .addColumn("ship_postcode", "text", (c) => c.notNull())
    .addColumn("ship_country", "text", (c) => c.notNull())
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("member_discount_cents", "integer", (c) => c.notNull())
    .addColumn("shipping_cents", "integer", (c) => c.notNull())
    .addColumn("tax_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("orders_user_idx").on("orders").columns(["user_id", "id"]).execute();
  await db.schema
    .createTable("order_lines")
    .addColumn("id", serial, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity >= 1`))
    .addColumn("unit_price_cents", "integer", (c) => c.notNull())
    .addColumn("line_total_cents", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_lines_order_idx").on("order_lines").column("order_id").execute();
}
