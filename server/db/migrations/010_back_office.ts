import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * The back office (issue 12): what staff change and the record of it.
 * - products: archived_at (archived products leave the shop and search; old orders keep them),
 *   low_stock_threshold, updated_at; product_images: uploaded photos (sharp renditions on disk).
 * - orders: carrier and tracking number; order_events: each order's history (status moves,
 *   returns, payment), shown to staff and to the customer; order_returns (+ lines).
 * - contact_messages: handled and replied marks.
 * - audit_log: every back-office change, written in the same transaction as the change.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const id = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema.alterTable("products").addColumn("archived_at", "text").execute();
  await db.schema
    .alterTable("products")
    .addColumn("low_stock_threshold", "integer", (c) => c.notNull().defaultTo(5))
    .execute();
  await db.schema.alterTable("products").addColumn("updated_at", "text").execute();
  await db.schema
    .createTable("product_images")
    .addColumn("id", serial, id)
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    /** File name stem under UPLOAD_DIR/products; each rendition adds its width and extension. */
    .addColumn("file_key", "text", (c) => c.notNull().unique())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("product_images_product_idx")
    .on("product_images")
    .columns(["product_id", "position"])
    .execute();

  await db.schema.alterTable("orders").addColumn("carrier", "text").execute();
  await db.schema.alterTable("orders").addColumn("tracking_number", "text").execute();
  await db.schema.alterTable("orders").addColumn("updated_at", "text").execute();
  await db.schema
    .createTable("order_events")
    .addColumn("id", serial, id)
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    /** "staff:<user id>", "user:<id>", "guest", "system:<job>". */
    .addColumn("actor", "text")
    /** "status" | "return" | "payment" | "note". */
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("from_status", "text")
    .addColumn("to_status", "text")
    /** JSON object: carrier, tracking number, return lines, reason… */
    .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
  await db.schema.createIndex("order_events_order_idx").on("order_events").columns(["order_id", "id"]).execute();
  await db.schema
    .createTable("order_returns")
    .addColumn("id", serial, id)
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("actor", "text")
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("restock", "integer", (c) => c.notNull())
    .addColumn("note", "text")
    .execute();
  await db.schema.createIndex("order_returns_order_idx").on("order_returns").column("order_id").execute();
  await db.schema
    .createTable("order_return_lines")
    .addColumn("id", serial, id)
    .addColumn("return_id", "integer", (c) => c.notNull().references("order_returns.id").onDelete("cascade"))
    .addColumn("order_line_id", "integer", (c) => c.notNull().references("order_lines.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_return_lines_line_idx").on("order_return_lines").column("order_line_id").execute();

  await db.schema.alterTable("contact_messages").addColumn("handled_at", "text").execute();
  await db.schema.alterTable("contact_messages").addColumn("handled_by", "text").execute();
  await db.schema.alterTable("contact_messages").addColumn("replied_at", "text").execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", serial, id)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("actor_id", "text", (c) => c.notNull())
    .addColumn("actor_name", "text", (c) => c.notNull())
    /** What was done: "product.update", "order.ship", "customer.ban"… */
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("object_type", "text", (c) => c.notNull())
    .addColumn("object_id", "text", (c) => c.notNull())
    /** JSON of the changed fields before and after (null when created or removed). */
    .addColumn("before", "text")
    .addColumn("after", "text")
    .execute();
  await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_id", "id"]).execute();
  await db.schema
    .createIndex("audit_log_object_idx")
    .on("audit_log")
    .columns(["object_type", "object_id", "id"])
    .execute();
}
