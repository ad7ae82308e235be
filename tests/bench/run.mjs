// `npm run bench`: load test of the production server on a 100k-product SQLite catalog.
//
// 1. builds the app into BUILD_DIR (default "build") when its server entry is missing
//    (or when BENCH_REBUILD=1);
// 2. seeds .tmp/bench/store-100k.db with 100,000 products (reused when already seeded);
// 3. starts `node server/http/main.ts` (NODE_ENV=production, WEB_CONCURRENCY default 2) and waits
//    for /healthz;
// 4. runs autocannon (10 connections, BENCH_DURATION seconds each, default 10, after a 2 s warm-up)
//    on /, /shop, /shop/:id (one product; a random product id per request; product ids drawn by
//    Zipf(1.1) popularity, as real traffic is) and a static HTML file of the same byte size as a
//    product page, served by the same server (the ceiling, measured in the same run);
// 5. measures add-to-cart (POST /cart) when the cart action exists;
// 6. prints req/s, p50, p99, non-2xx, errors and each product page's ratio to the static ceiling,
//    with PASS/FAIL against the targets of issues 2, 4 and 15.
//
// It is a report: it exits 0 whether or not the targets are met, and non-zero only when the script
// itself cannot run (build, seed or server start-up fails). The server it starts is always stopped.
//
// Environment: BUILD_DIR, BENCH_PORT (3900), WEB_CONCURRENCY (2), BENCH_DURATION (10),
// BENCH_CONNECTIONS (10), BENCH_WARMUP (2, seconds before each target's measurement: longer lets the
// page cache fill as it would on a server that has been up a while), BENCH_REBUILD (1 = build even
// when a build exists), BENCH_MARKET (`us`, the default, or `uk`: every request carries the
// `market=uk` cookie the header's market picker sets, so pages and carts are the UK market's).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import {
  BENCH_BUILD_DIR as BUILD_DIR,
  benchDir,
  ensureBuild as ensureBuildIn,
  fail,
  killNow,
  log,
  printTable,
  root,
  runBenchScript,
  startStoreServer,
  stopStoreServer,
  writeStaticCopy,
  zipfSampler,
} from "./support.mjs";

const ensureBuild = () => ensureBuildIn(BUILD_DIR);

const buildAbs = path.resolve(root, BUILD_DIR);
const PORT = Number(process.env.BENCH_PORT || 3900);
const WEB_CONCURRENCY = process.env.WEB_CONCURRENCY || "2";
const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const WARMUP = Number(process.env.BENCH_WARMUP || 2);
const MARKET = process.env.BENCH_MARKET || "us";
if (!["us", "uk"].includes(MARKET)) fail(`BENCH_MARKET must be us or uk, not ${MARKET}`);
/** The cookie a shopper who chose the market carries (none for the default market). */
const MARKET_COOKIE = MARKET === "uk" ? "market=uk" : "";
const withMarket = (cookie) => [cookie, MARKET_COOKIE].filter(Boolean).join("; ");
const PRODUCTS = 100_000;
const SITE_URL = `http://127.0.0.1:${PORT}`;
const dbPath = path.join(benchDir, "store-100k.db");
const logPath = path.join(benchDir, "server.log");
const staticName = "bench-static.html";
const staticPath = path.join(buildAbs, "client", staticName);

const TARGETS = {
  "/": { minRps: 400 },
  "/shop": { minRps: 400 },
  "/shop/:id": { minRps: 800, maxP99: 50 },
  "POST /cart (add)": { maxP99: 30 },
};
// Issue 15: product pages that the page cache can't serve, as a share of the static ceiling.
const RATIO_TARGETS = {
  "/shop/:id (random)": { minRatio: 0.3, maxP99: 50 },
  "/shop/:id (Zipf 1.1)": { minRatio: 0.6, maxP99: 30 },
};
const ZIPF_EXPONENT = 1.1;

let server; // the ChildProcess we started (its own process group)
let staticCreated = false;

// ---------------------------------------------------------------------------------------------
// helpers

function runNode(args, env, label) {
  log(`» ${label}`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) fail(`${label} failed (exit ${result.status ?? result.signal})`);
}

