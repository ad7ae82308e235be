import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { Kysely, SqliteDialect } from "kysely";
import pg from "pg";
import { createDb, type Db, type DbKind } from "../../server/db/connection.ts";
import type { Database } from "../../server/db/schema.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { openSqlite } from "../../server/db/sqlite-adapter.ts";
import { migrateAll } from "../support/migrate-all.ts";
import { workerDatabaseUrl } from "./global-setup.ts";

export { migrateAll };

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
  /** PostgreSQL: the database's URL, for a second handle on it (another pool, another process). */
  url?: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database: in-memory SQLite, or a database of its own in the test PostgreSQL. */
export async function freshDb(kind: DbKind): Promise<TestDb> {
  return kind === "sqlite" ? freshSqlite() : freshPostgres();
}

/** A fresh database (see freshDb) with `products` seeded products; dropped again if seeding fails. */
export async function freshSeededDb(kind: DbKind, products: number): Promise<TestDb> {
  const t = await freshDb(kind);
  try {
    await seedCatalog(t.db, { products });
  } catch (error) {
    await t.drop();
    throw error;
  }
  return t;
}

/** The mails queued to this address, oldest first. */
export const mailsTo = (db: Db, address: string) =>
  db
    .selectFrom("mail_queue")
    .select(["subject", "text_body"])
    .where("to_address", "=", address)
    .orderBy("id")
    .execute();

/** How many rows the table holds. */
export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

let sqliteTemplate: Promise<Uint8Array> | undefined;

/** This process migrates one in-memory database; every freshDb opens a copy of its bytes. */
function migratedSqlite(): Promise<Uint8Array> {
  sqliteTemplate ??= (async () => {
    const handle = openSqlite(":memory:");
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
    await migrateAll(db);
    const bytes = handle.raw.serialize();
    await db.destroy();
    return bytes;
  })();
  return sqliteTemplate;
}

async function freshSqlite(): Promise<TestDb> {
  const template = await migratedSqlite();
  // As createDb opens ":memory:" (same pragmas), with the migrated tables loaded into it.
  const handle = openSqlite(":memory:");
  handle.raw.deserialize(template);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  return { db, kind: "sqlite", drop: () => db.destroy() };
}

async function adminQuery<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(name: string, template?: string): Promise<void> {
  await adminQuery(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
}

/**
 * Drops a test database once its pools have really closed: pool.end() resolves before the server
 * has seen every connection go, and a FORCE drop that terminates one still closing surfaces as an
 * uncaught error in that connection.
 */
export async function dropTestDatabase(name: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const [row] = await adminQuery<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
      [name],
    );
    if (!row?.n) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

async function freshPostgres(): Promise<TestDb> {
  const template = process.env.TEST_PG_TEMPLATE_DATABASE;
  if (!pgUrl || !template)
    throw new Error("freshDb on PostgreSQL needs the template tests/integration/global-setup.ts makes");
  const url = new URL(pgUrl);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_${randomBytes(3).toString("hex")}`;
  url.pathname = `/${name}`;
  await createTestDatabase(name, template);
  const db = createDb({ kind: "postgres", url: url.toString(), poolSize: 25 });
  return {
    db,
    kind: "postgres",
    url: url.toString(),
    async drop() {
      await db.destroy();
      await dropTestDatabase(name);
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
