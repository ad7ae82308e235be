import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * PostgreSQL: lists of the products on sale that hold each word, so a search need not read every
 * match's row (issue 15, docs/decisions/0024-postgres-search-postings.md). A GIN index gives the
 * matching rows' addresses only; at 1,000,000 products "drill" then reads 45,000 pages of
 * search_products (350 ms). Here the same matches are a few rows of id lists.
 *
 * `search_postings`: per word of `document` (`in_title` false) and per title word of `head`
 * (`in_title` true, weight A), the ids of the products that have it, in blocks of 4,096 ids so
 * that a change rewrites one short list, as the text a search reads (see CODES). Triggers on
 * search_products keep them, and `search_cells_version` (as on SQLite, migration 023): its
 * `version` moves whenever a product joins or leaves search_products or changes category or brand,
 * for each process's map of cells (server/catalog/search-cells.ts); its `words_version` (migration
 * 025) whenever a list may have changed, for each process's copies of lists (search-postings.ts).
 * A change of price or stock alone moves neither.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  await createSearchPostings(db, kind);
}

const WORDS = `
  CREATE OR REPLACE FUNCTION search_posting_words(document tsvector, head tsvector) RETURNS TABLE (word text, in_title boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT w, false FROM unnest(tsvector_to_array(document)) w
    UNION ALL
    SELECT lexeme, true FROM unnest(head) WHERE 'A' = ANY (weights)
  $$`;

/** Each (word, in_title, block) of a set of search_products rows, with its ids. */
const pairs = (rows: string) => `
  SELECT w.word, w.in_title, r.product_id >> 12 AS block, r.product_id
  FROM ${rows} r CROSS JOIN LATERAL search_posting_words(r.document, r.head) w`;

/** The ids of each (word, in_title, block) of `rows`, written as a list (see CODES), appended to its list as a new run. */
const ADD = (rows: string) => `
  INSERT INTO search_postings (word, in_title, block, ids)
  SELECT word, in_title, block, string_agg(search_posting_code(product_id - previous), '' ORDER BY product_id)
  FROM (
    SELECT word, in_title, block, product_id,
           coalesce(lag(product_id) OVER (PARTITION BY word, in_title, block ORDER BY product_id), 0) AS previous
    FROM (${rows}) p
  ) d
  GROUP BY word, in_title, block
  ON CONFLICT (word, in_title, block) DO UPDATE
  SET ids = CASE WHEN search_postings.ids = '' THEN EXCLUDED.ids ELSE search_postings.ids || '~' || EXCLUDED.ids END`;

/** The ids of each (word, in_title, block) of `rows` leave its list, which is written anew. */
const REMOVE = (rows: string) => `
  UPDATE search_postings s
  SET ids = coalesce((
    SELECT string_agg(search_posting_code(id - previous), '' ORDER BY id)
    FROM (SELECT id, coalesce(lag(id) OVER (ORDER BY id), 0) AS previous FROM search_posting_ids(s.ids) id WHERE id <> ALL (gone.ids)) kept
  ), '')
  FROM (SELECT word, in_title, block, array_agg(product_id) AS ids FROM (${rows}) p GROUP BY word, in_title, block) gone
  WHERE s.word = gone.word AND s.in_title = gone.in_title AND s.block = gone.block`;

/**
 * A list is the text a search reads (server/catalog/search-postings.ts): the first id, then each
 * one's distance from the one before, every number in base 32, most significant digit first, its
 * last digit from "0"–"O" and the digits before it from "P"–"o"; ids appended later start a new
 * run after "~". So "QU@3Q8~QW22" is 1200, 1203, 1243, then 1250, 1252. Most distances take one
 * character. As decimal numbers with commas, "drill" at 1,000,000 products was 1.2 MB to send and
 * read on every search; as integer arrays, PostgreSQL's writing them out took 7 ms more.
 */
const CODES = [
  `CREATE OR REPLACE FUNCTION search_posting_code(n integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
      WHEN n < 32 THEN chr(48 + n)
      WHEN n < 1024 THEN chr(80 + (n >> 5)) || chr(48 + (n & 31))
      WHEN n < 32768 THEN chr(80 + (n >> 10)) || chr(80 + ((n >> 5) & 31)) || chr(48 + (n & 31))
      ELSE chr(80 + (n >> 30)) || chr(80 + ((n >> 25) & 31)) || chr(80 + ((n >> 20) & 31)) || chr(80 + ((n >> 15) & 31))
        || chr(80 + ((n >> 10) & 31)) || chr(80 + ((n >> 5) & 31)) || chr(48 + (n & 31))
    END
  $$`,
  `CREATE OR REPLACE FUNCTION search_posting_number(digits text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT sum((ascii(substr(digits, k, 1)) - CASE WHEN k = length(digits) THEN 48 ELSE 80 END)::bigint << (5 * (length(digits) - k)))::bigint
    FROM generate_series(1, length(digits)) k
  $$`,
  `CREATE OR REPLACE FUNCTION search_posting_ids(list text) RETURNS SETOF integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (sum(search_posting_number(token)) OVER (PARTITION BY run ORDER BY n))::integer FROM (
      SELECT n, m[1] AS token, count(*) FILTER (WHERE m[1] = '~') OVER (ORDER BY n) AS run
      FROM regexp_matches(list, '(~|[P-o]*[0-O])', 'g') WITH ORDINALITY AS x(m, n)
    ) p
    WHERE token <> '~'
  $$`,
];

