// Fleet benchmark (issues 16 and 49): the store through `npm run fleet` (nginx in front of
// FLEET_BENCH_SIZE app instances on PostgreSQL and Redis, nginx's page cache on) and in embedded
// mode (one `node server/http/main.ts` on SQLite, WEB_CONCURRENCY=1, its in-process page cache on),
// each beside its ceiling in the same run: the same nginx serving the bytes of each catalog page as
// a static file.
//
// In one run, each target gets a warm-up (FLEET_BENCH_WARMUP s, default 2) and then
// FLEET_BENCH_DURATION s (default 10) of autocannon:
//   ceilings   nginx serving each catalog page's own bytes (what it answered an anonymous visitor)
//              as a file, FLEET_BENCH_CONNECTIONS (50) connections; /shop/1's again at the end
//   catalog    anonymous /, /shop, /shop/1, /shop?q=drill at FLEET_BENCH_CONNECTIONS connections:
//              req/s, % of the ceiling, p50/p99 (target: ≥ 70% and p99 ≤ 25 ms through the fleet)
//   misses     a random product with a query string of its own each request (never in any cache),
//              FLEET_BENCH_MISS_CONNECTIONS (10) connections (target: p99 ≤ 60 ms)
//   signed in  /shop/1 with a shopper's session cookie (the caches are bypassed), at
//              FLEET_BENCH_MISS_CONNECTIONS connections (target: p99 ≤ 50 ms)
// first through the fleet, then straight to the embedded server (reported beside the fleet's, with
// the same targets for comparison). The "cache" column is what nginx's access log says it did
// (cache=HIT/MISS/BYPASS … over the measured seconds) or, embedded, the X-Page-Cache of one probe.
// autocannon sends no Accept-Encoding: every answer, the static file's too, is uncompressed.
//
// On a 2-core machine nginx, the instances, the embedded server and autocannon share the two
// cores, and whatever else runs meanwhile takes its share: the load averages are printed, and the
// ceiling is measured in the same run so that the ratios hold.
//
// Environment: BUILD_DIR (build; built when missing), DATABASE_URL (or FLEET_DATABASE, default
// toolstore_fleet_bench, created on the local server), REDIS_URL, FLEET_PAGE_CACHE=off (nginx's
// page cache off), FLEET_BENCH_SIZE (2), FLEET_BENCH_PORT (nginx, 8085), FLEET_BENCH_BASE_PORT
// (instances, 3131…), FLEET_BENCH_EMBEDDED_PORT (3140), FLEET_BENCH_EMBEDDED=0 (skip embedded
// mode), FLEET_BENCH_DURATION, FLEET_BENCH_WARMUP, FLEET_BENCH_CONNECTIONS,
// FLEET_BENCH_MISS_CONNECTIONS, FLEET_BENCH_JSON (also write the figures to this file).
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import {
  ensureDatabase,
  fleetOptionsFromEnv,
  killFleetNow,
  STATIC_PREFIX,
  startFleet,
  stopFleet,
} from "../../scripts/fleet.mjs";
import { fail, log, printTable, root, runBenchScript, startStoreServer, stopStoreServer } from "./support.mjs";

