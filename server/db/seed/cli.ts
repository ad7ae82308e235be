import { config } from "../../config.ts";
import { getDb } from "../connection.ts";
import { migrateToLatest } from "../migrate.ts";
import { productCountForSeed } from "./generate.ts";
import { seedCatalog } from "./seed.ts";

const USAGE = "Usage: npm run seed -- [--products N]   (N: positive integer, default 600)";

function fail(message: string): never {
  console.error(`seed: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

function parseArgs(argv: string[]): { products: number } {
  let products = productCountForSeed;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let value: string | undefined;
    if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg === "--products") {
      value = argv[++i];
      if (value === undefined) fail("--products needs a value");
    } else if (arg.startsWith("--products=")) {
      value = arg.slice("--products=".length);
    } else {
      fail(`unknown argument "${arg}"`);
    }
    const trimmed = value.trim();
    const n = Number(trimmed);
    if (!/^\+?\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n <= 0) {
      fail(`--products must be a positive integer, got "${value}"`);
    }
    products = n;
  }
  return { products };
}

async function main(): Promise<void> {
  const { products } = parseArgs(process.argv.slice(2));
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
          console.log(`  ${done.toLocaleString("en-US")} / ${products.toLocaleString("en-US")} products`);
          while (nextReport <= done) nextReport += step;
        }
      },
    });
    const row = await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Done: inserted ${inserted.toLocaleString("en-US")}, catalog now has ${Number(row.n).toLocaleString("en-US")} products (${seconds}s)`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(`seed failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
