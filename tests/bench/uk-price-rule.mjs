// `node tests/bench/uk-price-rule.mjs`: how long an admin's "Save the UK price rule" takes at
// 100,000 products (issue 51, decision 0051), on SQLite and PostgreSQL. Each database: a fresh one
// seeded with BENCH_PRODUCTS products (100,000), then three saves in a row through setUkPriceRule,
// the function the Markets page calls (rates 0.81, 0.79, 0.80, ending .99), each re-deriving every
// UK price in one transaction. Prints each save's time, how many prices it changed, the median and
// the load average. A report, not a test. BENCH_DIALECTS=sqlite or postgres for one.
import { readUkPriceRule, setUkPriceRule } from "../../server/catalog/market-prices.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { freshBenchDb, loadAverage, log } from "./support.mjs";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? "sqlite,postgres").split(",");
const ADMIN = { userId: "bench", name: "Bench admin", role: "admin" };

log(
  `UK price rule at ${PRODUCTS.toLocaleString("en-US")} products — ${new Date().toISOString()} — load ${loadAverage()}`,
);
for (const kind of DIALECTS) {
  const { db, drop } = await freshBenchDb(kind, "uk-price-rule");
  try {
    await migrateToLatest(db);
    const seeded = performance.now();
    await seedCatalog(db, { products: PRODUCTS });
    log(`${kind}: seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s (load ${loadAverage()})`);
    const times = [];
    for (const rate of ["0.81", "0.79", "0.8"]) {
      const { version } = await readUkPriceRule(db);
      const started = performance.now();
      const { repriced } = await setUkPriceRule(db, ADMIN, { rate, ending: "99", version });
      const ms = performance.now() - started;
      times.push(ms);
      log(
        `${kind}: rate ${rate}: ${repriced.toLocaleString("en-US")} prices in ${ms.toFixed(0)} ms (load ${loadAverage()})`,
      );
    }
    log(`${kind}: median ${[...times].sort((a, b) => a - b)[1].toFixed(0)} ms`);
  } finally {
    await drop();
  }
}
