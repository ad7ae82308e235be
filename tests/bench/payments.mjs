// `npm run bench:payments`: issue 13's reliability bar for card payments, as figures.
//
// For each database (SQLite, then PostgreSQL): the production server (a fresh database, 60 seeded
// products, WEB_CONCURRENCY=1) with card payments against the local Stripe stand-in
// (tests/support/fake-stripe.mjs, in this process: API, hosted payment page, signed webhooks with
// retries), a short hold (PAYMENT_HOLD_MINUTES, default 0.1 = 6 s) and the reconciliation job every
// second (PAYMENT_RECONCILE_SECONDS=1). One product is set to 10 units. 1,000 shoppers, each with
// a cookie jar and a client address of its own, add one unit to their cart (all at once), then all
// post the checkout form with paymentMethod=card at the same moment. A winner is answered with a
// redirect to the payment page; every other winner (in the order they were answered) pays there at
// once and follows the redirect back to the store, the others walk away. Then the script waits
// until the paid orders are placed and the abandoned ones released (the hold ran out: the job
// expires their sessions at Stripe and puts the stock back), or 60 s past the hold.
//
// Printed per database: orders created, checkouts refused (out of stock), paid, abandoned,
// released after the hold, final stock, units oversold, how long the checkouts took and the whole
// run, the checkout's latency (p50/p99 of all 1,000, as the client saw it). Exits 1 when a unit was
// oversold, an abandoned reservation was not released, or a paid order was not placed.
//
// Environment: BUILD_DIR (build; built when missing), BENCH_PAYMENTS_PORT (3870; the stand-in
// takes the next port), BENCH_SHOPPERS (1000), BENCH_STOCK (10), BENCH_HOLD_MINUTES (0.1),
// BENCH_DATABASE_URL / BENCH_PG_URL / TEST_DATABASE_URL (a PostgreSQL database to make a
// throwaway schema in; default postgres://postgres@127.0.0.1:5432/postgres). Flags: --skip-sqlite,
// --skip-pg.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { createDb } from "../../server/db/connection.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { CookieJar } from "../support/cookie-jar.ts";
import { createFakeStripe } from "../support/fake-stripe.mjs";
import {
  BENCH_BUILD_DIR as BUILD_DIR,
  benchDir,
  ensureBuild,
  fail,
  killNow,
  log,
  printTable,
  runBenchScript,
  startStoreServer,
  stopStoreServer,
} from "./support.mjs";

const args = process.argv.slice(2);
const PORT = Number(process.env.BENCH_PAYMENTS_PORT || 3870);
const SHOPPERS = Number(process.env.BENCH_SHOPPERS || 1000);
const STOCK = Number(process.env.BENCH_STOCK || 10);
const HOLD_MINUTES = Number(process.env.BENCH_HOLD_MINUTES || 0.1);
const PG_URL =
  process.env.BENCH_DATABASE_URL ||
  process.env.BENCH_PG_URL ||
  process.env.TEST_DATABASE_URL ||
  "postgres://postgres@127.0.0.1:5432/postgres";
const WEBHOOK_SECRET = "whsec_bench_0123456789abcdef";
const WEBHOOK_PATH = "/api/payments/stripe/webhook";
const SITE_URL = `http://127.0.0.1:${PORT}`;

// Every shopper has its own connection: 1,000 requests really are in flight at once.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One HTTP request without following redirects; resolves with status, location, cookies and body. */
function request(url, { method = "GET", headers = {}, body } = {}) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: 120_000,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            location: res.headers.location ?? null,
            setCookies: res.headers["set-cookie"] ?? [],
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 120 s")));
    req.on("error", reject);
    req.end(body);
  });
}

const form = (fields) => new URLSearchParams(fields).toString();
const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

