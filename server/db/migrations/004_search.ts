import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { rebuildSearchVocabulary } from "../../catalog/search-vocabulary.ts";

/**
 * Product search (issue 5, docs/decisions/0003-search.md).
 *
 * Both databases get:
 * - `search_products`: one narrow row per product with what filters, facets and sorting read,
 *   kept in step with `products` (and brand/category renames) by triggers;
 * - `search_terms`: the vocabulary of words in the catalog, for typo tolerance, prefixes and
 *   "did you mean" (rebuilt by `rebuildSearchVocabulary`, which the seed calls).
 * SQLite adds the FTS5 index `products_fts` (external content, porter stemmer) over the view
 * `products_search_source`, and `search_term_trigrams` for trigram lookups. PostgreSQL adds two
 * tsvectors in the `search_porter` configuration: `search_products.document` (every word, GIN
 * index, for matching) and `search_products.head` (title A, brand B, category C, for relevance),
 * and a pg_trgm index on the vocabulary.
 */
/** SQLite: the product columns search_products copies, and the statement that copies them (also used by migration 021). */
export const SQLITE_FACT_COLUMNS =
  "category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title";
export const SQLITE_COPY_FACTS = `UPDATE search_products SET category_id = new.category_id, brand_id = new.brand_id,
        sale_price_cents = new.sale_price_cents, discount_percent = new.discount_percent,
        stock_quantity = new.stock_quantity, created_at = new.created_at, title = new.title
      WHERE product_id = new.id;`;

