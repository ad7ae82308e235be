import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { CATALOG_VERSION_STRIPES } from "../../catalog/version.ts";

/**
 * The catalog version becomes the sum of several rows (server/catalog/version.ts): a stock change
 * bumps one of them, chosen by product, so concurrent orders of different products no longer queue
 * for one row lock until each commits (issue 15: PostgreSQL placed 180 orders/s through that row).
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  const rows = [];
  for (let id = 2; id <= CATALOG_VERSION_STRIPES; id++) rows.push({ id, version: 0 });
  await db.insertInto("catalog_version").values(rows).execute();
}