class BenchShopper {
  constructor(i) {
    this.jar = new CookieJar();
    this.ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255 || 1}`;
    this.email = `bench.card.${i}.${randomBytes(3).toString("hex")}@example.com`;
  }

  async post(pathname, fields) {
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      origin: SITE_URL,
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": this.ip,
    };
    if (this.jar.header()) headers.cookie = this.jar.header();
    const res = await request(`${SITE_URL}${pathname}`, { method: "POST", headers, body: form(fields) });
    this.jar.update(res.setCookies);
    return res;
  }

  async get(pathname) {
    const headers = { "x-forwarded-for": this.ip };
    if (this.jar.header()) headers.cookie = this.jar.header();
    return request(`${SITE_URL}${pathname}`, { headers });
  }
}

async function freshDatabase(kind) {
  if (kind === "sqlite") {
    const file = path.join(benchDir, `payments-${PORT}.db`);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    return {
      env: { SQLITE_PATH: file, DATABASE_URL: "" },
      open: () => createDb({ kind, sqlitePath: file }),
      drop: async () => undefined,
      label: "SQLite",
    };
  }
  const schema = `bench_payments_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const version = (await admin.query("show server_version")).rows[0].server_version;
  await admin.end();
  const url = new URL(PG_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.href },
    open: () => createDb({ kind, url: PG_URL, pgSchema: schema, poolSize: 4 }),
    label: `PostgreSQL ${version.split(" ")[0]}`,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

let server = null;
let fake = null;
let database = null;
let db = null;

async function teardown() {
  await stopStoreServer(server).catch(() => undefined);
  server = null;
  await fake?.close().catch(() => undefined);
  fake = null;
  await db?.destroy().catch(() => undefined);
  db = null;
  await database?.drop().catch(() => undefined);
  database = null;
}

async function run(kind) {
  log(`\n» ${kind}: load average ${loadAverage()} at the start`);
  database = await freshDatabase(kind);
  fake = createFakeStripe({
    webhookUrl: `${SITE_URL}${WEBHOOK_PATH}`,
    webhookSecret: WEBHOOK_SECRET,
    retryDelaysMs: [500, 1000, 2000, 4000, 8000],
  });
  await fake.listen(PORT + 1);
  server = await startStoreServer({
    buildDir: BUILD_DIR,
    port: PORT,
    logPath: path.join(benchDir, `payments-${kind}.log`),
    env: {
      ...database.env,
      WEB_CONCURRENCY: "1",
      SEED_PRODUCTS: "60",
      REDIS_URL: "",
      OUTBOX_DIR: path.join(benchDir, `payments-outbox-${kind}`),
      TRUST_PROXY: "loopback",
      CHECKOUT_IP_LIMIT: "1000000",
      CHECKOUT_EMAIL_LIMIT: "1000000",
      STRIPE_SECRET_KEY: "sk_test_bench",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
      PAYMENT_HOLD_MINUTES: String(HOLD_MINUTES),
      PAYMENT_RECONCILE_SECONDS: "1",
    },
  });
  db = database.open();
  const product = await db
    .selectFrom("products")
    .select(["id"])
    .where("archived_at", "is", null)
    .where("stock_quantity", ">", 0)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const productId = Number(product.id);
  await db.updateTable("products").set({ stock_quantity: STOCK }).where("id", "=", productId).execute();
  const ledgerStart = Number(
    (
      await db
        .selectFrom("stock_movements")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst()
    )?.id ?? 0,
  );

  // Every shopper puts one unit in a cart of its own.
  const shoppers = Array.from({ length: SHOPPERS }, (_, i) => new BenchShopper(i + 1));
  const cartStarted = performance.now();
  const carts = await Promise.all(
    shoppers.map((s) =>
      s
        .post("/cart", { intent: "add", productId: String(productId), quantity: "1" })
        .catch((e) => ({ status: 0, text: String(e) })),
    ),
  );
  const cartSeconds = (performance.now() - cartStarted) / 1000;
  const badCarts = carts.filter((r) => r.status !== 302);
  if (badCarts.length)
    fail(
      `${badCarts.length} add-to-cart requests failed, e.g. ${badCarts[0].status}: ${badCarts[0].text.slice(0, 200)}`,
    );

  // All check out by card at the same moment.
  const outcome = { created: 0, refused: 0, unavailable: 0, errors: 0, paid: 0, paymentRefused: 0 };
  const statuses = new Map();
  const latencies = [];
  const wonLatencies = [];
  const winners = [];
  const payments = [];
  let errorSample = "";
  const started = performance.now();
  await Promise.all(
    shoppers.map(async (s) => {
      const fields = {
        ...validCheckoutForm,
        email: s.email,
        name: "Bench Buyer",
        paymentMethod: "card",
        businessName: "",
        taxNumber: "",
        checkoutToken: randomBytes(18).toString("base64url"),
      };
      const t = performance.now();
      let res;
      try {
        res = await s.post("/checkout", fields);
      } catch (error) {
        res = { status: 0, location: null, text: String(error) };
      }
      const ms = performance.now() - t;
      latencies.push(ms);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 302 && res.location?.startsWith(`${fake.url}/pay/`)) {
        outcome.created++;
        wonLatencies.push(ms);
        const winner = { shopper: s, payUrl: res.location, pays: winners.length % 2 === 0 };
        winners.push(winner);
        // A payer pays at once on Stripe's page and follows its redirect back to the store.
        if (winner.pays) payments.push(pay(winner));
      } else if (res.status === 302 && /payment=unavailable/.test(res.location ?? "")) {
        outcome.created++;
        outcome.unavailable++;
      } else if (res.status === 409 && /not enough stock/i.test(res.text)) {
        outcome.refused++;
      } else {
        outcome.errors++;
        errorSample ||= `${res.status}: ${res.text.slice(0, 200)}`;
      }
    }),
  );
  const checkoutSeconds = (performance.now() - started) / 1000;