/** Product ids in the catalog (all of them, and those in stock), or null when the file has no catalog yet. */
function readCatalog() {
  if (!existsSync(dbPath)) return null;
  let db;
  try {
    db = new DatabaseSync(dbPath, { readOnly: true });
    const ids = db
      .prepare("SELECT id FROM products ORDER BY id")
      .all()
      .map((r) => Number(r.id));
    const inStock = db
      .prepare("SELECT id FROM products WHERE stock_quantity > 0 ORDER BY id")
      .all()
      .map((r) => Number(r.id));
    return { ids, inStock };
  } catch {
    return null; // no products table yet
  } finally {
    db?.close();
  }
}

function ensureCatalog() {
  mkdirSync(benchDir, { recursive: true });
  let catalog = readCatalog();
  if (catalog && catalog.ids.length >= PRODUCTS) {
    log(
      `Using the existing catalog ${path.relative(root, dbPath)} (${catalog.ids.length.toLocaleString("en-US")} products)`,
    );
    return catalog;
  }
  runNode(
    [path.join(root, "server/db/seed/cli.ts"), "--products", String(PRODUCTS)],
    { SQLITE_PATH: dbPath, DATABASE_URL: "" },
    `Seeding ${PRODUCTS.toLocaleString("en-US")} products into ${path.relative(root, dbPath)}`,
  );
  catalog = readCatalog();
  if (!catalog || catalog.ids.length < PRODUCTS)
    fail(`the seed left ${catalog?.ids.length ?? 0} products, expected ${PRODUCTS}`);
  return catalog;
}

async function startServer() {
  log(`WEB_CONCURRENCY=${WEB_CONCURRENCY}, market ${MARKET}`);
  // Migrations on a fresh 100k catalog can take a while.
  server = await startStoreServer({
    buildDir: BUILD_DIR,
    port: PORT,
    env: { WEB_CONCURRENCY, SQLITE_PATH: dbPath },
    logPath,
    timeoutMs: 5 * 60_000,
  });
}

async function stopServer() {
  const child = server;
  server = undefined;
  await stopStoreServer(child);
}

function removeStatic() {
  if (staticCreated) {
    rmSync(staticPath, { force: true });
    staticCreated = false;
  }
}

function cannon(opts) {
  return autocannon({
    url: SITE_URL,
    connections: CONNECTIONS,
    pipelining: 1,
    timeout: 10,
    ...(MARKET_COOKIE ? { headers: { cookie: MARKET_COOKIE } } : {}),
    ...opts,
  });
}

/** A 2 s warm-up (discarded), then the measured run. */
async function measure(name, opts) {
  process.stdout.write(`  ${name.padEnd(24)} warm-up ${WARMUP}s, measuring ${DURATION}s … `);
  await cannon({ ...opts, duration: WARMUP });
  const r = await cannon({ ...opts, duration: DURATION });
  const row = {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    status: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
    bytesPerReq: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
  };
  log(`${Math.round(row.rps)} req/s`);
  return row;
}

function verdict(row, target, { okStatus = (code) => code >= 200 && code < 300 } = {}) {
  const reasons = [];
  if (target.minRps !== undefined && row.rps < target.minRps)
    reasons.push(`${Math.round(row.rps)} < ${target.minRps} req/s`);
  if (target.maxP99 !== undefined && row.p99 > target.maxP99) reasons.push(`p99 ${row.p99} > ${target.maxP99} ms`);
  const bad = Object.entries(row.status)
    .filter(([code]) => !okStatus(Number(code)))
    .reduce((n, [, c]) => n + c, 0);
  if (bad > 0) reasons.push(`${bad} unexpected responses`);
  if (row.errors > 0) reasons.push(`${row.errors} errors`);
  return reasons.length ? `FAIL (${reasons.join(", ")})` : "PASS";
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const tableRow = (r) => [r.name, fmt(r.rps), fmt(r.p50), fmt(r.p99), r.requests, r.non2xx, r.errors];
const TABLE_HEADERS = ["target", "req/s (avg)", "p50 ms", "p99 ms", "requests", "non-2xx", "errors"];

// ---------------------------------------------------------------------------------------------
// add-to-cart

const CART_BODY = (productId) => `intent=add&productId=${productId}&quantity=1`;
const cartHeaders = { "content-type": "application/x-www-form-urlencoded", origin: SITE_URL };

function cookiesFrom(headers) {
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === "set-cookie");
  if (!entry) return null;
  const values = Array.isArray(entry[1]) ? entry[1] : [entry[1]];
  return values.map((v) => String(v).split(";")[0]).join("; ");
}

