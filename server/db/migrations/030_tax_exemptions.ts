import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * US sales-tax exemption (resale) certificates (issue 51): a trade company uploads one per state;
 * staff verify or reject it; a verified one that hasn't expired removes sales tax from that
 * company's orders delivered to its state. The file itself is kept under UPLOAD_DIR.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const id = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable("tax_exemption_certificates")
    .addColumn("id", serial, id)
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull().references("tax_us_states.code"))
    .addColumn("number", "text", (c) => c.notNull())
    .addColumn("expires_on", "text", (c) => c.notNull())
    .addColumn("file_key", "text", (c) => c.notNull())
    .addColumn("file_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("reason", "text")
    .addColumn("uploaded_by", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .addColumn("decided_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("reminded_at", "text")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("tax_exemption_certificates_company_idx")
    .on("tax_exemption_certificates")
    .columns(["organization_id", "state"])
    .execute();
  await db.schema
    .createIndex("tax_exemption_certificates_status_idx")
    .on("tax_exemption_certificates")
    .columns(["status", "uploaded_at"])
    .execute();
}
