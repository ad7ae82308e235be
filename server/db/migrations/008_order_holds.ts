import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Order states with a version (server/orders/states.ts), stock holds that end at
 * hold_expires_at (a guest's order awaiting email confirmation; later, orders awaiting payment),
 * and the stock ledger (server/inventory/stock.ts): one row per stock change, written in the
 * same transaction as the change.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  // Bumped by every status change; a change applies only to the version its actor read.
  await db.schema
    .alterTable("orders")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // ISO-8601 UTC; set while the order holds stock without being placed.
  await db.schema.alterTable("orders").addColumn("hold_expires_at", "text").execute();
  // SHA-256 of the token in the guest's confirmation link (the order page's own link cannot confirm).
  await db.schema.alterTable("orders").addColumn("confirm_token_hash", "text").execute();
  await db.schema.createIndex("orders_hold_idx").on("orders").columns(["status", "hold_expires_at"]).execute();

  await db.schema
    .createTable("stock_movements")
    .addColumn("id", serial, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id"))
    .addColumn("delta", "integer", (c) => c.notNull())
    .addColumn("stock_before", "integer", (c) => c.notNull())
    .addColumn("stock_after", "integer", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("actor", "text")
    .addColumn("note", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("stock_movements_product_idx")
    .on("stock_movements")
    .columns(["product_id", "id"])
    .execute();
  await db.schema.createIndex("stock_movements_order_idx").on("stock_movements").column("order_id").execute();
}
