import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { createDb, type Db, type DbKind } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import { workerDatabaseUrl } from "./global-setup.ts";

/** The test PostgreSQL: this Vitest worker's own database when global-setup.ts made one. */
export const pgUrl =
  process.env.TEST_DATABASE_URL && process.env.TEST_PG_WORKER_DATABASES && process.env.VITEST_POOL_ID
    ? workerDatabaseUrl(process.env.TEST_DATABASE_URL, process.env.TEST_PG_WORKER_DATABASES, process.env.VITEST_POOL_ID)
    : process.env.TEST_DATABASE_URL;

/** The dialects this run tests: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const dialects: DbKind[] = pgUrl ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestDb {
  db: Db;
  kind: DbKind;
  drop(): Promise<void>;
}

// Better Auth's tables exist in every running store (server start migrates both), and the order
// and pricing code reads them (a buyer's company comes from the organization plugin's member table).
const authConfig = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "databases-secret-0123456789abcdef0123456" });
/** The store's migrations and Better Auth's tables, as server start runs them. */
export async function migrateAll(db: Db): Promise<void> {
  await migrateToLatest(db);
  await migrateAuth(db, authConfig);
}

/** A fresh, migrated database: in-memory SQLite, or a throwaway schema in the test PostgreSQL. */
export async function freshDb(kind: DbKind): Promise<TestDb> {
  if (kind === "sqlite") {
    const db = createDb({ kind, sqlitePath: ":memory:" });
    await migrateAll(db);
    return { db, kind, drop: () => db.destroy() };
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = createDb({ kind, url: pgUrl, pgSchema: schema, poolSize: 25 });
  await migrateAll(db);
  return {
    db,
    kind,
    async drop() {
      await db.destroy();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

export const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether the test Redis answers (tests that need it are skipped otherwise). */
export async function redisUp(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
