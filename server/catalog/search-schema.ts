import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { up as createSearchSchema } from "../db/migrations/004_search.ts";
import { ensureSearchVocabulary, rebuildSearchVocabulary } from "./search-vocabulary.ts";

const ready = new WeakMap<Db, Promise<void>>();

/**
 * Makes sure the search tables exist. Migration 004 was an empty placeholder before issue 5 filled
 * it, so a database created in between has it recorded as applied without the tables; for such a
 * database this runs the migration's work once (it indexes the products already there).
 * Checked once per handle and process.
 */
export function ensureSearchSchema(db: Db): Promise<void> {
  let done = ready.get(db);
  if (!done) {
    done = (async () => {
      const kind = dbKind(db);
      const exists =
        kind === "sqlite"
          ? (await sql`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'search_products'`.execute(db)).rows.length > 0
          : (await sql<{ found: string | null }>`SELECT to_regclass('search_products')::text AS found`.execute(db)).rows[0]?.found != null;
      if (exists) return;
      console.warn("search: this database recorded migration 004 before it created the search tables; creating them now");
      if (db.isTransaction) await createSearchSchema(db, kind);
      else await db.transaction().execute((trx) => createSearchSchema(trx, kind));
    })();
    done.catch(() => ready.delete(db));
    ready.set(db, done);
  }
  return done;
}

/** After the catalog changed in bulk (the seed): the search tables exist and the vocabulary is current. */
export async function refreshSearchIndex(db: Db, options: { productsChanged: boolean }): Promise<void> {
  await ensureSearchSchema(db);
  if (options.productsChanged) await rebuildSearchVocabulary(db);
  else await ensureSearchVocabulary(db);
}