  async function pay(winner) {
    const res = await request(winner.payUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "action=pay",
    });
    if (res.status !== 303) {
      outcome.paymentRefused++;
      winner.pays = false;
      return;
    }
    outcome.paid++;
    const back = new URL(res.location);
    await winner.shopper.get(back.pathname + back.search).catch(() => undefined);
  }
  await Promise.all(payments);

  // Wait past the hold: the paid orders placed, the abandoned ones released by the reconciliation job.
  const holdMs = HOLD_MINUTES * 60_000;
  const deadline = Date.now() + holdMs + 60_000;
  const tally = async () => {
    const rows = await db
      .selectFrom("orders")
      .select(["status", "payment_status", (eb) => eb.fn.countAll().as("n")])
      .where("payment_method", "=", "card")
      .groupBy(["status", "payment_status"])
      .execute();
    const count = (status, payment) =>
      rows
        .filter((r) => r.status === status && (!payment || r.payment_status === payment))
        .reduce((n, r) => n + Number(r.n), 0);
    return {
      placedPaid: count("placed", "paid"),
      expired: count("expired"),
      awaiting: count("awaiting_payment"),
      other: rows.filter((r) => !["placed", "expired", "awaiting_payment"].includes(r.status)),
    };
  };
  let state = await tally();
  while (Date.now() < deadline && (state.awaiting > 0 || state.placedPaid < outcome.paid)) {
    await sleep(200);
    state = await tally();
  }
  await fake.idle();
  state = await tally();
  const seconds = (performance.now() - started) / 1000;

  const finalStock = Number(
    (await db.selectFrom("products").select("stock_quantity").where("id", "=", productId).executeTakeFirstOrThrow())
      .stock_quantity,
  );
  const ledger = await db
    .selectFrom("stock_movements")
    .select(["delta", "reason"])
    .where("product_id", "=", productId)
    .where("id", ">", ledgerStart)
    .execute();
  const ledgerSum = ledger.reduce((n, m) => n + Number(m.delta), 0);
  const released = ledger.filter((m) => m.reason === "order_released").length;
  // Units the orders hold or sold: never more than there were.
  const heldRows = await db
    .selectFrom("order_lines")
    .innerJoin("orders", "orders.id", "order_lines.order_id")
    .select((eb) => eb.fn.sum("order_lines.quantity").as("n"))
    .where("order_lines.product_id", "=", productId)
    .where("orders.status", "in", ["placed", "awaiting_payment", "awaiting_confirmation"])
    .executeTakeFirst();
  const held = Number(heldRows?.n ?? 0);
  const oversold = Math.max(
    0,
    held - STOCK,
    -finalStock,
    STOCK + ledgerSum !== finalStock ? Math.abs(STOCK + ledgerSum - finalStock) : 0,
  );
  const abandoned = winners.filter((w) => !w.pays).length + outcome.unavailable;
  const notReleased = abandoned - state.expired;
  const notPlaced = outcome.paid - state.placedPaid;
  latencies.sort((a, b) => a - b);
  wonLatencies.sort((a, b) => a - b);
  const mails = Number(
    (
      await db
        .selectFrom("mail_queue")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const undelivered = fake.events.filter((e) => e.delivery_status !== "delivered").length;
  const ordersInDb = Number(
    (
      await db
        .selectFrom("orders")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

  await teardown();
  log(
    `  add to cart: ${SHOPPERS} at once in ${cartSeconds.toFixed(1)} s; checkout answers: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}${errorSample ? ` (e.g. ${errorSample})` : ""}`,
  );
  log(
    `  the winners had their payment page after ${wonLatencies.length ? `${(wonLatencies[0] / 1000).toFixed(1)}–${(wonLatencies.at(-1) / 1000).toFixed(1)} s (median ${(percentile(wonLatencies, 50) / 1000).toFixed(1)} s)` : "—"}; hold ${(HOLD_MINUTES * 60).toFixed(0)} s`,
  );
  log(
    `  webhooks: ${undelivered} of the stand-in's events not delivered; order mails queued: ${mails} (one per paid order expected)`,
  );
  return {
    kind,
    created: ordersInDb,
    answeredCreated: outcome.created,
    refused: outcome.refused,
    paid: state.placedPaid,
    abandoned,
    released: Math.min(state.expired, released),
    finalStock,
    oversold,
    checkoutSeconds,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: outcome.errors,
    paymentRefused: outcome.paymentRefused,
    notReleased,
    notPlaced,
    mailsOk: mails === state.placedPaid,
  };
}

await runBenchScript("payments", {
  async main() {
    mkdirSync(benchDir, { recursive: true });
    log(
      `Card payments benchmark — ${new Date().toISOString()} — ${cpus().length} cores, Node ${process.versions.node}, load average ${loadAverage()}`,
    );
    log(
      `${SHOPPERS} shoppers racing by card for ${STOCK} units; PAYMENT_HOLD_MINUTES=${HOLD_MINUTES}, PAYMENT_RECONCILE_SECONDS=1`,
    );
    ensureBuild(BUILD_DIR);
    const rows = [];
    if (!args.includes("--skip-sqlite")) rows.push(await run("sqlite"));
    if (!args.includes("--skip-pg")) rows.push(await run("postgres"));
    log("");
    printTable(
      [
        "database",
        "orders created",
        "refused (out of stock)",
        "paid",
        "abandoned",
        "released after hold",
        "final stock",
        "oversold",
        "checkouts s",
        "run s",
        "checkout p50 ms",
        "checkout p99 ms",
        "errors",
      ],
      rows.map((r) => [
        r.kind,
        r.created,
        r.refused,
        r.paid,
        r.abandoned,
        r.released,
        r.finalStock,
        r.oversold,
        r.checkoutSeconds.toFixed(1),
        r.seconds.toFixed(1),
        r.p50.toFixed(0),
        r.p99.toFixed(0),
        r.errors,
      ]),
    );
    log(`\nLoad average after: ${loadAverage()}`);
    const problems = rows
      .flatMap((r) => [
        r.oversold > 0 && `${r.kind}: ${r.oversold} unit(s) oversold`,
        r.notReleased > 0 && `${r.kind}: ${r.notReleased} abandoned reservation(s) not released after the hold`,
        r.notPlaced > 0 && `${r.kind}: ${r.notPlaced} paid order(s) not placed`,
        r.paymentRefused > 0 &&
          `${r.kind}: note: ${r.paymentRefused} payer(s) found the payment page closed (the hold ran out before they paid)`,
        !r.mailsOk && `${r.kind}: note: the order mails don't match the paid orders one to one`,
        r.created !== r.answeredCreated &&
          `${r.kind}: note: ${r.created} orders in the database, ${r.answeredCreated} checkouts answered with a payment page`,
      ])
      .filter(Boolean);
    for (const p of problems) log(p);
    if (rows.some((r) => r.oversold > 0 || r.notReleased > 0 || r.notPlaced > 0))
      fail("FAIL: the reliability bar was not met");
    log("PASS: nothing oversold, every abandoned reservation released, every paid order placed");
  },
  async cleanup() {
    await teardown();
  },
  lastResort() {
    killNow(server?.pid);
  },
});
