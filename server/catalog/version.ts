import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { committedReaderOf } from "../db/committed-read.ts";
import { sharedFreshRead } from "../db/shared-read.ts";

/**
 * The catalog version is the sum of these many rows (migration 019). Every bump adds one to one
 * row, so the sum moves with every committed change, and changes to different products take
 * different row locks instead of all queueing for one until they commit.
 */
export const CATALOG_VERSION_STRIPES = 16;

/**
 * Call inside the transaction that changes stock or prices, so cached pages are not served stale.
 * `key` (a product id) picks the row; without one, any row.
 */
export async function bumpCatalogVersion(db: Kysely<Database>, key?: number): Promise<void> {
  await db
    .updateTable("catalog_version")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", catalogVersionRow(key))
    .execute();
}

/** The row a bump for `key` adds to (a random one without a key). */
export function catalogVersionRow(key?: number): number {
  const pick = key ?? Math.floor(Math.random() * CATALOG_VERSION_STRIPES);
  return 1 + (Math.abs(Math.trunc(pick)) % CATALOG_VERSION_STRIPES);
}

const CATALOG_VERSION_SQL = 'select sum(version) as "version" from "catalog_version"';

/**
 * The catalog version now, as committed: every cached page, suggestion and word look-up asks on
 * every request, so a change committed in any process is seen at once.
 */
export function readCatalogVersion(db: Kysely<Database>): Promise<number> {
  const now = committedCatalogVersion(db);
  return now === undefined ? sharedVersionRead(db) : Promise.resolve(now);
}

/**
 * The committed catalog version at once, where the database can answer synchronously (a SQLite
 * file: a read of 16 rows on a read-only connection, without Kysely's queue and promises, which
 * cost more than the read). Undefined where it cannot (PostgreSQL, in memory, a transaction).
 */
export function committedCatalogVersion(db: Kysely<Database>): number | undefined {
  const read = committedReaderOf(db);
  if (!read) return undefined;
  const [row] = read(CATALOG_VERSION_SQL) as { version: number | null }[];
  return Number(row?.version ?? 0);
}

/**
 * Through the handle: requests that ask at the same time in one process share a round trip (never
 * one begun before their call, so a committed change is always seen). Marked pure so that a client
 * bundle which reaches this module drops the call, and Kysely with it
 * (tests/reliability/client-bundle.test.ts).
 */
const sharedVersionRead = /* @__PURE__ */ sharedFreshRead(async (db: Kysely<Database>): Promise<number> => {
  const { rows } = await sql<{ version: number | null }>`${sql.raw(CATALOG_VERSION_SQL)}`.execute(db);
  return Number(rows[0]?.version ?? 0);
});
