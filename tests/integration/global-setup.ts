import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

/**
 * Test files run two at a time. Each Vitest worker gets its own PostgreSQL database next to
 * TEST_DATABASE_URL's (`<name>_<run>_w1`, `<name>_<run>_w2`): a file's schema being dropped must
 * not break another file that is reading the catalog of every schema at that moment (Better Auth's
 * migrations introspect them all). `<run>` is new for every run, so two runs against one
 * TEST_DATABASE_URL never drop each other's databases. tests/integration/databases.ts picks the
 * worker's database from TEST_PG_WORKER_DATABASES (the run's token) and VITEST_POOL_ID.
 */
export function workerDatabaseUrl(baseUrl: string, runToken: string, poolId: string | number): string {
  const url = new URL(baseUrl);
  const name = url.pathname.replace(/\/+$/, "");
  url.pathname = `${name}_${runToken}_w${poolId}`;
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

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return;
  const runToken = randomBytes(4).toString("hex");
  const workers = Math.max(1, project.config.maxWorkers);
  const names = Array.from({ length: workers }, (_, i) =>
    databaseName(workerDatabaseUrl(baseUrl, runToken, i + 1)),
  );
  const drop = () => admin(baseUrl, names.map((name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  await admin(baseUrl, names.map((name) => `CREATE DATABASE "${name}"`));
  process.env.TEST_PG_WORKER_DATABASES = runToken;
  return drop;
}
