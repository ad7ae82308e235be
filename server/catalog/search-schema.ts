import { sql } from "kysely";
import { dbKind, type Db, type DbKind } from "../db/connection.ts";
import { up as createSearchSchema } from "../db/migrations/004_search.ts";
import { indexWordsUnstemmed } from "../db/migrations/018_search_words.ts";
import { copyStockWhenItCrossesZero } from "../db/migrations/021_stock_search_trigger.ts";
import { createMatchIndex, SQLITE_MATCH_INDEX } from "../db/migrations/022_search_match_index.ts";
import { createCellTriggers } from "../db/migrations/023_search_cells_version.ts";
import { createSearchPostings } from "../db/migrations/024_search_postings.ts";
import { ensureSearchVocabulary, rebuildSearchVocabulary } from "./search-vocabulary.ts";

const ready = new WeakMap<Db, Promise<void>>();

type SchemaState = "current" | "missing" | "outdated" | "without its match index";

/** Is the search schema there, and is it the one this code expects (its newest parts exist)? */
async function schemaState(db: Db, kind: DbKind): Promise<SchemaState> {
  if (kind === "sqlite") {
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM sqlite_master WHERE name IN ('search_products', 'search_products_facets_idx', ${SQLITE_MATCH_INDEX})`.execute(db);
    const names = new Set(rows.map((r) => r.name));
    if (!names.has("search_products")) return "missing";
    if (!names.has("search_products_facets_idx")) return "outdated";
    return names.has(SQLITE_MATCH_INDEX) ? "current" : "without its match index";
  }
  const { rows } = await sql<{ has_table: boolean; has_head: boolean }>`
    SELECT to_regclass('search_products') IS NOT NULL AS has_table,
           EXISTS (SELECT 1 FROM pg_attribute
                   WHERE attrelid = to_regclass('search_products') AND attname = 'head' AND NOT attisdropped) AS has_head`.execute(db);
  if (!rows[0]?.has_table) return "missing";
  return rows[0].has_head ? "current" : "outdated";
}

/** Removes whatever an earlier version of migration 004 created. */
async function dropSearchSchema(db: Db, kind: DbKind): Promise<void> {
  const statements =
    kind === "sqlite"
      ? [
          ...["products_search_insert", "products_search_delete", "products_search_update_text", "products_search_update_facts", "brands_search_rename", "categories_search_rename"].map(
            (t) => `DROP TRIGGER IF EXISTS ${t}`,
          ),
          "DROP TABLE IF EXISTS products_fts",
          "DROP VIEW IF EXISTS products_search_source",
          "DROP TABLE IF EXISTS search_products",
          "DROP TABLE IF EXISTS search_terms",
          "DROP TABLE IF EXISTS search_term_trigrams",
        ]
      : [
          "DROP TRIGGER IF EXISTS products_search_insert ON products",
          "DROP TRIGGER IF EXISTS products_search_update ON products",
          "DROP TRIGGER IF EXISTS brands_search_rename ON brands",
          "DROP TRIGGER IF EXISTS categories_search_rename ON categories",
          "DROP TABLE IF EXISTS search_products, search_terms",
          "DROP FUNCTION IF EXISTS search_products_after_insert(), search_products_after_update(), search_products_after_rename()",
          "DROP FUNCTION IF EXISTS search_document(text, text, text, text), search_head(text, text, text), search_fold(text)",
          "DROP TEXT SEARCH CONFIGURATION IF EXISTS search_porter",
          "DROP TEXT SEARCH CONFIGURATION IF EXISTS search_words",
          "DROP TEXT SEARCH DICTIONARY IF EXISTS search_porter_stem",
        ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * Makes sure the search schema exists in the shape this code expects. Migration 004 was an empty
 * placeholder before issue 5 filled it, and changed while the issue was in progress, so a database
 * may have it recorded as applied with no search tables, or with an earlier shape. Such a database
 * gets the migration's work done here, once (it indexes the products already there).
 * Checked once per handle and process.
 */
export function ensureSearchSchema(db: Db): Promise<void> {
  let done = ready.get(db);
  if (!done) {
    done = (async () => {
      const kind = dbKind(db);
      const state = await schemaState(db, kind);
      if (state === "current") return;
      // The search reads through this index by name (search-match.ts); the rest of the schema is fine.
      if (state === "without its match index") return void (await createMatchIndex(db, kind));
      console.warn(`search: the search tables are ${state}; creating them now`);
      const rebuild = async (trx: Db) => {
        await dropSearchSchema(trx, kind);
        await createSearchSchema(trx, kind);
        if (kind === "postgres") await indexWordsUnstemmed(trx);
        await copyStockWhenItCrossesZero(trx, kind);
        await createMatchIndex(trx, kind);
        await createCellTriggers(trx, kind);
        await createSearchPostings(trx, kind);
        // search_products holds the products on sale (search-sync.ts): archived ones leave again.
        const archived = await sql`DELETE FROM search_products WHERE product_id IN (SELECT id FROM products WHERE archived_at IS NOT NULL)`.execute(trx);
        if (Number(archived.numAffectedRows ?? 0) > 0) await rebuildSearchVocabulary(trx);
      };
      if (db.isTransaction) await rebuild(db);
      else await db.transaction().execute(rebuild);
    })();
    done.catch(() => ready.delete(db));
    ready.set(db, done);
  }
  return done;
}

/** Forgets that the schema was checked for this handle (tests that alter the schema underneath). */
export function forgetSearchSchemaCheck(db: Db): void {
  ready.delete(db);
}

/** After the catalog changed in bulk (the seed): the search tables exist and the vocabulary is current. */
export async function refreshSearchIndex(db: Db, options: { productsChanged: boolean }): Promise<void> {
  await ensureSearchSchema(db);
  if (options.productsChanged) await rebuildSearchVocabulary(db);
  else await ensureSearchVocabulary(db);
}
