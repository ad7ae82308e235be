import { getMigrations } from "better-auth/db/migration";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { buildAuthOptions } from "./auth.ts";

/** Creates or updates Better Auth's tables (user, session, account, verification) on the store's database. */
export async function migrateAuth(db: Db, cfg: AppConfig): Promise<void> {
  const noLimiter = { hit: async () => ({ allowed: true, remaining: 1, retryAfterSeconds: 0 }) };
  const { runMigrations } = await getMigrations(buildAuthOptions(db, cfg, noLimiter));
  await runMigrations();
}
