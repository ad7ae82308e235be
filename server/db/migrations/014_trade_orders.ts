import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Trade orders: a purchase-order number and the company on each order, per-buyer spending limits,
 * and the approval an order above its buyer's limit waits for (status `awaiting_approval`,
 * holding no stock until an approver approves it).
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema.alterTable("orders").addColumn("po_number", "text").execute();
  await db.schema.alterTable("orders").addColumn("organization_id", "text").execute();
  await db.schema
    .createIndex("orders_organization_status_idx")
    .on("orders")
    .columns(["organization_id", "status", "created_at"])
    .execute();

  await db.schema
    .createTable("spending_limits")
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("per_order_cents", "integer", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("spending_limits_pk", ["organization_id", "user_id"])
    .execute();

  await db.schema
    .createTable("order_approvals")
    .addColumn("order_id", "integer", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("buyer_user_id", "text", (c) => c.notNull())
    .addColumn("limit_cents", "integer", (c) => c.notNull())
    .addColumn("decision", "text")
    .addColumn("decided_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}
