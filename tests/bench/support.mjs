// What the benchmark scripts share: logging, the build check, and starting and stopping the
// production server in its own process group (so its cluster workers stop with it).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { signalGroup, spawnStore, tail, waitForExit } from "../support/store-process.mjs";

export { tail };

export const root = path.resolve(import.meta.dirname, "../..");

/** Where the scripts keep their databases, logs and reports. */
export const benchDir = path.join(root, ".tmp/bench");
export const BENCH_BUILD_DIR = process.env.BUILD_DIR || "build";
export const BENCH_PG_BASE = (process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432").replace(/\/+$/, "");
export const BENCH_AUTH_SECRET = "bench-only-secret-0123456789abcdef0123456789";

export function log(line = "") {
  process.stdout.write(`${line}\n`);
}

/** Throws an error the scripts print without a stack: the script itself could not run. */
export function fail(message) {
  const error = new Error(message);
  error.benchFailure = true;
  throw error;
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((max, name) => Math.max(max, newestMtime(path.join(target, name))), stat.mtimeMs);
}

/** Builds into buildDir when its server entry is missing or BENCH_REBUILD=1; warns when it is stale. */
export function ensureBuild(buildDir) {
  const serverEntry = path.join(path.resolve(root, buildDir), "server/index.js");
  if (existsSync(serverEntry) && process.env.BENCH_REBUILD !== "1") {
    const sources = ["app", "package.json", "vite.config.ts", "react-router.config.ts"].map((p) => path.join(root, p));
    const stale = statSync(serverEntry).mtimeMs < Math.max(...sources.map(newestMtime));
    log(
      `Using the existing build in ${buildDir}${stale ? " (older than app/ sources: set BENCH_REBUILD=1 to rebuild)" : ""}`,
    );
    return;
  }
  log(`» Building into ${buildDir}`);
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir },
  });
  if (result.status !== 0 || !existsSync(serverEntry))
    fail(`the build failed (exit ${result.status ?? result.signal})`);
}

/**
 * Starts `node server/http/main.ts` in production mode on 127.0.0.1:port, logs to logPath, and
 * waits for /healthz. `env` adds or overrides variables (SQLITE_PATH, WEB_CONCURRENCY …).
 * `appRoot` (default: this checkout) is the checkout whose server runs, e.g. a worktree of an
 * older commit measured side by side; a relative buildDir is resolved against it.
 */
export async function startStoreServer({ buildDir, port, env, logPath, timeoutMs = 120_000, appRoot = root }) {
  const siteUrl = `http://127.0.0.1:${port}`;
  if (await answers(`${siteUrl}/healthz`)) fail(`${siteUrl} already answers: stop the server on port ${port} first`);
  const child = spawnStore({
    appRoot,
    port,
    logPath,
    env: {
      BUILD_DIR: buildDir,
      SITE_URL: siteUrl,
      DATABASE_URL: "",
      SMTP_URL: "",
      OUTBOX_DIR: path.join(root, ".tmp/bench/outbox"),
      AUTH_SECRET: process.env.AUTH_SECRET || "bench-only-secret-0123456789abcdef0123456789",
      ...env,
    },
  });
  startedGroups.add(child.pid);
  let exited = null;
  child.on("exit", (code, signal) => (exited = { code, signal }));
  log(`» Starting the server on ${siteUrl} (pid ${child.pid}, log ${path.relative(root, logPath)})`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) fail(`the server exited during start-up (${exited.code ?? exited.signal}):\n${tail(logPath)}`);
    if (await answers(`${siteUrl}/healthz`)) {
      if (!exited) return child;
    } else {
      await sleep(250);
    }
  }
  killNow(child.pid);
  fail(`/healthz did not answer within ${Math.round(timeoutMs / 1000)} s:\n${tail(logPath)}`);
}

/**
 * The static ceiling a bench compares pages with: a copy of what `fromPath` answers (the same bytes)
 * written into the build's client folder as `name`, which the same server then serves through
 * express.static. Checks it comes back unchanged; the caller removes `file` when done.
 */
