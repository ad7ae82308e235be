/**
 * The third e2e store, on PostgreSQL (scripts/e2e-server.mjs --postgres), started when
 * TEST_DATABASE_URL is set, as in `npm test`: its address, and SQL straight into its database.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { POSTGRES_PORT } from "../../../playwright.config.ts";

export const POSTGRES_BASE = `http://127.0.0.1:${POSTGRES_PORT}`;
/** Specs on this store skip themselves without it: `test.skip(!HAS_POSTGRES_STORE, …)`. */
export const HAS_POSTGRES_STORE = Boolean(process.env.TEST_DATABASE_URL);

export async function pgQuery<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({
    connectionString: readFileSync(path.resolve(".tmp", `e2e-${POSTGRES_PORT}`, "database-url"), "utf8").trim(),
  });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** pgQuery with `?` placeholders, as statements shared with the SQLite store write them. */
export const pgStoreSql = (text: string, values: unknown[]) => {
  let n = 0;
  return pgQuery(
    text.replace(/\?/g, () => `$${++n}`),
    values,
  );
};
