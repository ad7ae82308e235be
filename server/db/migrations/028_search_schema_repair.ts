import { sql, type Kysely } from "kysely";
import { rebuildSearchVocabulary } from "../../catalog/search-vocabulary.ts";
import type { Db, DbKind } from "../connection.ts";
import { up as createSearchSchema } from "./004_search.ts";
import { indexWordsUnstemmed } from "./018_search_words.ts";
import { copyStockWhenItCrossesZero } from "./021_stock_search_trigger.ts";
import { createMatchIndex, SQLITE_MATCH_INDEX } from "./022_search_match_index.ts";
import { createCellTriggers } from "./023_search_cells_version.ts";
import { createSearchPostings } from "./024_search_postings.ts";

/**
 * Migration 004 was an empty placeholder before issue 5 filled it, and changed while the issue
 * was in progress, so a database may have it recorded as applied with no search tables, or with
 * an earlier shape of them. Such a database gets the search schema this code expects here, built
 * anew with the work of the later search migrations (it indexes the products already there); a
 * SQLite database without migration 022's match index gets just the index. Any other database
 * already has it: nothing changes. (Until this migration, the search checked this at run time.)
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const state = await schemaState(db, kind);
  if (state === "current") return;
  // The search reads through this index by name (search-match.ts); the rest of the schema is fine.
  if (state === "without its match index") return void (await createMatchIndex(db, kind));
  console.warn(`search: the search tables are ${state}; creating them now`);
  const rebuild = async (trx: Kysely<any>) => {
    await dropSearchSchema(trx, kind);
    await createSearchSchema(trx, kind);
    if (kind === "postgres") await indexWordsUnstemmed(trx);
    await copyStockWhenItCrossesZero(trx, kind);
    await createMatchIndex(trx, kind);
    await createCellTriggers(trx, kind);
    await createSearchPostings(trx, kind);
    // search_products holds the products on sale (server/catalog/search-sync.ts): archived ones leave again.
    const archived =
      await sql`DELETE FROM search_products WHERE product_id IN (SELECT id FROM products WHERE archived_at IS NOT NULL)`.execute(
        trx,
      );
    if (Number(archived.numAffectedRows ?? 0) > 0) await rebuildSearchVocabulary(trx as Db);
  };
  if (db.isTransaction) await rebuild(db);
  else await db.transaction().execute(rebuild);
}

type SchemaState = "current" | "missing" | "outdated" | "without its match index";

/** Is the search schema there, and is it the one this code expects (its newest parts exist)? */
async function schemaState(db: Kysely<any>, kind: DbKind): Promise<SchemaState> {
  if (kind === "sqlite") {
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM sqlite_master WHERE name IN ('search_products', 'search_products_facets_idx', ${SQLITE_MATCH_INDEX})`.execute(
      db,
    );
    const names = new Set(rows.map((r) => r.name));
    if (!names.has("search_products")) return "missing";
    if (!names.has("search_products_facets_idx")) return "outdated";
    return names.has(SQLITE_MATCH_INDEX) ? "current" : "without its match index";
  }
  const { rows } = await sql<{ has_table: boolean; has_head: boolean }>`
    SELECT to_regclass('search_products') IS NOT NULL AS has_table,
           EXISTS (SELECT 1 FROM pg_attribute
                   WHERE attrelid = to_regclass('search_products') AND attname = 'head' AND NOT attisdropped) AS has_head`.execute(
    db,
  );
  if (!rows[0]?.has_table) return "missing";
  return rows[0].has_head ? "current" : "outdated";
}

/** Removes whatever an earlier version of migration 004 created. */
async function dropSearchSchema(db: Kysely<any>, kind: DbKind): Promise<void> {
  const statements =
    kind === "sqlite"
      ? [
          ...[
            "products_search_insert",
            "products_search_delete",
            "products_search_update_text",
            "products_search_update_facts",
            "brands_search_rename",
            "categories_search_rename",
          ].map((t) => `DROP TRIGGER IF EXISTS ${t}`),
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
