import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Trade accounts (server/trade/): volume breaks per product (for everyone), trade price lists
 * with their rules, applications for a trade account, and the approved companies. A company's
 * members, roles and invitations are Better Auth's organization plugin tables; `companies` holds
 * what the store knows of the company, keyed by the organization's id.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const id = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());
  // What an application gives of the company, and the company keeps once approved.
  const companyDetails = (table: CreateTableBuilder<any, any>) =>
    table
      .addColumn("country", "text", (c) => c.notNull())
      .addColumn("tax_id", "text", (c) => c.notNull())
      .addColumn("billing_line1", "text", (c) => c.notNull())
      .addColumn("billing_line2", "text")
      .addColumn("billing_city", "text", (c) => c.notNull())
      .addColumn("billing_region", "text")
      .addColumn("billing_postcode", "text", (c) => c.notNull())
      .addColumn("phone", "text", (c) => c.notNull());

  await db.schema
    .createTable("volume_breaks")
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("min_quantity", "integer", (c) => c.notNull())
    .addColumn("percent_off", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("volume_breaks_pk", ["product_id", "min_quantity"])
    .execute();

  await db.schema
    .createTable("price_lists")
    .addColumn("id", serial, id)
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // One rule per target: "all", "category:<id>" or "product:<id>"; a percent off or a fixed price.
  await db.schema
    .createTable("price_list_rules")
    .addColumn("price_list_id", "integer", (c) => c.notNull().references("price_lists.id").onDelete("cascade"))
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("percent_off", "integer")
    .addColumn("fixed_cents", "integer")
    .addPrimaryKeyConstraint("price_list_rules_pk", ["price_list_id", "target"])
    .execute();

  await db.schema
    .createTable("trade_applications")
    .addColumn("id", serial, id)
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("company_name", "text", (c) => c.notNull())
    .$call(companyDetails)
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("decided_at", "text")
    .addColumn("decided_by", "text")
    .addColumn("organization_id", "text")
    .execute();
  await db.schema
    .createIndex("trade_applications_user_idx")
    .on("trade_applications")
    .columns(["user_id", "id"])
    .execute();
  await db.schema
    .createIndex("trade_applications_status_idx")
    .on("trade_applications")
    .columns(["status", "id"])
    .execute();
  // One open application per customer, whatever two tabs post at once.
  await sql`create unique index trade_applications_one_pending on trade_applications (user_id) where status = 'pending'`.execute(
    db,
  );

  await db.schema
    .createTable("companies")
    .addColumn("organization_id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "integer", (c) => c.notNull().unique().references("trade_applications.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .$call(companyDetails)
    .addColumn("price_list_id", "integer", (c) => c.references("price_lists.id").onDelete("set null"))
    .addColumn("po_required", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("net30", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("credit_limit_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}