export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind === "postgres") await upPostgres(db);
  else await upSqlite(db);
  await rebuildSearchVocabulary(db as never);
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE search_products (
      product_id INTEGER PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE ON UPDATE CASCADE,
      category_id INTEGER NOT NULL,
      brand_id INTEGER NOT NULL,
      sale_price_cents INTEGER NOT NULL,
      discount_percent INTEGER,
      stock_quantity INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      title TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX search_products_created_idx ON search_products (created_at)`.execute(db);
  await sql`CREATE INDEX search_products_price_idx ON search_products (sale_price_cents)`.execute(db);
  await sql`CREATE INDEX search_products_title_idx ON search_products (title)`.execute(db);
  // Covers the facet counts: (category, brand) cells under price and availability filters.
  await sql`
    CREATE INDEX search_products_facets_idx
    ON search_products (category_id, brand_id, sale_price_cents, stock_quantity, discount_percent)`.execute(db);

  await sql`
    CREATE VIEW products_search_source AS
    SELECT p.id AS id, p.title AS title, b.name AS brand, c.name AS category, p.description AS description
    FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id`.execute(db);
  await sql`
    CREATE VIRTUAL TABLE products_fts USING fts5(
      title, brand, category, description,
      content = 'products_search_source', content_rowid = 'id',
      tokenize = 'porter unicode61 remove_diacritics 2'
    )`.execute(db);

  const ftsInsertNew = `
      INSERT INTO products_fts (rowid, title, brand, category, description)
      VALUES (new.id, new.title, (SELECT name FROM brands WHERE id = new.brand_id),
              (SELECT name FROM categories WHERE id = new.category_id), new.description);`;
  const ftsDeleteOld = `
      INSERT INTO products_fts (products_fts, rowid, title, brand, category, description)
      VALUES ('delete', old.id, old.title, (SELECT name FROM brands WHERE id = old.brand_id),
              (SELECT name FROM categories WHERE id = old.category_id), old.description);`;

  await sql
    .raw(
      `
    CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
      ${ftsInsertNew}
      INSERT INTO search_products (product_id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title)
      VALUES (new.id, new.category_id, new.brand_id, new.sale_price_cents, new.discount_percent, new.stock_quantity, new.created_at, new.title);
    END`,
    )
    .execute(db);
  await sql.raw(`CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN ${ftsDeleteOld} END`).execute(db);
  await sql
    .raw(
      `
    CREATE TRIGGER products_search_update_text AFTER UPDATE OF id, title, description, brand_id, category_id ON products BEGIN
      ${ftsDeleteOld}
      ${ftsInsertNew}
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `
    CREATE TRIGGER products_search_update_facts
    AFTER UPDATE OF ${SQLITE_FACT_COLUMNS} ON products BEGIN
      ${SQLITE_COPY_FACTS}
    END`,
    )
    .execute(db);
  // Renaming a brand or category re-indexes its products.
  const renames = [
    {
      table: "brands",
      column: "brand_id",
      names: (n: string) => `${n}.name, (SELECT name FROM categories WHERE id = p.category_id)`,
    },
    {
      table: "categories",
      column: "category_id",
      names: (n: string) => `(SELECT name FROM brands WHERE id = p.brand_id), ${n}.name`,
    },
  ];
  for (const { table, column, names } of renames) {
    await sql
      .raw(
        `
      CREATE TRIGGER ${table}_search_rename AFTER UPDATE OF name ON ${table} WHEN old.name IS NOT new.name BEGIN
        INSERT INTO products_fts (products_fts, rowid, title, brand, category, description)
          SELECT 'delete', p.id, p.title, ${names("old")}, p.description FROM products p WHERE p.${column} = old.id;
        INSERT INTO products_fts (rowid, title, brand, category, description)
          SELECT p.id, p.title, ${names("new")}, p.description FROM products p WHERE p.${column} = new.id;
      END`,
      )
      .execute(db);
  }

  // Products that existed before this migration.
  await sql`
    INSERT INTO search_products (product_id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title)
    SELECT id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title FROM products`.execute(
    db,
  );
  await sql`INSERT INTO products_fts (products_fts) VALUES ('rebuild')`.execute(db);

  await sql`
    CREATE TABLE search_terms (
      term TEXT PRIMARY KEY,
      stem TEXT NOT NULL,
      doc_count INTEGER NOT NULL,
      title_count INTEGER NOT NULL,
      trigram_count INTEGER NOT NULL
    ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX search_terms_stem_idx ON search_terms (stem)`.execute(db);
  await sql`
    CREATE TABLE search_term_trigrams (
      trigram TEXT NOT NULL,
      term TEXT NOT NULL,
      PRIMARY KEY (trigram, term)
    ) WITHOUT ROWID`.execute(db);
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  // An extension exists once per database. Put pg_trgm in public (tests run in throwaway schemas
  // that must not own it) and refer to it by its schema everywhere.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
  const trgm = await trigramSchema(db);

  // The original Porter stemmer, as SQLite's FTS5 `porter` tokenizer uses, so both databases stem alike.
  await sql`CREATE TEXT SEARCH DICTIONARY search_porter_stem (TEMPLATE = snowball, LANGUAGE = porter, STOPWORDS = english)`.execute(
    db,
  );
  await sql`CREATE TEXT SEARCH CONFIGURATION search_porter (COPY = english)`.execute(db);
  await sql`
    ALTER TEXT SEARCH CONFIGURATION search_porter
    ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, hword_asciipart, hword_part, hword_numpart
    WITH search_porter_stem`.execute(db);

  // Text is folded the way FTS5's unicode61 tokenizer splits it: lower case, runs of letters and digits.
  await sql`
    CREATE FUNCTION search_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT regexp_replace(lower(value), '[^[:alnum:]]+', ' ', 'g') $$`.execute(db);
  // `document`: every word of the product, without positions (matching only, through the GIN index).
  await sql`
    CREATE FUNCTION search_document(title text, brand text, category text, description text) RETURNS tsvector
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT strip(to_tsvector('search_porter', search_fold(concat_ws(' ', title, brand, category, description))))
    $$`.execute(db);
  // `head`: the words relevance weighs, A title, B brand, C category (small, so scoring a match is cheap).
  await sql`
    CREATE FUNCTION search_head(title text, brand text, category text) RETURNS tsvector
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT setweight(to_tsvector('search_porter', search_fold(title)), 'A')
          || setweight(to_tsvector('search_porter', search_fold(brand)), 'B')
          || setweight(to_tsvector('search_porter', search_fold(category)), 'C')
    $$`.execute(db);

  await sql`
    CREATE TABLE search_products (
      product_id integer PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE ON UPDATE CASCADE,
      category_id integer NOT NULL,
      brand_id integer NOT NULL,
      sale_price_cents integer NOT NULL,
      discount_percent integer,
      stock_quantity integer NOT NULL,
      created_at text NOT NULL,
      title text NOT NULL,
      head tsvector NOT NULL,
      document tsvector NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX search_products_created_idx ON search_products (created_at)`.execute(db);
  await sql`CREATE INDEX search_products_price_idx ON search_products (sale_price_cents)`.execute(db);
  await sql`CREATE INDEX search_products_title_idx ON search_products (title COLLATE "C")`.execute(db);
  await sql`
    CREATE INDEX search_products_facets_idx
    ON search_products (category_id, brand_id, sale_price_cents, stock_quantity, discount_percent)`.execute(db);
  await sql`CREATE INDEX search_products_document_idx ON search_products USING gin (document)`.execute(db);

  const selectFrom = (rows: string) =>
    sql.raw(`
      SELECT n.id, n.category_id, n.brand_id, n.sale_price_cents, n.discount_percent, n.stock_quantity, n.created_at, n.title,
             search_head(n.title, b.name, c.name), search_document(n.title, b.name, c.name, n.description)
      FROM ${rows} n JOIN brands b ON b.id = n.brand_id JOIN categories c ON c.id = n.category_id`);

  // Inserts arrive in batches (the seed writes 500 rows per statement): one statement-level trigger per batch.
  await sql`
    CREATE FUNCTION search_products_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_products (product_id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title, head, document)
      ${selectFrom("new_rows")};
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER products_search_insert AFTER INSERT ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_products_after_insert()`.execute(db);

  // Updates (stock, prices, text) are few: row level, and the vectors are rebuilt only when their text changed.
  await sql`
    CREATE FUNCTION search_products_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      brand_name text;
      category_name text;
    BEGIN
      UPDATE search_products SET
        category_id = NEW.category_id, brand_id = NEW.brand_id, sale_price_cents = NEW.sale_price_cents,
        discount_percent = NEW.discount_percent, stock_quantity = NEW.stock_quantity,
        created_at = NEW.created_at, title = NEW.title
      WHERE product_id = NEW.id;
      IF (OLD.title, OLD.description, OLD.brand_id, OLD.category_id) IS DISTINCT FROM (NEW.title, NEW.description, NEW.brand_id, NEW.category_id) THEN
        SELECT name INTO brand_name FROM brands WHERE id = NEW.brand_id;
        SELECT name INTO category_name FROM categories WHERE id = NEW.category_id;
        UPDATE search_products SET
          head = search_head(NEW.title, brand_name, category_name),
          document = search_document(NEW.title, brand_name, category_name, NEW.description)
        WHERE product_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER products_search_update AFTER UPDATE ON products
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION search_products_after_update()`.execute(db);

  await sql`
    CREATE FUNCTION search_products_after_rename() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE search_products s
      SET head = search_head(p.title, b.name, c.name), document = search_document(p.title, b.name, c.name, p.description)
      FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id
      WHERE s.product_id = p.id
        AND ((TG_TABLE_NAME = 'brands' AND p.brand_id = NEW.id) OR (TG_TABLE_NAME = 'categories' AND p.category_id = NEW.id));
      RETURN NULL;
    END $$`.execute(db);
  for (const table of ["brands", "categories"]) {
    await sql
      .raw(
        `
      CREATE TRIGGER ${table}_search_rename AFTER UPDATE OF name ON ${table}
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION search_products_after_rename()`,
      )
      .execute(db);
  }

  await sql`
    INSERT INTO search_products (product_id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title, head, document)
    ${selectFrom("products")}`.execute(db);

  await sql`
    CREATE TABLE search_terms (
      term text COLLATE "C" PRIMARY KEY,
      stem text NOT NULL,
      doc_count integer NOT NULL,
      title_count integer NOT NULL,
      trigram_count integer NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX search_terms_stem_idx ON search_terms (stem)`.execute(db);
  await sql`CREATE INDEX search_terms_trgm_idx ON search_terms USING gin (term ${sql.id(trgm)}.gin_trgm_ops)`.execute(
    db,
  );
}

async function trigramSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(
    db,
  );
  if (!rows[0]) throw new Error("pg_trgm is not installed");
  return rows[0].schema;
}
