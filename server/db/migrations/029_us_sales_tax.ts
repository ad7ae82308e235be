import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { US_STATES } from "../../tax/us-states.ts";

/**
 * US sales tax (issue 51): each state's rate, whether it taxes delivery and whether the store
 * collects there (staff choose; none at first), and the local rates of ZIP codes that staff
 * import from a CSV. `version` guards staff edits against stale forms.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema
    .createTable("tax_us_states")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("rate_ppm", "integer", (c) => c.notNull())
    .addColumn("shipping_taxable", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("collect", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text")
    .execute();
  await db
    .insertInto("tax_us_states")
    .values(
      US_STATES.map((s) => ({
        code: s.code,
        name: s.name,
        rate_ppm: s.ratePpm,
        shipping_taxable: s.shippingTaxable ? 1 : 0,
      })),
    )
    .execute();
  await db.schema
    .createTable("tax_us_local_rates")
    .addColumn("zip", "text", (c) => c.primaryKey())
    .addColumn("state", "text", (c) => c.notNull().references("tax_us_states.code"))
    .addColumn("region", "text", (c) => c.notNull())
    .addColumn("rate_ppm", "integer", (c) => c.notNull())
    .addColumn("imported_at", "text", (c) => c.notNull())
    .execute();
}
