import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** Call inside the transaction that changes stock or prices, so cached pages are not served stale. */
export async function bumpCatalogVersion(db: Kysely<Database>): Promise<void> {
  await db.updateTable("catalog_version").set((eb) => ({ version: eb("version", "+", 1) })).where("id", "=", 1).execute();
}

export async function readCatalogVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("catalog_version").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version ?? 0;
}
