import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Saved lists (server/trade/saved-lists.ts): a customer's named lists of products and quantities
 * ("Van restock"), shared with their company when `organization_id` is set, added to the cart as a
 * whole. One name per owner, whatever its case.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const id = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable("saved_lists")
    .addColumn("id", serial, id)
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("saved_lists_user_name_uq", ["user_id", "name"])
    .execute();
  // "Van restock" and "van restock" are one name for one owner (the same SQL on both databases).
  await sql`create unique index saved_lists_user_lower_name on saved_lists (user_id, lower(name))`.execute(db);
  await db.schema.createIndex("saved_lists_organization_idx").on("saved_lists").columns(["organization_id"]).execute();

  await db.schema
    .createTable("saved_list_lines")
    .addColumn("list_id", "integer", (c) => c.notNull().references("saved_lists.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("color", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("saved_list_lines_pk", ["list_id", "product_id", "color"])
    .execute();
}
