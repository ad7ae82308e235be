// `npm run bench:ab`: two builds' product pages side by side, for a change too small to see
// between separate `npm run bench` runs on a machine whose speed moves from minute to minute.
//
// 1. starts `node server/http/main.ts` twice on the 100,000-product catalog that `npm run bench`
//    seeds (.tmp/bench/store-100k.db), once with A_BUILD (default "build") and once with B_BUILD
//    (required), WEB_CONCURRENCY each (default 2). Only what is inside the builds differs (app/
//    and what it imports, server/catalog and the document renderer included); server/http/
//    (Express, the page cache, compression) is this checkout's for both;
// 2. measures them in turn, A B A B … A (AB_ROUNDS B's, default 8): autocannon (10 connections)
//    warms a server for 2 s and measures it for AB_SECONDS (default 6). Strictly in turn, so each
//    server always comes back after the same pause (running one twice in a row, or after a double
//    pause, moved its figures by 5–10 %), and each B is set against the mean of the A's measured
//    just before and just after it, so a machine that speeds up or slows down meanwhile counts
//    on both sides;
// 3. prints each round's req/s, p99 and server CPU time per request (every process of that
//    server, from /proc), and the medians of B/A.
//
// AB_TRAFFIC=random (default) asks for a random product every request; zipf draws them with
// Zipf(1.1) popularity, as `npm run bench` does. A control run with A_BUILD = B_BUILD shows how
// far apart two identical servers measure on the day. Exits 0 whatever the figures; non-zero
// only when the script itself cannot run. Both servers are always stopped.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import {
  fail,
  loadAverage,
  log,
  printTable,
  root,
  runBenchScript,
  startStoreServer,
  stopStoreServer,
  zipfSampler,
} from "./support.mjs";

const builds = { A: process.env.A_BUILD || "build", B: process.env.B_BUILD };
const ROUNDS = positiveInteger("AB_ROUNDS", 8);
const SECONDS = positiveInteger("AB_SECONDS", 6);
const TRAFFIC = process.env.AB_TRAFFIC || "random";
const WEB_CONCURRENCY = String(positiveInteger("WEB_CONCURRENCY", 2));
const ports = { A: 3910, B: 3911 };
const dbPath = path.join(root, ".tmp/bench/store-100k.db");
const servers = {};

function positiveInteger(name, fallback) {
  const text = process.env[name];
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:ab: ${name} must be a whole number of at least 1, not "${text}"`);
    process.exit(1);
  }
  return value;
}

/** CPU time (user + system, ms) of every process in a server's process group so far. */
function groupCpuMs(child) {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's closing parenthesis: state is [0], pgrp [2], utime [11], stime [12].
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ").pop().split(" ");
      if (Number(fields[2]) === child.pid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

function productIds() {
  if (!existsSync(dbPath)) fail(`${path.relative(root, dbPath)} is missing: run \`npm run bench\` once to seed it`);
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return db
      .prepare("SELECT id FROM products WHERE archived_at IS NULL ORDER BY id")
      .all()
      .map((r) => Number(r.id));
  } finally {
    db.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  if (!builds.B) fail("set B_BUILD to the build to compare with A_BUILD (default build)");
  if (TRAFFIC !== "random" && TRAFFIC !== "zipf") fail(`AB_TRAFFIC must be random or zipf, not "${TRAFFIC}"`);
  for (const side of ["A", "B"]) {
    if (!existsSync(path.resolve(root, builds[side], "server/index.js")))
      fail(`${builds[side]} has no build: run BUILD_DIR=${builds[side]} npm run build`);
  }
  const ids = productIds();
  const pick = TRAFFIC === "zipf" ? zipfSampler(ids, 1.1) : () => ids[Math.floor(Math.random() * ids.length)];
  log(
    `A = ${builds.A}, B = ${builds.B}; ${TRAFFIC} products of ${ids.length.toLocaleString("en-US")}; ${ROUNDS} rounds of ${SECONDS} s; WEB_CONCURRENCY=${WEB_CONCURRENCY}; load average ${loadAverage()}`,
  );
  for (const side of ["A", "B"]) {
    servers[side] = await startStoreServer({
      buildDir: builds[side],
      port: ports[side],
      env: { WEB_CONCURRENCY, SQLITE_PATH: dbPath },
      logPath: path.join(root, `.tmp/bench/ab-${side}.log`),
    });
  }
  const load = (side, seconds) =>
    autocannon({
      url: `http://127.0.0.1:${ports[side]}`,
      connections: 10,
      duration: seconds,
      requests: [{ method: "GET", path: "/shop/1", setupRequest: (req) => ({ ...req, path: `/shop/${pick()}` }) }],
    });
  let failures = 0;
  const measure = async (side) => {
    await load(side, 2);
    const before = groupCpuMs(servers[side]);
    const result = await load(side, SECONDS);
    const cpuMs = groupCpuMs(servers[side]) - before;
    failures += result.errors + result.timeouts + result.non2xx;
    return {
      rps: result.requests.average,
      p99: result.latency.p99,
      cpuUs: (1000 * cpuMs) / Math.max(1, result.requests.total),
    };
  };
  const rows = [];
  const rpsRatios = [];
  const cpuRatios = [];
  let lastA = await measure("A");
  for (let round = 1; round <= ROUNDS; round++) {
    const b = await measure("B");
    const nextA = await measure("A");
    const a = {
      rps: (lastA.rps + nextA.rps) / 2,
      cpuUs: (lastA.cpuUs + nextA.cpuUs) / 2,
      p99: (lastA.p99 + nextA.p99) / 2,
    };
    rpsRatios.push(b.rps / a.rps);
    cpuRatios.push(b.cpuUs / a.cpuUs);
    rows.push([
      String(round),
      a.rps.toFixed(0),
      a.p99.toFixed(1),
      a.cpuUs.toFixed(0),
      b.rps.toFixed(0),
      String(b.p99),
      b.cpuUs.toFixed(0),
      rpsRatios.at(-1).toFixed(3),
      cpuRatios.at(-1).toFixed(3),
    ]);
    lastA = nextA;
  }
  log("A: the mean of the A runs just before and after each B.");
  printTable(
    ["round", "A req/s", "A p99 ms", "A CPU µs/req", "B req/s", "B p99 ms", "B CPU µs/req", "B/A req/s", "B/A CPU/req"],
    rows,
  );
  log(
    `Median B/A: req/s ${median(rpsRatios).toFixed(3)}, CPU time per request ${median(cpuRatios).toFixed(3)} (below 1: B is cheaper)`,
  );
  log(`Errors, timeouts and non-2xx answers: ${failures}; load average ${loadAverage()}`);
}

async function cleanup() {
  for (const side of ["A", "B"]) await stopStoreServer(servers[side]);
}

// A server still starting, or left by a cleanup cut short, is killed by runBenchScript on exit.
await runBenchScript("bench:ab", { main, cleanup });
