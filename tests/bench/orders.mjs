// Order placement throughput on SQLite and PostgreSQL, with the oversell check.
// Part of `npm run bench`. Each dialect: a fresh database with 200 products, 400 shoppers with a
// cart line each, all racing to check out with 10 in flight at a time. Products have less stock
// than demand, so some checkouts must fail; the check is that no product ever goes below zero and
// that the units sold equal the stock taken.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { createDb } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { placeOrder } from "../../server/orders/place-order.ts";

const root = path.resolve(import.meta.dirname, "../..");
const SHOPPERS = Number(process.env.BENCH_ORDERS ?? 400);
const IN_FLIGHT = 10;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function openDb(kind) {
  if (kind === "sqlite") {
    const dir = path.join(root, ".tmp/bench");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "orders.db");
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    const db = createDb({ kind, sqlitePath: file });
    return { db, drop: () => db.destroy() };
  }
  const schema = `bench_orders_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const db = createDb({ kind, url: PG_URL, pgSchema: schema, poolSize: IN_FLIGHT + 2 });
  return {
    db,
    async drop() {
      await db.destroy();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

async function run(kind) {
  const { db, drop } = await openDb(kind);
  try {
    await migrateToLatest(db);
    await seedCatalog(db, { products: 200 });
    // Demand is 2 units from each of SHOPPERS/50 shoppers per product; 10 in stock means some must be refused.
    await db.updateTable("products").set({ stock_quantity: 10 }).execute();
    const before = await db.selectFrom("products").select((eb) => eb.fn.sum("stock_quantity").as("n")).executeTakeFirstOrThrow();
    const owners = [];
    for (let i = 0; i < SHOPPERS; i++) {
      const owner = `g:bench-${i}`;
      await addToCart(db, owner, { productId: 1 + (i % 50), quantity: 2 });
      owners.push(owner);
    }
    let next = 0;
    let placed = 0;
    let refused = 0;
    const started = performance.now();
    const latencies = [];
    async function worker() {
      while (next < owners.length) {
        const owner = owners[next++];
        const checkout = checkoutSchema.parse({
          email: "bench@example.com", name: "Bench Buyer", line1: "1 Main St", city: "Austin", postcode: "73301",
          country: "US", paymentMethod: "pay-on-delivery", checkoutToken: randomBytes(16).toString("base64url"),
        });
        const t = performance.now();
        try {
          await placeOrder(db, { owner, userId: null, checkout, siteUrl: "http://bench.local" });
          placed++;
        } catch (error) {
          if (error?.code !== "OUT_OF_STOCK") throw error;
          refused++;
        }
        latencies.push(performance.now() - t);
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const seconds = (performance.now() - started) / 1000;
    const after = await db.selectFrom("products").select((eb) => [eb.fn.sum("stock_quantity").as("n"), eb.fn.min("stock_quantity").as("min")]).executeTakeFirstOrThrow();
    const sold = await db.selectFrom("order_lines").select((eb) => eb.fn.sum("quantity").as("n")).executeTakeFirstOrThrow();
    latencies.sort((a, b) => a - b);
    const oversold = Number(after.min) < 0 || Number(before.n) - Number(after.n) !== Number(sold.n ?? 0);
    return {
      kind,
      placed,
      refused,
      ordersPerSecond: (placed / seconds).toFixed(1),
      p50: latencies[Math.floor(latencies.length * 0.5)].toFixed(1),
      p99: latencies[Math.floor(latencies.length * 0.99)].toFixed(1),
      minStock: Number(after.min),
      oversold,
    };
  } finally {
    await drop();
  }
}

const rows = [];
for (const kind of (process.env.BENCH_DIALECTS ?? "sqlite,postgres").split(",")) {
  try {
    rows.push(await run(kind));
  } catch (error) {
    console.log(`${kind}: skipped (${error.message})`);
  }
}
console.log(`\nOrder placement (${SHOPPERS} checkouts, ${IN_FLIGHT} in flight, stock below demand)`);
console.log("dialect   placed  refused  orders/s  p50 ms  p99 ms  min stock  oversold");
for (const r of rows) {
  console.log(`${r.kind.padEnd(9)} ${String(r.placed).padStart(6)} ${String(r.refused).padStart(8)} ${r.ordersPerSecond.padStart(9)} ${r.p50.padStart(7)} ${r.p99.padStart(7)} ${String(r.minStock).padStart(10)}  ${r.oversold ? "YES — FAIL" : "none — PASS"}`);
}
process.exit(rows.some((r) => r.oversold) ? 1 : 0);
