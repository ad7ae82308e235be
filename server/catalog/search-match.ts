import type { MarketId } from "../../app/lib/markets.ts";
import { marketSaleColumn } from "./market-columns.ts";
import { sql, type RawBuilder } from "kysely";
import type { DbKind } from "../db/connection.ts";
import { SQLITE_MATCH_INDEX, SQLITE_MATCH_INDEX_COLUMNS } from "../db/migrations/022_search_match_index.ts";
import { porterStem, words } from "./search-text.ts";
import type { ResolvedTerm } from "./search-vocabulary.ts";

/**
 * The full-text side of a search: the match expression for each database and the relevance score
 * (docs/decisions/0003-search.md, 0020-search-score.md). Per word, 4 when it matches the title,
 * 2 when it matches the brand or category name but not the title, 1 otherwise.
 */

const WORD = /^[a-z0-9]+$/;

/**
 * FTS5 expression: each term an OR group of quoted words, the terms joined by AND. FTS5 stems each
 * word of the query as it stems the index (`porter`), so of words with one stem ("drill", "drills",
 * "drilling") the first stands for all: each more would read the same list of products again.
 */
function ftsTerm(term: ResolvedTerm, columns?: string): string {
  const stems = new Set<string>();
  const distinct = term.alternatives.filter(
    (w) => WORD.test(w) && !stems.has(porterStem(w)) && stems.add(porterStem(w)),
  );
  const group = `(${distinct.map((w) => `"${w}"`).join(" OR ")})`;
  return columns ? `{${columns}} : ${group}` : group;
}
export function ftsQuery(terms: ResolvedTerm[], columns?: string): string {
  return terms.map((t) => ftsTerm(t, columns)).join(" AND ");
}

/**
 * PostgreSQL tsquery text in the same shape, over the unstemmed words that match (see
 * `matchWords`); weights (on `head`) restrict a word to fields (A title, B brand, C category).
 */
function tsTerm(term: ResolvedTerm, weights?: string): string {
  return `(${term.matchWords
    .filter((w) => WORD.test(w))
    .map((w) => (weights ? `${w}:${weights}` : w))
    .join(" | ")})`;
}
export function tsQuery(terms: ResolvedTerm[], weights?: string): string {
  return terms.map((t) => tsTerm(t, weights)).join(" & ");
}

/** A brand or category: its id and its name. */
export interface NamedOption {
  id: number;
  name: string;
}

/** The brands and categories whose names the score matches (here, once per query, not per product). */
export interface ScoreNames {
  brands: NamedOption[];
  categories: NamedOption[];
}

/**
 * Ids of the options whose name holds a word matching the term as the index matches it: same
 * Porter stem, as FTS5's `porter` tokenizer stems both the query and the brand and category columns.
 */
export function namesMatching(options: NamedOption[], term: ResolvedTerm): number[] {
  const stems = new Set(term.alternatives.filter((w) => WORD.test(w)).map(porterStem));
  return options.filter((o) => nameStems(o).some((stem) => stems.has(stem))).map((o) => o.id);
}

// The options live as long as the process's reference data (search.ts), so each name is stemmed once.
const stemsByOption = new WeakMap<NamedOption, string[]>();
function nameStems(option: NamedOption): string[] {
  let stems = stemsByOption.get(option);
  if (!stems) {
    stems = words(option.name).map(porterStem);
    stemsByOption.set(option, stems);
  }
  return stems;
}

/** One word's score: 4 when `inTitle` holds, 2 when the brand or category name has the word, else 1. */
function wordScore(term: ResolvedTerm, inTitle: RawBuilder<unknown>, names: ScoreNames): RawBuilder<unknown> {
  const brandIds = namesMatching(names.brands, term);
  const categoryIds = namesMatching(names.categories, term);
  const inName = [
    ...(brandIds.length ? [sql`s.brand_id IN (${sql.join(brandIds)})`] : []),
    ...(categoryIds.length ? [sql`s.category_id IN (${sql.join(categoryIds)})`] : []),
  ];
  return sql`(CASE WHEN ${inTitle} THEN 4 ${inName.length ? sql`WHEN ${sql.join(inName, sql` OR `)} THEN 2` : sql``} ELSE 1 END)`;
}

