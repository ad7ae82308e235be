/** A test database with Better Auth's tables and an unguarded Better Auth over it, for tests that call the library directly. */
import { betterAuth } from "better-auth";
import { buildAuthOptions, type Auth } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { UNGUARDED } from "../../server/auth/sign-in-guard.ts";
import { loadConfig, type AppConfig } from "../../server/config.ts";
import type { DbKind } from "../../server/db/connection.ts";
import { OPERATOR } from "../../server/staff/cli.ts";
import { addStaff } from "../../server/staff/staff.ts";
import { freshDb, type TestDb } from "./databases.ts";

/** The configuration of a test store at this address. */
export function testAuthConfig(siteUrl: string): AppConfig {
  return loadConfig({ SITE_URL: siteUrl, NODE_ENV: "test", AUTH_SECRET: "integration-secret-0123456789abcdef0123" });
}

export async function freshAuthDb(kind: DbKind, cfg: AppConfig): Promise<{ t: TestDb; auth: Auth }> {
  const t = await freshDb(kind);
  await migrateAuth(t.db, cfg);
  return { t, auth: betterAuth(buildAuthOptions(t.db, cfg, UNGUARDED)) };
}

/** Like freshAuthDb, with boss@example.com added as an admin from the command line (named `name` when given). */
export async function freshStaffDb(kind: DbKind, cfg: AppConfig, password: string, name?: string) {
  const { t, auth } = await freshAuthDb(kind, cfg);
  const created = await addStaff(
    t.db,
    auth as never,
    { email: "boss@example.com", password, role: "admin", ...(name ? { name } : {}) },
    { actor: OPERATOR, siteUrl: cfg.siteUrl },
  );
  return { t, auth, admin: { userId: created.userId, name: "Boss" } };
}
