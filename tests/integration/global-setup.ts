import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDb } from "../../server/db/connection.ts";
import { migrateAll } from "../support/migrate-all.ts";

/**
 * Test files run two at a time. Each Vitest worker gets its own PostgreSQL database next to
 * TEST_DATABASE_URL's (`<name>_<run>_w1`, `<name>_<run>_w2`) for the tests that make their own
 * schemas, and every freshDb is a copy of one database migrated once per run (`<name>_<run>_tmpl`,
 * copied as `<name>_<run>_w1_<random>`). `<run>` is new for every run (its start time, then random
 * characters), so two runs against one TEST_DATABASE_URL never drop each other's databases; a run
 * that was killed before its teardown leaves its databases, and a later run drops them once they
 * are a day old. tests/integration/databases.ts picks the worker's database from
 * TEST_PG_WORKER_DATABASES (the run's token) and VITEST_POOL_ID, and the template from
 * TEST_PG_TEMPLATE_DATABASE.
 */
export function workerDatabaseUrl(baseUrl: string, runToken: string, poolId: string | number): string {
  return runDatabaseUrl(baseUrl, runToken, `w${poolId}`);
}

function runDatabaseUrl(baseUrl: string, runToken: string, suffix: string): string {
  const url = new URL(baseUrl);
  const name = url.pathname.replace(/\/+$/, "");
  url.pathname = `${name}_${runToken}_${suffix}`;
  return url.toString();
}

/** PostgreSQL cuts longer names short, which would give two databases the same name. */
const MAX_NAME_BYTES = 63;
/** `_<random>` after a worker database's name: a freshDb's copy of the template. */
const COPY_SUFFIX_BYTES = 7;
const LEFTOVER_AGE_S = 24 * 60 * 60;
const TIME_DIGITS = 7;

const runTokenAt = (seconds: number) =>
  seconds.toString(36).padStart(TIME_DIGITS, "0") + randomBytes(2).toString("hex");
const runStartedAt = (token: string) => parseInt(token.slice(0, TIME_DIGITS), 36);

async function admin<T>(baseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
const RUN_SUFFIX = new RegExp(`^_([0-9a-z]{${TIME_DIGITS}}[0-9a-f]{4})_(w\\d+(_[0-9a-f]{6})?|tmpl)$`);

/** The run's databases (`<name>_<run>_…`) of runs that started over a day ago and never dropped them. */
async function dropLeftovers(client: pg.Client, baseName: string, nowS: number): Promise<void> {
  const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database");
  for (const { datname } of rows) {
    if (!datname.startsWith(baseName)) continue;
    const token = RUN_SUFFIX.exec(datname.slice(baseName.length))?.[1];
    if (!token || nowS - runStartedAt(token) < LEFTOVER_AGE_S) continue;
    await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

async function dropRun(baseUrl: string, runToken: string): Promise<void> {
  const prefix = `${databaseName(baseUrl)}_${runToken}_`;
  await admin(baseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database");
    for (const { datname } of rows) {
      if (datname.startsWith(prefix)) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
}

/** The store's and Better Auth's migrations, once, into the database every freshDb copies. */
async function migrateTemplate(templateUrl: string): Promise<void> {
  const db = createDb({ kind: "postgres", url: templateUrl, poolSize: 1 });
  try {
    await migrateAll(db);
  } finally {
    // CREATE DATABASE … TEMPLATE fails while anything is connected to the template.
    await db.destroy();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return;
  const nowS = Math.floor(Date.now() / 1000);
  const runToken = runTokenAt(nowS);
  const workers = Math.max(1, project.config.maxWorkers);
  const names = Array.from({ length: workers }, (_, i) => databaseName(workerDatabaseUrl(baseUrl, runToken, i + 1)));
  const tooLong = names.find((name) => Buffer.byteLength(name) + COPY_SUFFIX_BYTES > MAX_NAME_BYTES);
  if (tooLong) {
    throw new Error(
      `TEST_DATABASE_URL's database name is too long: "${tooLong}" and a ${COPY_SUFFIX_BYTES}-byte suffix are over ${MAX_NAME_BYTES} bytes`,
    );
  }
  const templateUrl = runDatabaseUrl(baseUrl, runToken, "tmpl");
  const drop = () => dropRun(baseUrl, runToken);
  await admin(baseUrl, (client) => dropLeftovers(client, databaseName(baseUrl), nowS));
  try {
    await admin(baseUrl, async (client) => {
      for (const name of [...names, databaseName(templateUrl)]) await client.query(`CREATE DATABASE "${name}"`);
    });
    await migrateTemplate(templateUrl);
  } catch (error) {
    await drop();
    throw error;
  }
  process.env.TEST_PG_WORKER_DATABASES = runToken;
  process.env.TEST_PG_TEMPLATE_DATABASE = databaseName(templateUrl);
  return drop;
}