function score(kind: DbKind, terms: ResolvedTerm[], names: ScoreNames): RawBuilder<unknown> {
  return sql.join(
    terms.map((term) => {
      if (kind === "postgres")
        return wordScore(term, sql`s.head @@ to_tsquery('search_words', ${tsTerm(term, "A")})`, names);
      // In the title: the other words anywhere and this one in the title. Asked that way, FTS5
      // walks the matches only, not every product that has the word (a common word's full list
      // was most of a search's time).
      const inTitle = [ftsTerm(term, "title"), ...terms.filter((t) => t !== term).map((t) => ftsTerm(t))].join(" AND ");
      return wordScore(
        term,
        sql`s.product_id IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ${inTitle})`,
        names,
      );
    }),
    sql` + `,
  );
}

/**
 * SQLite: how a match reads search_products. Through the narrow match index when it holds every
 * column asked for (migration 022): at 1,000,000 products the table's rows no longer fit the page
 * cache, the index's do. SQLite would pick the primary key by itself, so the index is named.
 */
function searchProductsFor(columns: string[]): RawBuilder<unknown> {
  const covered = columns.every((c) => c === "product_id" || SQLITE_MATCH_INDEX_COLUMNS.includes(c));
  return sql.raw(covered ? `search_products s INDEXED BY ${SQLITE_MATCH_INDEX}` : "search_products s");
}

/**
 * `s.column` for each column (`product_id` as `id`). In another market than the US one the price
 * is that market's, read from the product by its key (search_products keeps the US price).
 */
export function selectList(columns: string[], market: MarketId = "us"): RawBuilder<unknown> {
  return sql.raw(
    columns
      .map((c) => {
        if (c === "product_id") return "s.product_id AS id";
        if (c === "sale_price_cents" && market !== "us") return `${marketPriceOfSearchRow(market)} AS sale_price_cents`;
        return `s.${c}`;
      })
      .join(", "),
  );
}

/** The market's sale price of a search_products row `s`, from its product. */
function marketPriceOfSearchRow(market: MarketId): string {
  return `(SELECT p.${marketSaleColumn(market)} FROM products p WHERE p.id = s.product_id)`;
}

/**
 * The matching products (on sale) with the given columns of search_products (alias `s`;
 * `product_id` comes out as `id`), plus `score`: the relevance when `names` is given, else 0.
 */
export function matchSource(
  kind: DbKind,
  terms: ResolvedTerm[],
  columns: string[],
  names: ScoreNames | null,
  market: MarketId = "us",
): RawBuilder<unknown> {
  if (kind === "postgres") {
    return sql`
      SELECT ${selectList(columns, market)}, ${names ? score(kind, terms, names) : sql`0`} AS score
      FROM search_products s
      WHERE s.document @@ to_tsquery('search_words', ${tsQuery(terms)})`;
  }
  return sql`
    SELECT ${selectList(columns, market)}, ${names ? score(kind, terms, names) : sql`0`} AS score
    FROM products_fts JOIN ${searchProductsFor(columns)} ON s.product_id = products_fts.rowid
    WHERE products_fts MATCH ${ftsQuery(terms)}`;
}

/**
 * SQLite: the ids of the matching products (on sale) with every word in the title, which have the
 * highest score a query can give (4 per word), so they open a relevance order when there are
 * enough of them (search.ts). With the columns the filters read. The id is FTS5's rowid, so an
 * order by id walks the index in its own order (`ORDER BY s.product_id` sorted every match first:
 * 15 ms for "drill" at 1,000,000 products).
 */
export function titleMatchSource(terms: ResolvedTerm[], market: MarketId = "us"): RawBuilder<unknown> {
  const price = sql.raw(
    market === "us" ? "s.sale_price_cents" : `${marketPriceOfSearchRow(market)} AS sale_price_cents`,
  );
  return sql`
    SELECT products_fts.rowid AS id, s.category_id, s.brand_id, ${price}, s.discount_percent, s.stock_quantity
    FROM products_fts JOIN ${searchProductsFor(SQLITE_MATCH_INDEX_COLUMNS)} ON s.product_id = products_fts.rowid
    WHERE products_fts MATCH ${ftsQuery(terms, "title")}`;
}
