import { sql, type RawBuilder } from "kysely";
import type { DbKind } from "../db/connection.ts";
import { porterStem, words } from "./search-text.ts";
import type { ResolvedTerm } from "./search-vocabulary.ts";

/**
 * The full-text side of a search: the match expression for each database and the relevance score
 * (docs/decisions/0003-search.md, 0020-search-score-without-posting-lists.md). Per word, 4 when it
 * matches the title, 2 when it matches the brand or category name but not the title, 1 otherwise.
 */

const WORD = /^[a-z0-9]+$/;

/** FTS5 expression: each term an OR group of quoted words, the terms joined by AND. */
function ftsTerm(term: ResolvedTerm, columns?: string): string {
  const group = `(${term.alternatives.filter((w) => WORD.test(w)).map((w) => `"${w}"`).join(" OR ")})`;
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
  return `(${term.matchWords.filter((w) => WORD.test(w)).map((w) => (weights ? `${w}:${weights}` : w)).join(" | ")})`;
}
export function tsQuery(terms: ResolvedTerm[], weights?: string): string {
  return terms.map((t) => tsTerm(t, weights)).join(" & ");
}

/** A brand or category: its id and its name. */
export interface NamedOption {
  id: number;
  name: string;
}

/** The brands and categories the score reads names from (SQLite: they are matched here, not in the index). */
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
  return options.filter((o) => words(o.name).some((w) => stems.has(porterStem(w)))).map((o) => o.id);
}

function sqliteScore(terms: ResolvedTerm[], names: ScoreNames): RawBuilder<unknown> {
  return sql.join(
    terms.map((term) => {
      // In the title: the other words anywhere and this one in the title. Asked that way, FTS5
      // walks the matches only, not every product that has the word (a common word's full list
      // was most of a search's time).
      const others = terms.filter((t) => t !== term);
      const inTitle = [ftsTerm(term, "title"), ...others.map((t) => ftsTerm(t))].join(" AND ");
      const brandIds = namesMatching(names.brands, term);
      const categoryIds = namesMatching(names.categories, term);
      const nameConditions = [
        ...(brandIds.length ? [sql`s.brand_id IN (${sql.join(brandIds)})`] : []),
        ...(categoryIds.length ? [sql`s.category_id IN (${sql.join(categoryIds)})`] : []),
      ];
      const inName = nameConditions.length ? sql`WHEN ${sql.join(nameConditions, sql` OR `)} THEN 2` : sql``;
      return sql`(CASE WHEN s.product_id IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ${inTitle}) THEN 4 ${inName} ELSE 1 END)`;
    }),
    sql` + `,
  );
}

function postgresScore(terms: ResolvedTerm[]): RawBuilder<unknown> {
  return sql.join(
    terms.map(
      (t) => sql`(1 + (s.head @@ to_tsquery('search_words', ${tsTerm(t, "ABC")}))::int
                    + 2 * (s.head @@ to_tsquery('search_words', ${tsTerm(t, "A")}))::int)`,
    ),
    sql` + `,
  );
}

/**
 * The matching products (on sale) with the given columns of search_products (alias `s`), plus
 * `score`: the relevance when `names` is given, else 0.
 */
export function matchSource(kind: DbKind, terms: ResolvedTerm[], columns: RawBuilder<unknown>, names: ScoreNames | null): RawBuilder<unknown> {
  if (kind === "postgres") {
    return sql`
      SELECT ${columns}, ${names ? postgresScore(terms) : sql`0`} AS score
      FROM search_products s
      WHERE s.document @@ to_tsquery('search_words', ${tsQuery(terms)})`;
  }
  return sql`
    SELECT ${columns}, ${names ? sqliteScore(terms, names) : sql`0`} AS score
    FROM products_fts JOIN search_products s ON s.product_id = products_fts.rowid
    WHERE products_fts MATCH ${ftsQuery(terms)}`;
}
