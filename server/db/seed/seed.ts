import type { Db } from "../connection.ts";
import type { NewProduct } from "../schema.ts";
import { BRANDS, CATEGORIES } from "./catalog-data.ts";
import { generateProduct } from "./generate.ts";
import { refreshSearchIndex } from "../../catalog/search-schema.ts";
import { sql } from "kysely";

/** One product in five (ids 3, 8, 13 …) sells cheaper by volume: 10+ at −5%, 50+ at −10%. */
export const SEED_VOLUME_BREAKS = [
  { minQuantity: 10, percentOff: 5 },
  { minQuantity: 50, percentOff: 10 },
] as const;

/** Gives the seeded volume breaks to the products that have none yet (one statement per break). */
async function seedVolumeBreaks(db: Db): Promise<void> {
  for (const b of SEED_VOLUME_BREAKS) {
    await sql`insert into volume_breaks (product_id, min_quantity, percent_off)
      select p.id, ${b.minQuantity}, ${b.percentOff} from products p
      where p.id % 5 = 3 and not exists (select 1 from volume_breaks v where v.product_id = p.id and v.min_quantity = ${b.minQuantity})`.execute(
      db,
    );
  }
}

/** Rows per multi-row INSERT: 500 × 24 columns = 12,000 bind parameters, under SQLite's and PostgreSQL's limits. */
const SEED_BATCH_SIZE = 500;

async function countRows(db: Db, table: "categories" | "brands" | "products"): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function idsByPosition(db: Db, table: "categories" | "brands", expected: number): Promise<number[]> {
  const rows = await db.selectFrom(table).select(["id"]).orderBy("position").orderBy("id").execute();
  if (rows.length < expected) {
    throw new Error(
      `Seed expects ${expected} ${table}, found ${rows.length}; fix the table or start from an empty database`,
    );
  }
  return rows.slice(0, expected).map((r) => Number(r.id));
}

/**
 * Fills the catalog up to `options.products` products. Idempotent and resumable: reference data
 * is inserted only into empty tables, and product `i` is generated deterministically, so a run
 * continues from the current product count. Each batch commits in its own transaction.
 */
export async function seedCatalog(
  db: Db,
  options: { products: number; onProgress?: (done: number) => void },
): Promise<{ inserted: number }> {
  const target = options.products;
  if (!Number.isInteger(target) || target < 0) throw new RangeError(`Invalid product count: ${target}`);

  await db.transaction().execute(async (trx) => {
    if ((await countRows(trx, "categories")) === 0) {
      await trx
        .insertInto("categories")
        .values(CATEGORIES.map((c, position) => ({ name: c.name, slug: c.slug, position })))
        .execute();
    }
    if ((await countRows(trx, "brands")) === 0) {
      await trx
        .insertInto("brands")
        .values(BRANDS.map((b, position) => ({ name: b.name, slug: b.slug, position })))
        .execute();
    }
  });

  const refs = {
    categoryIds: await idsByPosition(db, "categories", CATEGORIES.length),
    brandIds: await idsByPosition(db, "brands", BRANDS.length),
  };

  const start = await countRows(db, "products");
  let done = start;
  while (done < target) {
    const end = Math.min(done + SEED_BATCH_SIZE, target);
    const rows: NewProduct[] = [];
    for (let i = done; i < end; i++) rows.push(generateProduct(i, refs));
    await db.transaction().execute((trx) => trx.insertInto("products").values(rows).execute());
    done = end;
    options.onProgress?.(done);
  }
  if (done > start) await seedVolumeBreaks(db);
  // Search: the FTS index and search_products follow by trigger; the typo/prefix vocabulary is rebuilt here.
  await refreshSearchIndex(db, { productsChanged: done > start });
  return { inserted: Math.max(0, done - start) };
}
