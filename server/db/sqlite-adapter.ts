import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { startCheckpointer } from "./sqlite-checkpointer.ts";

/**
 * Adapts Node's built-in `node:sqlite` to the better-sqlite3 shape that Kysely's
 * SqliteDialect expects, so no native addon has to be compiled.
 */
export interface SqliteHandle extends SqliteDatabase {
  raw: DatabaseSync;
  /**
   * Runs a read on a second, read-only connection, synchronously: it sees every committed change
   * (of any process) and never a transaction still open on the main connection. Null for an
   * in-memory database, whose data no second connection can see.
   */
  readCommitted: ((sql: string) => unknown[]) | null;
}

export function openSqlite(path: string): SqliteHandle {
  const db = new DatabaseSync(path);
  // The timeout first: switching to WAL needs a lock that another connection's checkpoint may hold.
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA synchronous = NORMAL");
  // 64 MB page cache: the default 2 MB holds neither the FTS index nor the search table of a large
  // catalog, which makes every search several times slower.
  db.exec("PRAGMA cache_size = -65536");
  const onFile = path !== ":memory:" && path !== "";
  // A file database is checkpointed by a worker thread, not inside the commits of this connection.
  const checkpointer = onFile ? startCheckpointer(path) : null;
  if (checkpointer) db.exec("PRAGMA wal_autocheckpoint = 0");
  const statements = new Map<string, SqliteStatement>();
  const committed = onFile ? openCommittedReader(path) : null;

  function prepare(rawSql: string): SqliteStatement {
    const hit = statements.get(rawSql);
    if (hit) return hit;
    // Transactions take the write lock up front: a deferred one that reads and then writes can
    // fail with SQLITE_BUSY when another process got the lock in between, whatever busy_timeout says.
    const stmt = db.prepare(/^\s*begin\s*$/i.test(rawSql) ? "begin immediate" : rawSql);
    const reader = stmt.columns().length > 0;
    const wrapped: SqliteStatement = {
      reader,
      all: (params: ReadonlyArray<unknown>) => stmt.all(...toInputs(params)),
      run: (params: ReadonlyArray<unknown>) => {
        const r = stmt.run(...toInputs(params));
        return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
      },
      iterate: (params: ReadonlyArray<unknown>) => stmt.iterate(...toInputs(params)) as IterableIterator<unknown>,
    };
    if (statements.size > 500) statements.clear();
    statements.set(rawSql, wrapped);
    return wrapped;
  }

  return {
    prepare,
    close: () => {
      checkpointer?.stop();
      committed?.close();
      db.close();
    },
    raw: db,
    readCommitted: committed?.read ?? null,
  };
}

function openCommittedReader(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec("PRAGMA busy_timeout = 5000");
  const statements = new Map<string, StatementSync>();
  return {
    read: (sql: string): unknown[] => {
      let stmt = statements.get(sql);
      if (!stmt) statements.set(sql, (stmt = db.prepare(sql)));
      return stmt.all();
    },
    close: () => db.close(),
  };
}

function toInputs(params: ReadonlyArray<unknown>): SQLInputValue[] {
  if (!params.some(needsConversion)) return params as SQLInputValue[];
  return params.map((p) => {
    if (typeof p === "boolean") return p ? 1 : 0;
    if (p instanceof Date) return p.toISOString();
    if (p === undefined) return null;
    return p as SQLInputValue;
  });
}

function needsConversion(p: unknown): boolean {
  return typeof p === "boolean" || p === undefined || p instanceof Date;
}
