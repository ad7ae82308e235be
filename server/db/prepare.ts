import type { Db } from "./connection.ts";
import { migrateToLatest } from "./migrate.ts";
import { seedCatalog } from "./seed/seed.ts";

/** Start-up work: bring the schema up to date, and seed the catalog when it is empty. */
export async function prepareDatabase(db: Db, options: { seedProducts: number; log?: (line: string) => void }) {
  await migrateToLatest(db);
  const { n } = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(n) === 0) {
    const started = Date.now();
    const { inserted } = await seedCatalog(db, { products: options.seedProducts });
    options.log?.(`Seeded ${inserted} products in ${Date.now() - started} ms`);
  }
}
