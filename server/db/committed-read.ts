/** A synchronous read of committed data: SQL in, rows out (see SqliteHandle.readCommitted). */
export type CommittedRead = (sql: string) => unknown[];

const readers = new WeakMap<object, CommittedRead>();

/** Registers the committed read beside a database handle (server/db/connection.ts). */
export function setCommittedReader(db: object, read: CommittedRead): void {
  readers.set(db, read);
}

/**
 * The committed read beside a handle: SQLite files only. Undefined for PostgreSQL, an in-memory
 * database or a transaction, whose reads must go through the handle itself.
 */
export function committedReaderOf(db: object): CommittedRead | undefined {
  return readers.get(db);
}
