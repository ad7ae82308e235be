import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { currentCellMap, type Cell, type CellMap } from "./search-cells.ts";
import { namesMatching, type ScoreNames } from "./search-match.ts";
import type { ResolvedTerm } from "./search-vocabulary.ts";

/**
 * PostgreSQL: a relevance search without price or availability filters, from the lists of products
 * per word (migration 024, docs/decisions/0024-postgres-search-postings.md) and this process's map
 * of products to facet cells (search-cells.ts). The same matches, score and order as the SQL
 * (search-match.ts): a product matches when it has, for every term, one of the term's words; per
 * term it scores 4 when the word is in its title, 2 when the term names its brand or category,
 * else 1; the page is the highest scores first, then the lowest ids.
 */

const WORD = /^[a-z0-9]+$/;
/** Per product one byte holds which terms are in its title: longer queries are asked in SQL. */
const MAX_TERMS = 8;

export interface GroupFilters {
  categoryIds: number[];
  brandIds: number[];
}

/**
 * Calls `visit` with each id of a stored list (migration 024): the first id, then each one's
 * distance from the one before, in base 32, a number's last digit from "0"–"O" and the digits
 * before it from "P"–"o"; "~" starts a new run. "QU@3Q8~QW22" is 1200, 1203, 1243, 1250, 1252.
 */
export function forEachId(list: string, visit: (id: number) => void): void {
  let value = 0;
  let previous = 0;
  for (let i = 0; i < list.length; i++) {
    const code = list.charCodeAt(i);
    if (code === 126) previous = 0;
    else if (code >= 80) value = value * 32 + (code - 80);
    else {
      visit((previous += value * 32 + (code - 48)));
      value = 0;
    }
  }
}

/** Per term, the id lists (as stored) of its words: anywhere in the product, and in the title. */
async function termLists(db: Db, terms: ResolvedTerm[]): Promise<{ anywhere: string[][]; inTitle: string[][] }> {
  const wordsOf = terms.map((t) => [...new Set(t.matchWords.filter((w) => WORD.test(w)))]);
  const words = [...new Set(wordsOf.flat())];
  const { rows } = words.length
    ? await sql<{ word: string; in_title: boolean; ids: string }>`
        SELECT word, in_title, string_agg(ids, '~' ORDER BY block) AS ids FROM search_postings
        WHERE word = ANY(${words}::text[]) GROUP BY word, in_title`.execute(db)
    : { rows: [] };
  // One row per word and field: its blocks joined in one list.
  const lists = new Map(rows.map((row) => [`${row.in_title ? "t" : "d"}:${row.word}`, row.ids]));
  const of = (field: string, ws: string[]) => ws.flatMap((w) => lists.get(`${field}:${w}`) ?? []);
  return { anywhere: wordsOf.map((ws) => of("d", ws)), inTitle: wordsOf.map((ws) => of("t", ws)) };
}

/**
 * Two bytes per product id, reused by every search of the process (a search uses them without
 * awaiting, and leaves them zeroed): at 1,000,000 products, new ones each time were most of the
 * search's garbage.
 */
let scratch = { matched: new Uint8Array(0), titled: new Uint8Array(0) };
function scratchFor(size: number) {
  if (scratch.matched.length !== size) scratch = { matched: new Uint8Array(size), titled: new Uint8Array(size) };
  return scratch;
}

/** Per term, per cell of the map (index + 1): does the term name the cell's brand or category? */
function namedCells(map: CellMap, terms: ResolvedTerm[], names: ScoreNames): Uint8Array[] {
  return terms.map((term) => {
    const brands = new Set(namesMatching(names.brands, term));
    const categories = new Set(namesMatching(names.categories, term));
    const named = new Uint8Array(map.cells.length + 1);
    map.cells.forEach((cell, i) => {
      named[i + 1] = brands.has(cell.brand_id) || categories.has(cell.category_id) ? 1 : 0;
    });
    return named;
  });
}

/**
 * The facet counts (every match, per cell) and the ids of one page. Null when this search is asked
 * in SQL instead: SQLite, a transaction, no map, or too many terms.
 */
export async function postingsPage(
  db: Db,
  terms: ResolvedTerm[],
  names: ScoreNames,
  groups: GroupFilters,
  offset: number,
  limit: number,
): Promise<{ cells: Cell[]; ids: number[] } | null> {
  if (dbKind(db) !== "postgres" || terms.length === 0 || terms.length > MAX_TERMS) return null;
  const map = await currentCellMap(db);
  if (!map) return null;
  const { anywhere, inTitle } = await termLists(db, terms);
  const named = namedCells(map, terms, names);
  const wanted = (cell: { category_id: number; brand_id: number }) =>
    (groups.categoryIds.length === 0 || groups.categoryIds.includes(cell.category_id)) &&
    (groups.brandIds.length === 0 || groups.brandIds.includes(cell.brand_id));
  const shown = Uint8Array.from([0, ...map.cells.map((cell) => (wanted(cell) ? 1 : 0))]);
  const { counts, ordered } = rank(map, anywhere, inTitle, named, shown, offset + limit);
  return {
    cells: map.cells.flatMap((cell, i) => (counts[i + 1] ? [{ ...cell, n: counts[i + 1] }] : [])),
    ids: ordered.slice(offset, offset + limit),
  };
}

/**
 * The matches' counts per cell (index + 1), and the first `needed` of those in a shown cell, by
 * score, then id.
 */
function rank(map: CellMap, anywhere: string[][], inTitle: string[][], named: Uint8Array[], shown: Uint8Array, needed: number) {
  const { cellOf } = map;
  const size = cellOf.length;
  const last = anywhere.length;
  // matched[id] counts the terms matched so far, each once: an id has the first t when it reaches t.
  const { matched, titled } = scratchFor(size);
  anywhere.forEach((lists, t) => {
    for (const list of lists) {
      forEachId(list, (id) => {
        if (id < size && matched[id] === t) matched[id] = t + 1;
      });
    }
  });
  inTitle.forEach((lists, t) => {
    for (const list of lists) {
      forEachId(list, (id) => {
        if (id < size && matched[id] === last) titled[id] |= 1 << t;
      });
    }
  });

  const counts = new Int32Array(map.cells.length + 1);
  // By score, the ids in ascending order, as many as the page can need.
  const byScore: number[][] = Array.from({ length: 4 * last + 1 }, () => []);
  // A walk over every id gives them in order: cheaper than sorting tens of thousands from several lists.
  for (let id = 1; id < size; id++) {
    if (matched[id] !== last) continue;
    const cell = cellOf[id];
    if (cell === 0) continue; // not on sale as of the map: the next search reloads it
    counts[cell]++;
    if (!shown[cell]) continue;
    let score = 0;
    for (let t = 0; t < last; t++) score += (titled[id] >> t) & 1 ? 4 : named[t][cell] ? 2 : 1;
    const bucket = byScore[score];
    if (bucket.length < needed) bucket.push(id);
  }
  matched.fill(0);
  titled.fill(0);
  const ordered: number[] = [];
  for (let score = byScore.length - 1; score >= 0 && ordered.length < needed; score--) {
    for (const id of byScore[score]) if (ordered.length < needed) ordered.push(id);
  }
  return { counts, ordered };
}
