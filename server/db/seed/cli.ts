import { sql } from "kysely";
import { formatCount } from "../../../app/lib/numbers.ts";
import { config } from "../../config.ts";
import { getDb } from "../connection.ts";
import { migrateToLatest } from "../migrate.ts";
import { productCountForSeed } from "./generate.ts";
import { migrateAuth } from "../../auth/migrate.ts";
import { seedOrders } from "./orders.ts";
import { seedCatalog } from "./seed.ts";

const USAGE =
  "Usage: npm run seed -- [--products N] [--orders M]   (N: positive integer, default 600; M: orders of seeded history, default none)";

function fail(message: string): never {
  console.error(`seed: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

function count(flag: string, value: string | undefined): number {
  if (value === undefined) fail(`${flag} needs a value`);
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\+?\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n <= 0)
    fail(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

function parseArgs(argv: string[]): { products: number; orders: number } {
  let products = productCountForSeed;
  let orders = 0;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg === "--products") products = count("--products", argv[++i]);
    else if (arg.startsWith("--products=")) products = count("--products", arg.slice("--products=".length));
    else if (arg === "--orders") orders = count("--orders", argv[++i]);
    else if (arg.startsWith("--orders=")) orders = count("--orders", arg.slice("--orders=".length));
    else fail(`unknown argument "${arg}"`);
  }
  return { products, orders };
}

async function main(): Promise<void> {
  const { products, orders } = parseArgs(process.argv.slice(2));
  let cfg;
  try {
    cfg = config();
  } catch (err) {
    console.error(`seed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const where = cfg.databaseKind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `SQLite at ${cfg.SQLITE_PATH}`;
  console.log(`Seeding ${products} products into ${where}`);

  const started = performance.now();
  const db = getDb(cfg);
  try {
    await migrateToLatest(db);
    const step = Math.max(products / 10, 1);
    let nextReport = step;
    const { inserted } = await seedCatalog(db, {
      products,
      onProgress: (done) => {
        if (done >= nextReport || done === products) {
          console.log(`  ${formatCount(done)} / ${formatCount(products)} products`);
          while (nextReport <= done) nextReport += step;
        }
      },
    });
    const row = await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    if (orders > 0) {
      // Seeded customers are accounts: the auth tables must exist (as the store creates them at start-up).
      await migrateAuth(db, cfg);
      const orderStep = Math.max(orders / 10, 1);
      let nextOrderReport = orderStep;
      const seeded = await seedOrders(db, {
        orders,
        onProgress: (done) => {
          if (done >= nextOrderReport || done === orders) {
            console.log(`  ${formatCount(done)} / ${formatCount(orders)} orders`);
            while (nextOrderReport <= done) nextOrderReport += orderStep;
          }
        },
      });
      console.log(
        `Orders: inserted ${formatCount(seeded.inserted)} (seeded history now ${formatCount(orders)} orders)`,
      );
    }
    // A bulk load leaves PostgreSQL without statistics or a visibility map until autovacuum gets
    // round to it; until then the planner guesses (and index-only scans visit the heap).
    if (cfg.databaseKind === "postgres" && (inserted > 0 || orders > 0)) await sql`vacuum analyze`.execute(db);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Done: inserted ${formatCount(inserted)}, catalog now has ${formatCount(Number(row.n))} products (${seconds}s)`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(`seed failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
