import { getMigrations } from "better-auth/db/migration";
import type { AppConfig } from "../config.ts";
import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { STAFF_ROLE_NAMES } from "../../app/lib/auth-rules.ts";
import { authDate } from "../privacy/retention.ts";
import { buildAuthOptions } from "./auth.ts";
import { staffSessionEnd, toDate } from "./staff-sessions.ts";
import { UNGUARDED } from "./sign-in-guard.ts";

/** Creates or updates Better Auth's tables (user, session, account, verification) on the store's database. */
export async function migrateAuth(db: Db, cfg: AppConfig): Promise<void> {
  const { runMigrations } = await getMigrations(buildAuthOptions(db, cfg, UNGUARDED));
  await runMigrations();
  await endOldStaffSessions(db);
  // The retention job (server/privacy/retention.ts) deletes expired rows by these columns.
  await db.schema.createIndex("session_expires_at_idx").ifNotExists().on("session").column("expiresAt").execute();
  await db.schema
    .createIndex("verification_expires_at_idx")
    .ifNotExists()
    .on("verification")
    .column("expiresAt")
    .execute();
  // The back office's customer list, newest first, and its search by name or email (pg_trgm on
  // PostgreSQL, created in public by migration 004; SQLite scans, within budget at 100k accounts).
  // A buyer's company is looked up on every priced page (server/trade/prices.ts).
  await db.schema.createIndex("member_user_idx").ifNotExists().on("member").columns(["userId", "createdAt"]).execute();
  await db.schema
    .createIndex("invitation_organization_idx")
    .ifNotExists()
    .on("invitation")
    .columns(["organizationId", "status"])
    .execute();
  await db.schema.createIndex("user_created_idx").ifNotExists().on("user").columns(["createdAt", "id"]).execute();
  if (dbKind(db) === "postgres") {
    await sql`create index if not exists user_name_trgm_idx on "user" using gin (name public.gin_trgm_ops)`.execute(db);
    await sql`create index if not exists user_email_trgm_idx on "user" using gin (email public.gin_trgm_ops)`.execute(
      db,
    );
  }
}

/** Staff sessions made before the 12-hour rule (staff-sessions.ts) end 12 hours after they began, like every later one. */
async function endOldStaffSessions(db: Db): Promise<void> {
  const sessions = await db
    .selectFrom("session as s")
    .innerJoin("user as u", "u.id", "s.userId")
    .select(["s.id", "s.createdAt", "s.expiresAt"])
    .where("u.role", "in", [...STAFF_ROLE_NAMES])
    .execute();
  for (const session of sessions) {
    const end = staffSessionEnd(toDate(session.createdAt) ?? new Date(0));
    const expiresAt = toDate(session.expiresAt);
    if (expiresAt && expiresAt > end)
      await db
        .updateTable("session")
        .set({ expiresAt: authDate(db, end) })
        .where("id", "=", session.id)
        .execute();
  }
}