async function benchCart(inStock) {
  log("");
  log("Add to cart (POST /cart, issue 4)");
  const probe = await fetch(`${SITE_URL}/cart`, {
    method: "POST",
    headers: cartHeaders,
    body: CART_BODY(inStock[0] ?? 1),
    redirect: "manual",
  });
  const probeBody = (await probe.text()).replace(/\s+/g, " ").slice(0, 200);
  if (probe.status === 404 || probe.status === 405) {
    log(`  cart not implemented yet (POST /cart answered ${probe.status}); skipped.`);
    return null;
  }
  if (probe.status >= 400) {
    log(`  POST /cart answered ${probe.status} to a valid add (${probeBody}); skipped, fix the probe or the action.`);
    return null;
  }
  // Each connection is a guest who adds 20 random in-stock products to one cart (kept through the
  // Set-Cookie it receives), then starts over as a new guest: autocannon resets a connection's
  // context after the last entry of `requests`. So about 1 add in 20 also creates a cart.
  const pick = () => inStock[Math.floor(Math.random() * inStock.length)];
  const step = {
    method: "POST",
    path: "/cart",
    setupRequest: (req, context) => ({
      ...req,
      headers: {
        ...req.headers,
        ...cartHeaders,
        ...(withMarket(context.cookie) ? { cookie: withMarket(context.cookie) } : {}),
      },
      body: CART_BODY(pick()),
    }),
    onResponse: (_status, _body, context, headers) => {
      const cookie = cookiesFrom(headers ?? {});
      if (cookie) context.cookie = cookie;
    },
  };
  const row = await measure("POST /cart (add)", { requests: Array.from({ length: 20 }, () => ({ ...step })) });
  row.probeStatus = probe.status;
  return row;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  log(`npm run bench — ${started.toISOString()}`);
  log(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}; node ${process.version}`,
  );
  ensureBuild();
  const { ids, inStock } = ensureCatalog();
  await startServer();
  // The ceiling: a static copy of a product page (the same bytes, so the same size).
  staticCreated = true;
  const { bytes: staticBytes } = await writeStaticCopy({
    siteUrl: SITE_URL,
    clientDir: path.join(buildAbs, "client"),
    fromPath: "/shop/1",
    name: staticName,
  });

  // Every target should answer 200 before we time it.
  for (const p of ["/", "/shop", `/shop/${ids[ids.length - 1]}`]) {
    const res = await fetch(`${SITE_URL}${p}`);
    await res.arrayBuffer();
    if (res.status !== 200) log(`  warning: GET ${p} answered ${res.status}`);
  }

  log("");
  log(
    `Load: ${CONNECTIONS} connections, ${DURATION} s per target after a ${WARMUP} s warm-up, no Accept-Encoding (identity bodies)`,
  );
  const randomProduct = () => ids[Math.floor(Math.random() * ids.length)];
  const rows = [];
  rows.push(await measure("/", { requests: [{ method: "GET", path: "/" }] }));
  rows.push(await measure("/shop", { requests: [{ method: "GET", path: "/shop" }] }));
  // One product page, as autocannon on a single URL measures it (anonymous HTML is micro-cached),
  // and a random product among all of them per request (nearly every request renders afresh).
  rows.push(await measure("/shop/:id", { requests: [{ method: "GET", path: "/shop/1" }] }));
  rows.push(
    await measure("/shop/:id (random)", {
      requests: [
        { method: "GET", path: "/shop/1", setupRequest: (req) => ({ ...req, path: `/shop/${randomProduct()}` }) },
      ],
    }),
  );
  const zipfProduct = zipfSampler(ids, ZIPF_EXPONENT);
  rows.push(
    await measure("/shop/:id (Zipf 1.1)", {
      requests: [
        { method: "GET", path: "/shop/1", setupRequest: (req) => ({ ...req, path: `/shop/${zipfProduct()}` }) },
      ],
    }),
  );
  rows.push(await measure(`/${staticName}`, { requests: [{ method: "GET", path: `/${staticName}` }] }));

  const cart = await benchCart(inStock);

  log("");
  log(
    `Results (WEB_CONCURRENCY=${WEB_CONCURRENCY}, ${ids.length.toLocaleString("en-US")} products, /shop/:id = /shop/1, ` +
      `(random) = a random id among ${ids.length.toLocaleString("en-US")} per request, static file = ${staticBytes} bytes, same as /shop/1)`,
  );
  printTable(TABLE_HEADERS, [...rows, ...(cart ? [cart] : [])].map(tableRow));
  for (const r of [...rows, ...(cart ? [cart] : [])]) {
    const codes = Object.entries(r.status)
      .map(([c, n]) => `${c}×${n}`)
      .join(", ");
    if (Object.keys(r.status).some((c) => c !== "200")) log(`  ${r.name}: status codes ${codes}`);
  }

  log("");
  log("Targets (issues 2 and 4)");
  const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
  const checks = [
    ["/shop/:id ≥ 800 req/s, p99 ≤ 50 ms", verdict(byName["/shop/:id"], TARGETS["/shop/:id"])],
    ["/ ≥ 400 req/s", verdict(byName["/"], TARGETS["/"])],
    ["/shop ≥ 400 req/s", verdict(byName["/shop"], TARGETS["/shop"])],
    [
      "add to cart p99 ≤ 30 ms",
      cart
        ? verdict(cart, TARGETS["POST /cart (add)"], { okStatus: (c) => c >= 200 && c < 400 })
        : "not measured (cart not implemented yet)",
    ],
  ];
  printTable(["target", "result"], checks);
  log("");
  log("A target also fails when any response had an unexpected status or errored.");
  log("");
  // Not one of the issue's targets: the worst case, where the micro-cache can never hit.
  const worst = byName["/shop/:id (random)"];
  const stress = [
    [
      "/shop/:id, a different product every request (nothing cached), against the same 800 req/s, p99 50 ms",
      verdict(worst, TARGETS["/shop/:id"])
        .replace(/^PASS$/, "meets it")
        .replace(/^FAIL/, "below it"),
    ],
  ];
  log("Stress figure (beyond the targets)");
  printTable(["measure", "result"], stress);
  log("");
  log(
    `Product pages against the static ceiling measured in this run (issue 15; ceiling ${fmt(byName[`/${staticName}`].rps)} req/s)`,
  );
  const ceiling = byName[`/${staticName}`].rps;
  const ratios = Object.entries(RATIO_TARGETS).map(([name, target]) => {
    const row = byName[name];
    row.ratio = row.rps / ceiling;
    const reasons = [];
    if (row.ratio < target.minRatio) reasons.push(`${fmt(100 * row.ratio)} % < ${100 * target.minRatio} %`);
    const base = verdict(row, { maxP99: target.maxP99 });
    if (base !== "PASS") reasons.push(base.replace(/^FAIL \((.*)\)$/, "$1"));
    return [
      name,
      `${fmt(100 * row.ratio, 1)} %`,
      fmt(row.p99),
      `≥ ${100 * target.minRatio} %, p99 ≤ ${target.maxP99} ms`,
      reasons.length ? `FAIL (${reasons.join(", ")})` : "PASS",
    ];
  });
  printTable(["page", "share of static", "p99 ms", "target", "result"], ratios);

  const resultFile = path.join(benchDir, "last-run.json");
  writeFileSync(
    resultFile,
    JSON.stringify(
      {
        date: started.toISOString(),
        loadAverage: loadavg(),
        webConcurrency: WEB_CONCURRENCY,
        connections: CONNECTIONS,
        duration: DURATION,
        staticBytes,
        rows,
        cart,
        checks,
        stress,
        ratios,
      },
      null,
      2,
    ),
  );
  log(`Raw figures: ${path.relative(root, resultFile)}`);
}

async function cleanup() {
  removeStatic();
  await stopServer();
}

await runBenchScript("bench", {
  main,
  cleanup,
  // Never leave the server or the static file behind, however the process dies.
  lastResort() {
    if (staticCreated) rmSync(staticPath, { force: true });
    if (server && server.exitCode === null) killNow(server.pid);
  },
});