/** A product joined or left: the map of cells and the lists both changed. */
const BUMP = "UPDATE search_cells_version SET version = version + 1, words_version = words_version + 1";
/** A product's words, category or brand changed: the lists may have, the map only when a cell did. */
const BUMP_AFTER_UPDATE = `
  UPDATE search_cells_version SET words_version = words_version + 1,
    version = version + CASE WHEN EXISTS (
      SELECT product_id, category_id, brand_id FROM old_rows EXCEPT SELECT product_id, category_id, brand_id FROM new_rows) THEN 1 ELSE 0 END`;

/** A trigger function of these statements (each ends with ";"). */
const triggerFunction = (name: string, statements: string) => `
  CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${statements}
    RETURN NULL;
  END $$`;

const FUNCTIONS = [
  WORDS,
  ...CODES,
  triggerFunction("search_postings_after_insert", `${ADD(pairs("new_rows"))}; ${BUMP};`),
  triggerFunction("search_postings_after_delete", `${REMOVE(pairs("old_rows"))}; ${BUMP};`),
  // Updates: the words a row lost leave their lists, then the words it gained join theirs. Most
  // updates (prices, stock) change neither words nor cell, and end at the first check.
  triggerFunction(
    "search_postings_after_update",
    `IF NOT EXISTS (
       SELECT product_id, category_id, brand_id, document, head FROM old_rows
       EXCEPT SELECT product_id, category_id, brand_id, document, head FROM new_rows) THEN
       RETURN NULL;
     END IF;
     ${REMOVE(`${pairs("old_rows")} EXCEPT ${pairs("new_rows")}`)};
     ${ADD(`${pairs("new_rows")} EXCEPT ${pairs("old_rows")}`)};
     ${BUMP_AFTER_UPDATE};`,
  ),
  triggerFunction("search_postings_after_truncate", `TRUNCATE search_postings; ${BUMP};`),
];

const TRIGGERS = [
  "CREATE TRIGGER search_postings_insert AFTER INSERT ON search_products REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_postings_after_insert()",
  "CREATE TRIGGER search_postings_delete AFTER DELETE ON search_products REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_postings_after_delete()",
  "CREATE TRIGGER search_postings_update AFTER UPDATE ON search_products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_postings_after_update()",
  "CREATE TRIGGER search_postings_truncate AFTER TRUNCATE ON search_products FOR EACH STATEMENT EXECUTE FUNCTION search_postings_after_truncate()",
];

/**
 * Creates (or, for the search schema's repair in migration 028, re-creates) the lists, their triggers and the
 * version, and fills the lists from search_products as it is.
 */
export async function createSearchPostings(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind !== "postgres") return;
  await sql`
    CREATE TABLE IF NOT EXISTS search_postings (
      word text COLLATE "C" NOT NULL,
      in_title boolean NOT NULL,
      block integer NOT NULL,
      ids text NOT NULL,
      PRIMARY KEY (word, in_title, block)
    )`.execute(db);
  await createPostingFunctions(db, kind);
  for (const name of ["insert", "delete", "update", "truncate"]) {
    await sql.raw(`DROP TRIGGER IF EXISTS search_postings_${name} ON search_products`).execute(db);
  }
  for (const statement of TRIGGERS) await sql.raw(statement).execute(db);
  await sql`TRUNCATE search_postings`.execute(db);
  await sql.raw(ADD(pairs("search_products"))).execute(db);
  await sql.raw(BUMP).execute(db);
}

/**
 * The versions, and the functions that write the lists and move the versions (CREATE OR REPLACE:
 * triggers that exist already run the new text). Also run by migration 025.
 */
export async function createPostingFunctions(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind !== "postgres") return;
  await sql`CREATE TABLE IF NOT EXISTS search_cells_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`.execute(
    db,
  );
  // Only when missing: ALTER TABLE locks the table, which every search reads, even when it changes nothing.
  const column = await sql`
    SELECT 1 FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'search_cells_version' AND column_name = 'words_version'`.execute(
    db,
  );
  if (column.rows.length === 0)
    await sql`ALTER TABLE search_cells_version ADD COLUMN words_version bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`INSERT INTO search_cells_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`.execute(db);
  for (const statement of FUNCTIONS) await sql.raw(statement).execute(db);
}
