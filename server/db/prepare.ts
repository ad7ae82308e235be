import { migrateAuth } from "../auth/migrate.ts";
import type { AppConfig } from "../config.ts";
import type { Db } from "./connection.ts";
import { migrateToLatest } from "./migrate.ts";
import { seedCatalog } from "./seed/seed.ts";

/** Start-up work: bring the schema up to date, and seed the catalog when it is empty. */
export async function prepareDatabase(db: Db, cfg: AppConfig, options: { log?: (line: string) => void } = {}) {
  await migrateToLatest(db);
  await migrateAuth(db, cfg);
  const { n } = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(n) === 0) {
    const started = Date.now();
    const { inserted } = await seedCatalog(db, { products: cfg.SEED_PRODUCTS });
    options.log?.(`Seeded ${inserted} products in ${Date.now() - started} ms`);
  }
}
