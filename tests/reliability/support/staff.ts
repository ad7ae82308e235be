/**
 * Staff accounts for the back office, made the way an operator would: by giving a signed-up
 * account a role in the database. The store has no roles yet; once the `user` table has a `role`
 * column, the fuzzer and the double-submit pass reach the back office as an admin without an edit.
 */
import { sql } from "kysely";
import type { Db } from "../../../server/db/connection.ts";
import type { PromoteToStaff } from "../fuzz/identities.ts";

export function staffPromoter(db: Db, role = process.env.RELIABILITY_STAFF_ROLE ?? "admin"): PromoteToStaff {
  let hasRoles: Promise<boolean> | undefined;
  return async (email) => {
    hasRoles ??= db.introspection
      .getTables()
      .then((tables) => Boolean(tables.find((t) => t.name === "user")?.columns.some((c) => c.name === "role")));
    if (!(await hasRoles)) return false;
    try {
      const result = await sql`update "user" set role = ${role} where email = ${email.toLowerCase()}`.execute(db);
      return Number(result.numAffectedRows ?? 0) > 0;
    } catch {
      return false;
    }
  };
}
