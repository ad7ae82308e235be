import pg from "pg";

/**
 * Test files run two at a time. Each Vitest worker gets its own PostgreSQL database next to
 * TEST_DATABASE_URL's (`<name>_w1`, `<name>_w2`): a file's schema being dropped must not break
 * another file that is reading the catalog of every schema at that moment (Better Auth's
 * migrations introspect them all). tests/integration/databases.ts picks the worker's database.
 */
export const WORKERS = 2;

export function workerDatabaseUrl(baseUrl: string, poolId: string | number): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname}_w${poolId}`;
  return url.toString();
}

async function admin(baseUrl: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return;
  const names = Array.from({ length: WORKERS }, (_, i) => databaseName(workerDatabaseUrl(baseUrl, i + 1)));
  const drop = () => admin(baseUrl, names.map((name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  await drop();
  await admin(baseUrl, names.map((name) => `CREATE DATABASE "${name}"`));
  process.env.TEST_PG_WORKER_DATABASES = "1";
  return drop;
}
