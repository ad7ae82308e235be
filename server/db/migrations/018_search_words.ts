import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { porterStem } from "../../catalog/search-text.ts";
import { tableExists } from "../tables.ts";

/**
 * Same query, same results on both databases (issue 15). PostgreSQL's snowball `porter` stemmer
 * and SQLite's FTS5 `porter` tokenizer disagree on short words ("us" → "u" on PostgreSQL only),
 * doubled letters ("markking") and a few endings ("assembly"). So PostgreSQL now indexes the words
 * unstemmed (`search_words`, a copy of `simple`), and the query asks for every word of the
 * vocabulary that shares the query word's stem, by the one stemmer in search-text.ts — the one
 * FTS5 uses (tests/integration/search-stemmer.test.ts compares them).
 *
 * Also recomputes the vocabulary stems of words with "yy", which that stemmer now reduces as FTS5 does.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  // (A database whose migration 004 left no search tables gets them from migration 028, built anew.)
  if (await tableExists(db, "search_terms")) {
    const doubled = await sql<{ term: string }>`SELECT term FROM search_terms WHERE term LIKE '%yy%'`.execute(db);
    for (const { term } of doubled.rows)
      await sql`UPDATE search_terms SET stem = ${porterStem(term)} WHERE term = ${term}`.execute(db);
  }
  if (kind === "postgres") await indexWordsUnstemmed(db);
}

/** PostgreSQL: the search vectors hold words as folded, not stemmed; every product is indexed again. */
export async function indexWordsUnstemmed(db: Kysely<any>): Promise<void> {
  await sql`DROP TEXT SEARCH CONFIGURATION IF EXISTS search_words`.execute(db);
  await sql`CREATE TEXT SEARCH CONFIGURATION search_words (COPY = simple)`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION search_document(title text, brand text, category text, description text) RETURNS tsvector
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT strip(to_tsvector('search_words', search_fold(concat_ws(' ', title, brand, category, description))))
    $$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION search_head(title text, brand text, category text) RETURNS tsvector
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT setweight(to_tsvector('search_words', search_fold(title)), 'A')
          || setweight(to_tsvector('search_words', search_fold(brand)), 'B')
          || setweight(to_tsvector('search_words', search_fold(category)), 'C')
    $$`.execute(db);
  if (await tableExists(db, "search_products")) {
    await sql`
      UPDATE search_products s
      SET head = search_head(p.title, b.name, c.name), document = search_document(p.title, b.name, c.name, p.description)
      FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id
      WHERE s.product_id = p.id`.execute(db);
    await sql`ANALYZE search_products`.execute(db);
  }
  await sql`DROP TEXT SEARCH CONFIGURATION IF EXISTS search_porter`.execute(db);
  await sql`DROP TEXT SEARCH DICTIONARY IF EXISTS search_porter_stem`.execute(db);
}