export async function writeStaticCopy({ siteUrl, clientDir, fromPath, name }) {
  const res = await fetch(`${siteUrl}${fromPath}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) fail(`${fromPath} answered ${res.status}; cannot make its static copy`);
  const file = path.join(clientDir, name);
  writeFileSync(file, body);
  const check = await fetch(`${siteUrl}/${name}`);
  const served = Buffer.from(await check.arrayBuffer());
  if (check.status !== 200 || !served.equals(body)) {
    rmSync(file, { force: true });
    fail(`/${name} answered ${check.status} with ${served.length} bytes, expected the ${body.length} written`);
  }
  return { bytes: body.length, file };
}

async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false; // not listening (yet)
  }
}

/**
 * The process group of every server startStoreServer started; runBenchScript kills whatever of
 * them is left when the script exits, however it exits.
 */
const startedGroups = new Set();

/** Stops a server started by startStoreServer, its workers included (also when the primary is gone). */
export async function stopStoreServer(child) {
  if (!child) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    signalGroup(child, "SIGTERM");
    if (!(await waitForExit(child, 10_000))) {
      signalGroup(child, "SIGKILL");
      await exited;
    }
  }
  // Workers may outlive the primary by a moment; wait until the group is gone.
  for (let i = 0; i < 40 && groupAlive(child.pid); i++) await sleep(250);
  killNow(child.pid);
  startedGroups.delete(child.pid);
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function printTable(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  // Columns of numbers are right-aligned, text columns left-aligned.
  const numeric = headers.map((_, i) => i > 0 && rows.every((r) => /^[\d.]+$|^n\/a$/.test(String(r[i]))));
  const pad = (c, i) => (numeric[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]));
  const line = (cells) => `| ${cells.map(pad).join(" | ")} |`;
  log(line(headers.map((h, i) => pad(h, i))));
  log(`|${widths.map((w, i) => (numeric[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`);
  for (const r of rows) log(line(r));
}

/** Kills a process group (or the process itself) with SIGKILL, if it is still there. */
export function killNow(pid, { group = true } = {}) {
  if (!pid) return;
  try {
    process.kill(group ? -pid : pid, "SIGKILL");
  } catch {
    // gone
  }
}

/**
 * Runs a benchmark script's main(): cleanup() runs when main ends or fails and on SIGINT, SIGTERM
 * or SIGHUP; lastResort() runs on exit however the process dies (it must be synchronous: kill what
 * is left). Exits 0, 1 when the script itself could not run, 130 when stopped by a signal.
 */
export async function runBenchScript(name, { main, cleanup, lastResort = () => {} }) {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log(`\n${signal}: stopping what the script started…`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  process.on("exit", () => {
    lastResort();
    for (const pid of startedGroups) killNow(pid);
  });
  let exitCode = 0;
  try {
    await main();
  } catch (error) {
    exitCode = 1;
    console.error(`\n${name}: ${error?.benchFailure ? error.message : (error?.stack ?? error)}`);
  } finally {
    await cleanup();
  }
  process.exit(exitCode);
}

/**
 * A fresh, empty database for a bench inside this process: a SQLite file .tmp/bench/<name>.db,
 * or a schema of its own in BENCH_PG_URL's "postgres" database, dropped again by `drop()`.
 */
export async function freshBenchDb(kind, name, { poolSize = 10 } = {}) {
  const { createDb } = await import("../../server/db/connection.ts");
  if (kind === "sqlite") {
    mkdirSync(benchDir, { recursive: true });
    const file = path.join(benchDir, `${name}.db`);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    const db = createDb({ kind, sqlitePath: file });
    return { db, drop: () => db.destroy() };
  }
  const { default: pg } = await import("pg");
  const url = `${BENCH_PG_BASE}/postgres`;
  const schema = `bench_${name.replace(/\W/g, "_")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const db = createDb({ kind, url, pgSchema: schema, poolSize });
  return {
    db,
    async drop() {
      await db.destroy();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

/** A numeric command-line flag (`--samples 10`), or the fallback. */
export function numberFlag(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The p-th percentile of an ascending list (nearest rank). */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Makes benchDir, logs the script's title with the machine it runs on, and checks the build. */
function startBenchRun(title) {
  mkdirSync(benchDir, { recursive: true });
  log(
    `${title} — ${new Date().toISOString()} — ${cpus().length} cores, Node ${process.versions.node}, load average ${loadAverage()}`,
  );
  ensureBuild(BENCH_BUILD_DIR);
}

/**
 * Runs benchDatabase(kind, serverEnv, openDb) on the trade catalog's databases the flags leave in
 * (.tmp/bench/trade-100k.db, toolstore_bench_trade: --skip-sqlite, --skip-pg); returns the results.
 */
async function onTradeDatabases(benchDatabase, createDb) {
  const args = process.argv.slice(2);
  const summary = [];
  if (!args.includes("--skip-sqlite")) {
    const file = path.join(benchDir, "trade-100k.db");
    summary.push(
      await benchDatabase("sqlite", { SQLITE_PATH: file }, () => createDb({ kind: "sqlite", sqlitePath: file })),
    );
  }
  if (!args.includes("--skip-pg")) {
    const url = await ensurePgDatabase(BENCH_PG_BASE, "toolstore_bench_trade");
    summary.push(
      await benchDatabase("postgres", { DATABASE_URL: url }, () => createDb({ kind: "postgres", url, poolSize: 2 })),
    );
  }
  return summary;
}

/**
 * A script measured on the trade catalog's databases (see onTradeDatabases), run by runBenchScript:
 * benchDatabase(kind, env, open, session) keeps the server and database it opens in `session`,
 * which is closed when the script ends or fails; report(results) prints the summary.
 */
export async function runTradeBench(name, title, { benchDatabase, report }) {
  const { createDb } = await import("../../server/db/connection.ts");
  const session = { server: null, db: null };
  const close = async () => {
    await stopStoreServer(session.server).catch(() => undefined);
    session.server = null;
    await session.db?.destroy().catch(() => undefined);
    session.db = null;
  };
  await runBenchScript(name, {
    async main() {
      startBenchRun(title);
      report(await onTradeDatabases((kind, env, open) => benchDatabase(kind, env, open, { session, close }), createDb));
      log(`\nLoad average after: ${loadAverage()}`);
    },
    cleanup: close,
    lastResort() {
      killNow(session.server?.pid);
    },
  });
}

/** Seeds `products` products on kind's database (reused when there), then opens it with `open`. */
export function openSeeded(kind, env, open, products) {
  log(`\n» ${kind}: load average ${loadAverage()} at the start`);
  seedProducts(kind, env, { products, authSecret: BENCH_AUTH_SECRET });
  return open();
}

/** How many products the database holds. */
export async function countProducts(db) {
  const row = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The production server of one script on one database: one worker, rate limits in memory, log in benchDir. */
export function startBenchServer(script, kind, port, env) {
  return startStoreServer({
    buildDir: BENCH_BUILD_DIR,
    port,
    logPath: path.join(benchDir, `${script}-${kind}.log`),
    env: { WEB_CONCURRENCY: "1", REDIS_URL: "", AUTH_SECRET: BENCH_AUTH_SECRET, ...env },
  });
}

/** `npm run seed -- --products N` on the database `env` names (reused when already seeded). */
export function seedProducts(kind, env, { products, authSecret }) {
  log(`» Seeding ${kind} (${products.toLocaleString("en-US")} products; reused when already there)`);
  const result = spawnSync(
    process.execPath,
    ["--experimental-strip-types", "server/db/seed/cli.ts", "--products", String(products)],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, AUTH_SECRET: authSecret, DATABASE_URL: "", ...env },
    },
  );
  if (result.status !== 0) fail(`seeding ${kind} failed`);
}

/** The URL of a PostgreSQL database on the server at pgBase, created when missing. */
export async function ensurePgDatabase(pgBase, name) {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: `${pgBase}/postgres` });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
  if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  await admin.end();
  return `${pgBase}/${name}`;
}

/** Draws from `values` with Zipf(s) popularity: the k-th most popular is asked for ∝ 1/k^s. Ranks are shuffled over the ids. */
export function zipfSampler(values, s) {
  let seed = 20261126;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const byRank = [...values];
  for (let i = byRank.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [byRank[i], byRank[j]] = [byRank[j], byRank[i]];
  }
  const cdf = new Float64Array(byRank.length);
  let sum = 0;
  for (let k = 0; k < byRank.length; k++) cdf[k] = sum += 1 / (k + 1) ** s;
  return () => {
    const u = Math.random() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return byRank[lo];
  };
}
