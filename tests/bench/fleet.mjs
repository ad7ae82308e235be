// Fleet benchmark (issue 16): product-page throughput through nginx with 1, 2 and 3 app
// instances (scripts/fleet.mjs), plus one instance without nginx as the baseline, on PostgreSQL.
//
// For each fleet size a fresh fleet starts (the same database, seeded by the first), each
// instance is warmed up directly (2 s per target), and for each target autocannon runs a 2 s
// warm-up and then FLEET_BENCH_DURATION seconds (default 10) with FLEET_BENCH_CONNECTIONS
// (default 10) connections on /shop/1 (one product page: from the micro-cache) and on a random
// product per request with a unique query string (never cached: every request renders), and the
// fleet stops. Printed: req/s, p50/p99 latency, non-2xx answers, and errors (refused, reset,
// timeouts) with the connection resets among them.
//
// On a 2-core machine nginx, every instance and autocannon share the same two cores, so more
// instances cannot add throughput: the figures show what the proxy and extra processes cost, not
// how the fleet scales.
//
// Environment: BUILD_DIR (build; built when missing), DATABASE_URL (or FLEET_DATABASE, default
// toolstore_fleet_bench, created on the local server), REDIS_URL, FLEET_BENCH_PORT (8085; instances
// on FLEET_BENCH_BASE_PORT, 3131…), FLEET_BENCH_SIZES (1,2,3), FLEET_BENCH_DURATION, FLEET_BENCH_CONNECTIONS.
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureDatabase, fleetOptionsFromEnv, killFleetNow, startFleet, stopFleet } from "../../scripts/fleet.mjs";
import { log, printTable, root, runBenchScript } from "./support.mjs";

const env = process.env;
const PORT = Number(env.FLEET_BENCH_PORT ?? 8085);
const BASE_PORT = Number(env.FLEET_BENCH_BASE_PORT ?? 3131);
const SIZES = (env.FLEET_BENCH_SIZES ?? "1,2,3").split(",").map(Number);
const DURATION = Number(env.FLEET_BENCH_DURATION ?? 10);
const CONNECTIONS = Number(env.FLEET_BENCH_CONNECTIONS ?? 10);
const WARMUP = 2;
const SEED_PRODUCTS = 600;
const dir = path.join(root, ".tmp", "fleet-bench");

let fleet = null;

/** Runs autocannon; `codes` counts its request errors by code (ECONNRESET, ETIMEDOUT …). */
async function cannon(url, requests, duration, codes = {}) {
  const run = autocannon({ url, connections: CONNECTIONS, pipelining: 1, timeout: 10, duration, requests });
  run.on("reqError", (error) => (codes[error.code ?? error.message] = (codes[error.code ?? error.message] ?? 0) + 1));
  return run;
}

async function measure(label, url, target, requests) {
  process.stdout.write(`  ${label.padEnd(34)} ${target.padEnd(18)} `);
  await cannon(url, requests, WARMUP);
  const codes = {};
  const r = await cannon(url, requests, DURATION, codes);
  const errors = r.errors + r.timeouts;
  // nginx closes a client's keep-alive connection after 1,000 requests (keepalive_requests, with
  // `Connection: close` on the last answer); autocannon sends its next request on it anyway and
  // counts the reset as an error. A browser opens a new connection instead.
  const resets = codes.ECONNRESET ?? 0;
  log(`${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx, ${errors} errors (${JSON.stringify(codes)})`);
  return [label, target, Math.round(r.requests.average), r.latency.p50, r.latency.p99, r.requests.total, r.non2xx, errors, resets];
}

// A random product with a query string of its own: never in the micro-cache, so every request renders.
const renderEveryTime = [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/shop/${1 + Math.floor(Math.random() * SEED_PRODUCTS)}?r=${Math.random().toString(36).slice(2)}` }) }];
const oneProduct = [{ method: "GET", path: "/shop/1" }];

async function main() {
  const options = fleetOptionsFromEnv();
  const databaseUrl = env.DATABASE_URL || (await ensureDatabase(options.pgAdminUrl, env.FLEET_DATABASE ?? "toolstore_fleet_bench"));
  log(`Fleet benchmark: ${DURATION} s per run after a ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(2)} at the start`);
  const rows = [];
  for (const size of SIZES) {
    rmSync(dir, { recursive: true, force: true });
    fleet = await startFleet({
      ...options,
      size,
      port: PORT,
      basePort: BASE_PORT,
      dir,
      databaseUrl,
      quiet: true,
      env: { SEED_PRODUCTS: String(SEED_PRODUCTS), SMTP_URL: "" },
    });
    // Every instance gets the same warm-up (its JIT, its micro-cache), straight, before any figure.
    for (const instance of fleet.instances) {
      await cannon(instance.url, oneProduct, WARMUP);
      await cannon(instance.url, renderEveryTime, WARMUP);
    }
    if (size === SIZES[0]) {
      rows.push(await measure("1 instance, direct (no nginx)", fleet.instances[0].url, "/shop/1", oneProduct));
      rows.push(await measure("1 instance, direct (no nginx)", fleet.instances[0].url, "/shop/:id uncached", renderEveryTime));
    }
    const label = `${size} instance${size > 1 ? "s" : ""} behind nginx`;
    rows.push(await measure(label, fleet.url, "/shop/1", oneProduct));
    rows.push(await measure(label, fleet.url, "/shop/:id uncached", renderEveryTime));
    await stopFleet(fleet);
    fleet = null;
  }
  log("");
  printTable(["setup", "target", "req/s", "p50 ms", "p99 ms", "requests", "non-2xx", "errors", "of which resets"], rows);
  log(`\nload average at the end: ${os.loadavg()[0].toFixed(2)}`);
}

await runBenchScript("fleet benchmark", {
  main,
  cleanup: () => stopFleet(fleet),
  lastResort: () => killFleetNow(fleet),
});