const env = process.env;
const SIZE = Number(env.FLEET_BENCH_SIZE ?? 2);
const PORT = Number(env.FLEET_BENCH_PORT ?? 8085);
const BASE_PORT = Number(env.FLEET_BENCH_BASE_PORT ?? 3131);
const EMBEDDED_PORT = Number(env.FLEET_BENCH_EMBEDDED_PORT ?? 3140);
const EMBEDDED = env.FLEET_BENCH_EMBEDDED !== "0";
const DURATION = Number(env.FLEET_BENCH_DURATION ?? 10);
const WARMUP = Number(env.FLEET_BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(env.FLEET_BENCH_CONNECTIONS ?? 50);
const MISS_CONNECTIONS = Number(env.FLEET_BENCH_MISS_CONNECTIONS ?? 10);
const SEED_PRODUCTS = 600;
const dir = path.join(root, ".tmp", "fleet-bench");

/** The issue's targets (49). */
const TARGETS = { catalogShare: 70, catalogP99: 25, missP99: 60, signedInP99: 50 };
const CATALOG = ["/", "/shop", "/shop/1", "/shop?q=drill"];
const SHOPPER = { email: "bench.shopper@example.com", password: "Sturdy-Hammer-42", name: "Bench Shopper" };

let fleet = null;
let embedded = null;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loads = [];
function noteLoad(when) {
  const value = loadAverage();
  loads.push({ when, loadavg: value });
  log(`  load average (1/5/15 min) ${when}: ${value}`);
}

/** Runs autocannon; `codes` counts its request errors by code (ECONNRESET, ETIMEDOUT …). */
function cannon({ url, requests, connections, duration, headers, codes = {} }) {
  const run = autocannon({ url, connections, pipelining: 1, timeout: 10, duration, requests, headers });
  run.on("reqError", (error) => (codes[error.code ?? error.message] = (codes[error.code ?? error.message] ?? 0) + 1));
  return run;
}

/** Reads what nginx appended to its access log since `offset` and counts its cache= verdicts. */
function cacheVerdicts(logPath, offset) {
  if (!existsSync(logPath)) return null;
  const size = statSync(logPath).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(logPath, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  const counts = {};
  for (const m of buffer.toString("utf8").matchAll(/ cache=(\S+) /g)) counts[m[1]] = (counts[m[1]] ?? 0) + 1;
  return counts;
}

function summarizeVerdicts(counts) {
  const total = Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
  if (!total) return "n/a";
  const [top, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return `${top === "-" ? "none" : top} ${((100 * n) / total).toFixed(n === total ? 0 : 1)}%`;
}

const logSize = (file) => (existsSync(file) ? statSync(file).size : 0);

/**
 * One target: warm-up, then the measured run. `setup` is "fleet", "embedded" or "static";
 * `accessLog` (nginx's) gives the cache column; else `probe` (a function) does.
 */
async function measure({ setup, target, base, requests, connections, headers, accessLog, probe }) {
  process.stdout.write(`  ${setup.padEnd(9)} ${target.padEnd(26)} ${String(connections).padStart(3)} conns  `);
  await cannon({ url: base, requests, connections, duration: WARMUP, headers });
  if (accessLog) await sleep(1100); // nginx flushes its access log every second: the warm-up's lines first
  const offset = accessLog ? logSize(accessLog) : 0;
  const codes = {};
  const r = await cannon({ url: base, requests, connections, duration: DURATION, headers, codes });
  let cache = "n/a";
  if (accessLog) {
    await sleep(1100);
    cache = summarizeVerdicts(cacheVerdicts(accessLog, offset));
  } else if (probe) {
    cache = await probe();
  }
  const errors = r.errors + r.timeouts;
  // nginx closes a client's keep-alive connection after 1,000 requests (keepalive_requests, with
  // `Connection: close` on the last answer); autocannon sends its next request on it anyway and
  // counts the reset as an error. A browser opens a new connection instead.
  const resets = codes.ECONNRESET ?? 0;
  const row = {
    setup,
    target,
    connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors,
    resets,
    cache,
  };
  log(
    `${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.non2xx} non-2xx, ${errors} errors${errors ? ` ${JSON.stringify(codes)}` : ""}, cache ${cache}`,
  );
  return row;
}

// A random product with a query string of its own: never in any cache, so every request renders.
const renderEveryTime = [
  {
    method: "GET",
    setupRequest: (req) => ({
      ...req,
      path: `/shop/${1 + Math.floor(Math.random() * SEED_PRODUCTS)}?r=${Math.random().toString(36).slice(2)}`,
    }),
  },
];
const onePath = (p) => [{ method: "GET", path: p }];

/** POSTs JSON to the auth API as a browser on the site would. */
async function authPost(base, p, body) {
  const res = await fetch(`${base}${p}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(body),
    redirect: "manual",
  });
  return { res, text: await res.text() };
}

/** Signs the bench's shopper in (registering the account first when needed); returns the Cookie header. */
async function signInShopper(base) {
  let signedIn = await authPost(base, "/api/auth/sign-in/email", { email: SHOPPER.email, password: SHOPPER.password });
  if (signedIn.res.status !== 200) {
    const up = await authPost(base, "/api/auth/sign-up/email", SHOPPER);
    if (up.res.status !== 200)
      fail(`sign-up of ${SHOPPER.email} on ${base} answered ${up.res.status}: ${up.text.slice(0, 300)}`);
    signedIn = await authPost(base, "/api/auth/sign-in/email", { email: SHOPPER.email, password: SHOPPER.password });
  }
  if (signedIn.res.status !== 200)
    fail(`sign-in of ${SHOPPER.email} on ${base} answered ${signedIn.res.status}: ${signedIn.text.slice(0, 300)}`);
  const cookie = signedIn.res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
  if (!/session_token=/.test(cookie)) fail(`sign-in of ${SHOPPER.email} on ${base} set no session cookie`);
  // The session works: the account page answers 200 with it.
  const account = await fetch(`${base}/account`, { headers: { cookie }, redirect: "manual" });
  if (account.status !== 200) fail(`/account with the shopper's cookie answered ${account.status} on ${base}`);
  return cookie;
}

/**
 * The bytes each catalog page answers an anonymous visitor, written where nginx serves them as
 * files (each page is compared with nginx serving its own bytes); checks they come back the same.
 */
async function writeStaticCopies(base) {
  const copies = {};
  for (const [i, p] of CATALOG.entries()) {
    const res = await fetch(`${base}${p}`);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) fail(`${p} answered ${res.status}; cannot make its static copy`);
    const name = `page-${i}.html`;
    writeFileSync(path.join(fleet.staticDir, name), body, { mode: 0o644 });
    const check = await fetch(`${base}${STATIC_PREFIX}${name}`);
    const served = Buffer.from(await check.arrayBuffer());
    if (check.status !== 200 || !served.equals(body))
      fail(
        `${STATIC_PREFIX}${name} answered ${check.status} with ${served.length} bytes, expected the ${body.length} written`,
      );
    copies[p] = { path: `${STATIC_PREFIX}${name}`, bytes: body.length };
  }
  return copies;
}

/** The loads of one setup (fleet or embedded) on `base`. */
async function measureSetup(setup, base, { cookie, accessLog, probe }) {
  const rows = [];
  for (const p of CATALOG)
    rows.push(
      await measure({
        setup,
        target: p,
        base,
        requests: onePath(p),
        connections: CONNECTIONS,
        accessLog,
        probe: probe && (() => probe(p)),
      }),
    );
  rows.push(
    await measure({
      setup,
      target: "miss: /shop/:id?r=unique",
      base,
      requests: renderEveryTime,
      connections: MISS_CONNECTIONS,
      accessLog,
      probe: probe && (() => probe(`/shop/2?r=${Date.now()}`)),
    }),
  );
  rows.push(
    await measure({
      setup,
      target: "signed in: /shop/1",
      base,
      requests: onePath("/shop/1"),
      connections: MISS_CONNECTIONS,
      headers: { cookie },
      accessLog,
      probe: probe && (() => probe("/shop/1", cookie)),
    }),
  );
  return rows;
}

const commitOf = (dirPath) => {
  try {
    return execFileSync("git", ["-C", dirPath, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
};

/** A row's share of its ceiling: a catalog page's own file; misses and signed-in pages, the product page's. */
const shareOf = (row, ceilings) => (100 * row.rps) / (ceilings[row.target] ?? ceilings["/shop/1"]);

function verdicts(rows, ceilings) {
  const out = [];
  for (const setup of ["fleet", "embedded"]) {
    const mine = rows.filter((r) => r.setup === setup);
    if (mine.length === 0) continue;
    const note = setup === "embedded" ? " (embedded: reported beside the fleet's)" : "";
    for (const r of mine.filter((r) => CATALOG.includes(r.target))) {
      const share = shareOf(r, ceilings);
      const ok = share >= TARGETS.catalogShare && r.p99 <= TARGETS.catalogP99 && r.non2xx === 0;
      out.push({
        setup,
        check: `${r.target} at ${r.connections} conns: ${share.toFixed(1)}% of nginx serving its bytes (≥ ${TARGETS.catalogShare}%), p99 ${r.p99} ms (≤ ${TARGETS.catalogP99})${note}`,
        pass: ok,
      });
    }
    const miss = mine.find((r) => r.target.startsWith("miss"));
    if (miss)
      out.push({
        setup,
        check: `cache misses at ${miss.connections} conns: p99 ${miss.p99} ms (≤ ${TARGETS.missP99})${note}`,
        pass: miss.p99 <= TARGETS.missP99 && miss.non2xx === 0,
      });
    const signed = mine.find((r) => r.target.startsWith("signed in"));
    if (signed)
      out.push({
        setup,
        check: `signed-in product page at ${signed.connections} conns: p99 ${signed.p99} ms (≤ ${TARGETS.signedInP99})${note}`,
        pass: signed.p99 <= TARGETS.signedInP99 && signed.non2xx === 0,
      });
  }
  return out;
}

async function main() {
  const options = fleetOptionsFromEnv();
  const databaseUrl =
    env.DATABASE_URL || (await ensureDatabase(options.pgAdminUrl, env.FLEET_DATABASE ?? "toolstore_fleet_bench"));
  const commit = commitOf(root);
  const startedAt = new Date().toISOString();
  log(
    `Fleet benchmark (${root}, commit ${commit}, build ${options.buildDir}): fleet of ${SIZE} behind nginx (page cache ${options.pageCache ? "on" : "off"})${EMBEDDED ? " and embedded mode" : ""}; ` +
      `${DURATION} s per target after a ${WARMUP} s warm-up; ${CONNECTIONS} connections (${MISS_CONNECTIONS} for misses and the signed-in page); ${os.availableParallelism()} cores`,
  );
  noteLoad("at the start");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  fleet = await startFleet({
    ...options,
    size: SIZE,
    port: PORT,
    basePort: BASE_PORT,
    redisPort: BASE_PORT + 15,
    dir,
    databaseUrl,
    staticFiles: true,
    quiet: true,
    env: { SEED_PRODUCTS: String(SEED_PRODUCTS), SMTP_URL: "", AUTH_IP_LIMIT: "100000" },
  });
  const accessLog = path.join(fleet.logsDir, "nginx-access.log");
  if (EMBEDDED) {
    embedded = await startStoreServer({
      buildDir: options.buildDir,
      port: EMBEDDED_PORT,
      logPath: path.join(dir, "embedded.log"),
      env: {
        SQLITE_PATH: path.join(dir, "embedded", "store.db"),
        WEB_CONCURRENCY: "1",
        SEED_PRODUCTS: String(SEED_PRODUCTS),
        AUTH_IP_LIMIT: "100000",
        OUTBOX_DIR: path.join(dir, "embedded", "outbox"),
        // Embedded mode: no Redis, no PostgreSQL.
        REDIS_URL: undefined,
        DATABASE_URL: "",
      },
    });
  }
  const embeddedUrl = `http://127.0.0.1:${EMBEDDED_PORT}`;
  const copies = await writeStaticCopies(fleet.url);
  for (const [p, c] of Object.entries(copies))
    log(`  ceiling for ${p}: ${fleet.url}${c.path} (${c.bytes.toLocaleString("en-US")} bytes, what ${p} answered)`);
  const fleetCookie = await signInShopper(fleet.url);
  const embeddedCookie = EMBEDDED ? await signInShopper(embeddedUrl) : null;

  // Every instance (and the embedded server) gets the same warm-up straight (JIT, caches) before any figure.
  for (const base of [...fleet.instances.map((i) => i.url), ...(EMBEDDED ? [embeddedUrl] : [])]) {
    for (const p of CATALOG)
      await cannon({ url: base, requests: onePath(p), connections: MISS_CONNECTIONS, duration: WARMUP / 2 });
    await cannon({ url: base, requests: renderEveryTime, connections: MISS_CONNECTIONS, duration: WARMUP });
  }

  const rows = [];
  const ceilings = {};
  noteLoad("before the ceilings");
  for (const [p, c] of Object.entries(copies)) {
    const row = await measure({
      setup: "static",
      target: `file of ${p}`,
      base: fleet.url,
      requests: onePath(c.path),
      connections: CONNECTIONS,
    });
    rows.push(row);
    ceilings[p] = row.rps;
  }
  noteLoad("before the fleet");
  rows.push(...(await measureSetup("fleet", fleet.url, { cookie: fleetCookie, accessLog })));
  if (EMBEDDED) {
    noteLoad("before embedded mode");
    const probe = async (p, cookie) => {
      const res = await fetch(`${embeddedUrl}${p}`, { headers: cookie ? { cookie } : {} });
      await res.arrayBuffer();
      return `X-Page-Cache ${res.headers.get("x-page-cache") ?? "none"}`;
    };
    rows.push(...(await measureSetup("embedded", embeddedUrl, { cookie: embeddedCookie, probe })));
  }
  // The product page's file once more: how far the machine's speed moved during the run.
  noteLoad("before the last ceiling");
  const drift = await measure({
    setup: "static",
    target: "file of /shop/1 (again)",
    base: fleet.url,
    requests: onePath(copies["/shop/1"].path),
    connections: CONNECTIONS,
  });
  rows.push(drift);
  noteLoad("at the end");

  log("");
  log(
    `Ceilings: nginx serving each catalog page's own bytes as a file at ${CONNECTIONS} connections; misses and the signed-in page are shown against /shop/1's. /shop/1's file: ${ceilings["/shop/1"]} req/s first, ${drift.rps} at the end.`,
  );
  printTable(
    [
      "setup",
      "target",
      "conns",
      "req/s",
      "% of file",
      "p50 ms",
      "p99 ms",
      "requests",
      "non-2xx",
      "errors",
      "of which resets",
      "cache",
    ],
    rows.map((r) => [
      r.setup,
      r.target,
      r.connections,
      r.rps,
      r.setup === "static" ? "n/a" : shareOf(r, ceilings).toFixed(1),
      r.p50,
      r.p99,
      r.requests,
      r.non2xx,
      r.errors,
      r.resets,
      r.cache,
    ]),
  );
  const checks = verdicts(rows, ceilings);
  log("\nTargets (issue 49; the fleet's are the targets, embedded mode's are reported beside them):");
  for (const c of checks) log(`  ${c.pass ? "PASS" : "FAIL"}  ${c.setup.padEnd(8)} ${c.check}`);
  log(`\nload averages: ${loads.map((l) => `${l.when}: ${l.loadavg}`).join("; ")}`);
  if (env.FLEET_BENCH_JSON) {
    writeFileSync(
      path.resolve(env.FLEET_BENCH_JSON),
      `${JSON.stringify({ commit, root, startedAt, size: SIZE, pageCache: options.pageCache, duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, missConnections: MISS_CONNECTIONS, copies, ceilings, loads, rows, checks }, null, 2)}\n`,
    );
    log(`figures written to ${env.FLEET_BENCH_JSON}`);
  }
}

await runBenchScript("fleet benchmark", {
  main,
  cleanup: async () => {
    await stopStoreServer(embedded);
    embedded = null;
    await stopFleet(fleet);
  },
  lastResort: () => killFleetNow(fleet),
});
