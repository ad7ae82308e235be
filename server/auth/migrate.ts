import { getMigrations } from "better-auth/db/migration";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { buildAuthOptions } from "./auth.ts";
import { UNGUARDED } from "./sign-in-guard.ts";

/** Creates or updates Better Auth's tables (user, session, account, verification) on the store's database. */
export async function migrateAuth(db: Db, cfg: AppConfig): Promise<void> {
  const { runMigrations } = await getMigrations(buildAuthOptions(db, cfg, UNGUARDED));
  await runMigrations();
  // The retention job (server/privacy/retention.ts) deletes expired rows by these columns.
  await db.schema.createIndex("session_expires_at_idx").ifNotExists().on("session").column("expiresAt").execute();
  await db.schema.createIndex("verification_expires_at_idx").ifNotExists().on("verification").column("expiresAt").execute();
}
