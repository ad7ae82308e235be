import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { config, type AppConfig } from "../config.ts";
import type { Database } from "./schema.ts";
import { setCommittedReader } from "./committed-read.ts";
import { PreparingClient } from "./pg-prepared.ts";
import { openSqlite } from "./sqlite-adapter.ts";
import {
  createOwnerOnlyFile,
  OWNER_ONLY_DIR,
  protectSqliteFiles,
  protectStoreFilesOnce,
} from "../ops/private-files.ts";

export type Db = Kysely<Database>;
export type DbKind = "sqlite" | "postgres";

// int8 (COUNT(*), SUM) arrives as a string by default; our counts fit in a JS number.
pg.types.setTypeParser(20, (value: string) => Number(value));

export interface DbOptions {
  kind: DbKind;
  url?: string;
  sqlitePath?: string;
  /** PostgreSQL schema to use instead of public (tests isolate themselves this way). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL: named prepared statements (default on). */
  preparedStatements?: boolean;
}

const pools = new WeakMap<Db, pg.Pool>();

/** The PostgreSQL pool behind a handle (for its connection gauges); undefined on SQLite. */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

export function createDb(options: DbOptions): Db {
  if (options.kind === "postgres") {
    const prepared = options.preparedStatements !== false;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
      ...(prepared ? { Client: PreparingClient } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  const path = options.sqlitePath ?? "./data/store.db";
  if (path !== ":memory:" && !path.startsWith("file:")) {
    // Owner-only: a new database file is created 0600 (SQLite gives its -wal and -shm the same
    // mode); one from an older version, created 0644, is tightened (server/ops/private-files.ts).
    mkdirSync(dirname(path), { recursive: true, mode: OWNER_ONLY_DIR });
    createOwnerOnlyFile(path);
    protectSqliteFiles(path);
  }
  const database = openSqlite(path);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  if (database.readCommitted) setCommittedReader(db, database.readCommitted);
  return db;
}

export function dbKind(db: Db): DbKind {
  const adapter = db.getExecutor().adapter;
  return adapter.constructor.name.toLowerCase().includes("postgres") ? "postgres" : "sqlite";
}

let processDb: Db | undefined;

/**
 * The process's database handle (one pool: the server build imports server/ from source, so the
 * HTTP server and the route modules share this module). The first call also makes the store's
 * files owner-only (umask 077, older files tightened: server/ops/private-files.ts).
 */
export function getDb(cfg: AppConfig = config()): Db {
  if (!processDb) {
    // The process that serves the store's data creates its files owner-only, and tightens older ones.
    protectStoreFilesOnce(cfg);
    processDb = createDb({
      kind: cfg.databaseKind,
      url: cfg.DATABASE_URL,
      sqlitePath: cfg.SQLITE_PATH,
      preparedStatements: cfg.PG_PREPARED_STATEMENTS === "on",
    });
  }
  return processDb;
}

/**
 * Tests only: makes `getDb()` answer with `db` (a test database); undefined goes back to the
 * configured database, opened on next use. The caller owns `db` and destroys it.
 */
export function useDbForTests(db: Db | undefined): void {
  processDb = db;
}
