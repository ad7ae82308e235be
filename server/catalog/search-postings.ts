import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { currentSearchIndex, type Cell, type CellMap } from "./search-cells.ts";
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

/**
 * The ids of the products that have a word anywhere, and in their title: read from the stored lists
 * once, in ascending order, each once. Kept decoded, a search compares them without reading the
 * text again (decision 0037).
 */
interface WordLists {
  anywhere: Int32Array;
  inTitle: Int32Array;
}

const NO_IDS = new Int32Array(0);

/** A stored list's ids (forEachId), ascending and each once: a block's later runs may hold lower ids. */
export function decodeIds(list: string): Int32Array {
  if (!list) return NO_IDS;
  const ids: number[] = [];
  let ascending = true;
  forEachId(list, (id) => {
    if (ids.length && id <= ids[ids.length - 1]) ascending = false;
    ids.push(id);
  });
  const sorted = Int32Array.from(ids);
  if (ascending) return sorted;
  sorted.sort();
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i];
  return sorted.slice(0, kept); // a copy: a view would keep the whole buffer the count leaves out
}

/**
 * The lists this process has read, while `search_cells_version.words_version` holds (migration
 * 025: the triggers move it whenever a list may have changed). A search with a new query mostly
 * asks for words asked before; read again, a broad word's lists were half of PostgreSQL's work
 * for the page, and their text most of what it sent (decision 0030).
 */
interface KeptLists {
  version: number;
  words: Map<string, WordLists>;
  bytes: number;
}

/** About this many bytes of lists are kept per process (four a product id); past it they are dropped, and kept again as read. */
const MAX_KEPT_BYTES = 24_000_000;
/** What a kept word costs besides its lists (map slot, object, the word): a word no product has is kept too. */
const BYTES_PER_WORD = 100;
const kept = new WeakMap<Db, KeptLists>();

/** Forgets the lists this process has kept (tests and benchmarks). */
export function forgetKeptLists(db: Db): void {
  kept.delete(db);
}

/** Per term, the ids of the products that have each of its words: anywhere in the product, and in the title. */
async function termLists(
  db: Db,
  terms: ResolvedTerm[],
  version: number | null,
): Promise<{ anywhere: Int32Array[][]; inTitle: Int32Array[][] }> {
  const wordsOf = terms.map((t) => [...new Set(t.matchWords.filter((w) => WORD.test(w)))]);
  const held = keptAt(db, version);
  const found = new Map<string, WordLists>();
  const missing: string[] = [];
  for (const w of new Set(wordsOf.flat())) {
    const lists = held?.words.get(w);
    if (lists) found.set(w, lists);
    else missing.push(w);
  }
  if (missing.length) {
    const { rows } = await sql<{ word: string; in_title: boolean; ids: string }>`
      SELECT word, in_title, string_agg(ids, '~' ORDER BY block) AS ids FROM search_postings
      WHERE word = ANY(${missing}::text[]) GROUP BY word, in_title`.execute(db);
    // One row per word and field: its blocks joined in one list.
    const read = new Map(missing.map((w): [string, WordLists] => [w, { anywhere: NO_IDS, inTitle: NO_IDS }]));
    for (const row of rows) read.get(row.word)![row.in_title ? "inTitle" : "anywhere"] = decodeIds(row.ids);
    for (const [w, lists] of read) found.set(w, lists);
    // Kept only while `held` is still this process's: a newer version that replaced it during the read may be newer than these lists.
    if (held && kept.get(db) === held) keep(held, read);
  }
  const of = (field: keyof WordLists, ws: string[]) =>
    ws.flatMap((w) => (found.get(w)?.[field].length ? [found.get(w)![field]] : []));
  return { anywhere: wordsOf.map((ws) => of("anywhere", ws)), inTitle: wordsOf.map((ws) => of("inTitle", ws)) };
}

/**
 * The lists kept at `version`, started afresh when it is newer than theirs. An older version (a read
 * begun before a change, or a database restored from a backup) drops them: the same number may
 * come back meaning other lists.
 */
function keptAt(db: Db, version: number | null): KeptLists | undefined {
  if (version == null) return undefined;
  const held = kept.get(db);
  if (held?.version === version) return held;
  if (held && held.version > version) {
    kept.delete(db);
    return undefined;
  }
  const fresh = { version, words: new Map<string, WordLists>(), bytes: 0 };
  kept.set(db, fresh);
  return fresh;
}

