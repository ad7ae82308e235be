import { migrateAuth } from "../auth/migrate.ts";
import type { AppConfig } from "../config.ts";
import { sql } from "kysely";
import { dbKind, type Db } from "./connection.ts";
import { migrateToLatest } from "./migrate.ts";
import { seedCatalog } from "./seed/seed.ts";

/** Any fixed number: the key of the PostgreSQL advisory lock that start-up work holds. */
const PREPARE_LOCK_KEY = 7_414_204_811;

/**
 * Start-up work: bring the schema up to date, and seed the catalog when it is empty. On
 * PostgreSQL, instances started together take turns through an advisory lock (held on one pooled
 * connection for the duration), so only one migrates and seeds and the others find it done.
 */
export async function prepareDatabase(db: Db, cfg: AppConfig, options: { log?: (line: string) => void } = {}) {
  if (dbKind(db) === "sqlite") return prepareUnlocked(db, cfg, options);
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${PREPARE_LOCK_KEY})`.execute(conn);
    try {
      await prepareUnlocked(db, cfg, options);
    } finally {
      await sql`select pg_advisory_unlock(${PREPARE_LOCK_KEY})`.execute(conn);
    }
  });
}

async function prepareUnlocked(db: Db, cfg: AppConfig, options: { log?: (line: string) => void }) {
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
