import type { Db } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";

// Better Auth's tables exist in every running store (server start migrates both), and the order
// and pricing code reads them (a buyer's company comes from the organization plugin's member table).
const authConfig = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "databases-secret-0123456789abcdef0123456" });

/** The store's migrations and Better Auth's tables, as server start runs them. */
export async function migrateAll(db: Db): Promise<void> {
  await migrateToLatest(db);
  await migrateAuth(db, authConfig);
}