function keep(held: KeptLists, read: Map<string, WordLists>): void {
  for (const [word, found] of read) {
    const bytes = BYTES_PER_WORD + word.length + found.anywhere.byteLength + found.inTitle.byteLength;
    if (held.bytes + bytes > MAX_KEPT_BYTES) {
      held.words.clear();
      held.bytes = 0;
    }
    held.words.set(word, found);
    held.bytes += bytes;
  }
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
  const { map, wordsVersion } = await currentSearchIndex(db);
  if (!map) return null;
  const { anywhere, inTitle } = await termLists(db, terms, wordsVersion);
  const named = namedCells(map, terms, names);
  const wanted = (cell: { category_id: number; brand_id: number }) =>
    (groups.categoryIds.length === 0 || groups.categoryIds.includes(cell.category_id)) &&
    (groups.brandIds.length === 0 || groups.brandIds.includes(cell.brand_id));
  const shown = Uint8Array.from([0, ...map.cells.map((cell) => (wanted(cell) ? 1 : 0))]);
  const { counts, ordered } = rankMatches(
    map.cellOf,
    map.cells.length,
    anywhere,
    inTitle,
    named,
    shown,
    offset + limit,
  );
  return {
    cells: map.cells.flatMap((cell, i) => (counts[i + 1] ? [{ ...cell, n: counts[i + 1] }] : [])),
    ids: ordered.slice(offset, offset + limit),
  };
}

/**
 * The matches' counts per cell (index + 1), and the first `needed` of those in a shown cell, by
 * score, then id. `anywhere[t]` and `inTitle[t]` are term t's ids per word, each ascending.
 */
export function rankMatches(
  cellOf: ArrayLike<number>,
  cellCount: number,
  anywhere: Int32Array[][],
  inTitle: Int32Array[][],
  named: Uint8Array[],
  shown: Uint8Array,
  needed: number,
) {
  const size = cellOf.length;
  const last = anywhere.length;
  // matched[id] counts the terms matched so far, each once: an id has the first t when it reaches t.
  // The term with the fewest ids goes first: only its products can match, so they are the
  // candidates; each later term either looks each candidate up in its lists or walks its lists,
  // whichever visits fewer ids.
  const { matched, titled } = scratchFor(size);
  const candidates: number[] = [];
  let ascending = true;
  const terms = anywhere
    .map((lists) => ({ lists, length: lists.reduce((sum, ids) => sum + ids.length, 0) }))
    .sort((a, b) => a.length - b.length);
  for (const ids of terms[0]?.lists ?? []) {
    for (const id of ids) {
      if (id >= size || matched[id] !== 0) continue;
      matched[id] = 1;
      if (candidates.length && id < candidates[candidates.length - 1]) ascending = false;
      candidates.push(id);
    }
  }
  let alive = candidates;
  for (let step = 1; step < last; step++) {
    const { lists, length } = terms[step];
    if (alive.length * lookupCost(length) < length) {
      for (const id of alive) if (lists.some((ids) => has(ids, id))) matched[id] = step + 1;
    } else {
      for (const ids of lists) for (const id of ids) if (id < size && matched[id] === step) matched[id] = step + 1;
    }
    alive = alive.filter((id) => matched[id] === step + 1);
  }
  inTitle.forEach((lists, t) => {
    const length = lists.reduce((sum, ids) => sum + ids.length, 0);
    if (alive.length * lookupCost(length) < length) {
      for (const id of alive) if (lists.some((ids) => has(ids, id))) titled[id] |= 1 << t;
    } else {
      for (const ids of lists) for (const id of ids) if (id < size && matched[id] === last) titled[id] |= 1 << t;
    }
  });

  const counts = new Int32Array(cellCount + 1);
  // By score, the ids in ascending order, as many as the page can need.
  const byScore: number[][] = Array.from({ length: 4 * last + 1 }, () => []);
  const count = (id: number) => {
    if (matched[id] !== last) return;
    const cell = cellOf[id];
    if (cell === 0) return; // not on sale as of the map: the next search reloads it
    counts[cell]++;
    if (!shown[cell]) return;
    let score = 0;
    for (let t = 0; t < last; t++) score += (titled[id] >> t) & 1 ? 4 : named[t][cell] ? 2 : 1;
    const bucket = byScore[score];
    if (bucket.length < needed) bucket.push(id);
  };
  // In id order, so each score's ids come in order. The candidates of several words come unsorted:
  // sorted when few, else a walk over every id is cheaper than sorting tens of thousands.
  if (ascending) for (const id of alive) count(id);
  else if (alive.length * SORT_OR_WALK < size) for (const id of Int32Array.from(alive).sort()) count(id);
  else for (let id = 1; id < size; id++) count(id);
  for (const id of candidates) {
    matched[id] = 0;
    titled[id] = 0;
  }
  const ordered: number[] = [];
  for (let score = byScore.length - 1; score >= 0 && ordered.length < needed; score--) {
    for (const id of byScore[score]) if (ordered.length < needed) ordered.push(id);
  }
  return { counts, ordered };
}

/** Below one candidate in this many product ids, sorting the candidates beats walking every id (measured: 2,000 of 100,000). */
const SORT_OR_WALK = 32;

/** About what looking one id up costs, against a walk's one step per id: a binary search's steps, each dearer than a walk's. */
const lookupCost = (length: number) => 4 * Math.log2(length + 2);

/** Whether ascending `ids` holds `id`. */
function has(ids: Int32Array, id: number): boolean {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle];
    if (value === id) return true;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
