import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

export async function up(_db: Kysely<any>, _kind: DbKind): Promise<void> {
  // Filled in by the issue that owns these tables.
}
