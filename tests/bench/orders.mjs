// Order placement throughput on SQLite and PostgreSQL, with the oversell check.
// Part of `npm run bench`. Each dialect: a fresh database with 200 products, 400 shoppers with a
// cart line each, all racing to check out with 10 in flight at a time. Products have less stock
// than demand, so some checkouts must fail; the check is that no product ever goes below zero and
// that the units sold equal the stock taken. The race runs twice, on two sets of 50 products: first
// cold (a new process and new database connections, as the first minute after a deploy), then warm,
// as the page benches measure after a 2 s warm-up: the JIT has compiled the order path and every
// pooled connection has its prepared statements planned. Both are printed; the targets are for the
// warm race. The check covers both races. BENCH_MARKET picks the delivery address: `us` (Austin,
// Texas, where the store collects no sales tax; the default), `us-taxed` (Texas collects 6.25%: each
// shopper places the order with the tax the checkout showed) or `uk` (London, VAT lines stored).
import { randomBytes } from "node:crypto";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { checkoutTax } from "../../server/tax/checkout-tax.ts";
import { freshBenchDb } from "./support.mjs";

const SHOPPERS = Number(process.env.BENCH_ORDERS ?? 400);
const IN_FLIGHT = 10;
const MARKET = process.env.BENCH_MARKET ?? "us";
const ADDRESSES = {
  us: { city: "Austin", postcode: "73301", country: "US" },
  "us-taxed": { city: "Austin", postcode: "73301", country: "US" },
  uk: { city: "London", postcode: "SW1A 1AA", country: "GB" },
};
if (!ADDRESSES[MARKET]) throw new Error(`BENCH_MARKET must be one of ${Object.keys(ADDRESSES).join(", ")}`);

/** Every owner checks out, IN_FLIGHT at a time; each checkout's time is kept. */
const shownTax = new Map();

async function race(db, owners) {
  let next = 0;
  let placed = 0;
  let refused = 0;
  const latencies = [];
  const started = performance.now();
  async function worker() {
    while (next < owners.length) {
      const owner = owners[next++];
      const checkout = checkoutSchema.parse({
        email: "bench@example.com",
        name: "Bench Buyer",
        line1: "1 Main St",
        ...ADDRESSES[MARKET],
        paymentMethod: "pay-on-delivery",
        checkoutToken: randomBytes(16).toString("base64url"),
      });
      // A taxed shopper has seen the tax: the figure the checkout showed them comes with the order.
      if (MARKET === "us-taxed") checkout.shownTaxCents = shownTax.get(owner);
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
  latencies.sort((a, b) => a - b);
  return {
    placed,
    refused,
    ordersPerSecond: (placed / seconds).toFixed(1),
    p50: latencies[Math.floor(latencies.length * 0.5)].toFixed(1),
    p99: latencies[Math.floor(latencies.length * 0.99)].toFixed(1),
  };
}

async function run(kind) {
  const { db, drop } = await freshBenchDb(kind, "orders", { poolSize: IN_FLIGHT + 2 });
  try {
    await migrateToLatest(db);
    await seedCatalog(db, { products: 200 });
    // Demand is 2 units from each of SHOPPERS/50 shoppers per product; 10 in stock means some must be refused.
    await db.updateTable("products").set({ stock_quantity: 10 }).execute();
    if (MARKET === "us-taxed")
      await db.updateTable("tax_us_states").set({ collect: 1 }).where("code", "=", "TX").execute();
    const before = await db
      .selectFrom("products")
      .select((eb) => eb.fn.sum("stock_quantity").as("n"))
      .executeTakeFirstOrThrow();
    // The cold race's shoppers buy products 51–100, the warm race's products 1–50.
    const shoppers = async (prefix, count, firstProduct) => {
      const owners = [];
      for (let i = 0; i < count; i++) {
        const owner = `g:${prefix}-${i}`;
        const productId = firstProduct + (i % 50);
        await addToCart(db, owner, { productId, quantity: 2 });
        owners.push(owner);
        if (MARKET === "us-taxed") {
          const p = await db
            .selectFrom("products")
            .select("sale_price_cents")
            .where("id", "=", productId)
            .executeTakeFirstOrThrow();
          const tax = await checkoutTax(db, {
            country: "US",
            postcode: "73301",
            organizationId: null,
            lines: [{ amountCents: Number(p.sale_price_cents) * 2, vatClass: "standard" }],
            discountCents: 0,
            shippingCents: 0,
            today: new Date().toISOString().slice(0, 10),
          });
          shownTax.set(owner, tax.addedCents);
        }
      }
      return owners;
    };
    const coldOwners = await shoppers("cold", SHOPPERS, 51);
    const warmOwners = await shoppers("warm", SHOPPERS, 1);
    const cold = await race(db, coldOwners);
    const warm = await race(db, warmOwners);
    const after = await db
      .selectFrom("products")
      .select((eb) => [eb.fn.sum("stock_quantity").as("n"), eb.fn.min("stock_quantity").as("min")])
      .executeTakeFirstOrThrow();
    const sold = await db
      .selectFrom("order_lines")
      .select((eb) => eb.fn.sum("quantity").as("n"))
      .executeTakeFirstOrThrow();
    const oversold = Number(after.min) < 0 || Number(before.n) - Number(after.n) !== Number(sold.n ?? 0);
    const minStock = Number(after.min);
    return [
      { kind: `${kind} (cold)`, ...cold, minStock, oversold },
      { kind: `${kind} (warm)`, ...warm, minStock, oversold },
    ];
  } finally {
    await drop();
  }
}

const rows = [];
for (const kind of (process.env.BENCH_DIALECTS ?? "sqlite,postgres").split(",")) {
  try {
    rows.push(...(await run(kind)));
  } catch (error) {
    console.log(`${kind}: skipped (${error.message})`);
  }
}
console.log(
  `\nOrder placement, market ${MARKET} (${SHOPPERS} checkouts per race, ${IN_FLIGHT} in flight, stock below demand; targets: warm PostgreSQL ≥ 500/s with p99 ≤ 50 ms, warm SQLite ≥ 1,000/s)`,
);
console.log("dialect            placed  refused  orders/s  p50 ms  p99 ms  min stock  oversold");
for (const r of rows) {
  console.log(
    `${r.kind.padEnd(18)} ${String(r.placed).padStart(6)} ${String(r.refused).padStart(8)} ${r.ordersPerSecond.padStart(9)} ${r.p50.padStart(7)} ${r.p99.padStart(7)} ${String(r.minStock).padStart(10)}  ${r.oversold ? "YES — FAIL" : "none — PASS"}`,
  );
}
process.exit(rows.some((r) => r.oversold) ? 1 : 0);
