import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Second-factor codes already accepted, each claimed once (server/auth/code-guard.ts): a TOTP code
 * is accepted for about 90 seconds, and a code's time step (or a backup code) can't be used twice,
 * even by two requests at the same moment. Only a hash of the account and code is kept, and only
 * until the code could no longer be accepted (`expires_at`, epoch milliseconds).
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema
    .createTable("second_factor_codes")
    .addColumn("claim", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("second_factor_codes_user_idx")
    .on("second_factor_codes")
    .columns(["user_id", "expires_at"])
    .execute();
}
