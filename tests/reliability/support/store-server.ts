/**
 * The built store, started in its own process for one reliability test: its own free port, its
 * own fresh database (an SQLite file, or a throwaway schema in TEST_DATABASE_URL), mail to an
 * outbox folder, a local OpenID provider standing in for Google, and rate limits high enough for
 * a test that sends thousands of requests. Start and stop reuse tests/bench/support.mjs; every
 * server started here is killed when the test process exits, whatever happened.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { killNow, root, startStoreServer, stopStoreServer, tail } from "../../bench/support.mjs";
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider } from "../../support/fake-services.mjs";
import { createDb, type Db, type DbKind } from "../../../server/db/connection.ts";

const pgUrl = process.env.TEST_DATABASE_URL || "";
/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. RELIABILITY_DB=sqlite|postgres keeps one. */
export const storeDialects: DbKind[] = (pgUrl ? (["sqlite", "postgres"] as DbKind[]) : (["sqlite"] as DbKind[])).filter(
  (k) => !process.env.RELIABILITY_DB || process.env.RELIABILITY_DB === k,
);

const buildDir = process.env.BUILD_DIR ?? "build";
const workDir = path.join(root, ".tmp", "reliability");

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) killNow(child.pid);
});

/** Ports this suite may use (the machine's other suites keep to their own ranges). */
const PORT_RANGE = {
  first: Number(process.env.RELIABILITY_PORT_FIRST ?? 3900),
  last: Number(process.env.RELIABILITY_PORT_LAST ?? 3999),
};
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port of PORT_RANGE that nothing listens on and this process has not handed out yet. */
export async function freePort(): Promise<number> {
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = PORT_RANGE.first + ((start + i) % size);
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${PORT_RANGE.first}-${PORT_RANGE.last}`);
}

interface StoreDatabase {
  kind: DbKind;
  /** Variables that point the server at this database. */
  env: Record<string, string>;
  /** A Kysely handle on the same database, for the test's own checks. */
  open(): Db;
  drop(): Promise<void>;
}

/** A fresh, empty database: the server migrates and seeds it at start-up. */
async function freshStoreDatabase(kind: DbKind, dir: string): Promise<StoreDatabase> {
  if (kind === "sqlite") {
    const sqlitePath = path.join(dir, "store.db");
    return {
      kind,
      env: { SQLITE_PATH: sqlitePath, DATABASE_URL: "" },
      open: () => createDb({ kind, sqlitePath }),
      drop: async () => undefined,
    };
  }
  if (!pgUrl) throw new Error("TEST_DATABASE_URL is not set");
  const schema = `rel_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    kind,
    env: { DATABASE_URL: url.href },
    open: () => createDb({ kind, url: pgUrl, pgSchema: schema, poolSize: 4 }),
    async drop() {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

export interface RunningStore {
  baseUrl: string;
  port: number;
  dir: string;
  database: StoreDatabase;
  /** The log of the current (or last) server process. */
  readonly logPath: string;
  /** The last lines the server logged. */
  logTail(lines?: number): string;
  /** Starts the server again on the same port and database (after crash() or stop()). */
  restart(): Promise<void>;
  /** kill -9 of the server's process group, as a power cut would; resolves once it is gone. */
  crash(): Promise<void>;
  /** Stops the server, the fake Google, and drops a PostgreSQL schema. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartStoreOptions {
  /** Names the working folder under .tmp/reliability/. */
  name: string;
  kind: DbKind;
  /** Extra or overriding server variables. */
  env?: Record<string, string>;
}

export async function startStore({ name, kind, env = {} }: StartStoreOptions): Promise<RunningStore> {
  if (!existsSync(path.resolve(root, buildDir, "server/index.js"))) {
    throw new Error(`No production build in ${buildDir}/: run the build first (npm test does), or set BUILD_DIR.`);
  }
  const port = await freePort();
  const dir = path.join(workDir, `${name}-${kind}-${port}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const database = await freshStoreDatabase(kind, dir);
  const oidcPort = await freePort();
  const oidc = await startOidcProvider(oidcPort, path.join(dir, "oidc-identity.json"));
  const baseUrl = `http://127.0.0.1:${port}`;
  let launches = 0;
  const logPath = () => path.join(dir, `server-${launches}.log`);
  const serverEnv: Record<string, string> = {
    SITE_URL: baseUrl,
    OUTBOX_DIR: path.join(dir, "outbox"),
    SMTP_URL: "",
    REDIS_URL: process.env.REDIS_URL ?? "",
    E2E: "",
    SEED_PRODUCTS: "60",
    WEB_CONCURRENCY: "1",
    // The tests give each shopper an address of its own in X-Forwarded-For (and the fuzzer sends hostile ones).
    TRUST_PROXY: "loopback",
    CHECKOUT_IP_LIMIT: "100000",
    CHECKOUT_EMAIL_LIMIT: "100000",
    AUTH_IP_LIMIT: "100000",
    AUTH_ACCOUNT_LIMIT: "100000",
    AUTH_SECRET: "reliability-secret-0123456789abcdef0123456789",
    GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: OIDC_CLIENT_SECRET,
    GOOGLE_DISCOVERY_URL: `${oidc.url}/.well-known/openid-configuration`,
    ...database.env,
    ...env,
  };
  let child: ChildProcess | null = null;
  const launch = async () => {
    launches += 1;
    child = await startStoreServer({ buildDir, port, env: serverEnv, logPath: logPath(), timeoutMs: 90_000 });
    running.add(child);
  };
  let stopped = false;
  const store: RunningStore = {
    baseUrl,
    port,
    dir,
    database,
    get logPath() {
      return logPath();
    },
    logTail: (lines = 30) => tail(logPath(), lines),
    restart: launch,
    async crash() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((resolve) => c.once("exit", resolve));
      killNow(c.pid);
      await exited;
      running.delete(c);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const c = child;
      await stopStoreServer(c);
      if (c) running.delete(c);
      await oidc.close().catch(() => undefined);
      await database.drop().catch(() => undefined);
    },
  };
  try {
    await launch();
  } catch (error) {
    await store.stop();
    throw error;
  }
  return store;
}
