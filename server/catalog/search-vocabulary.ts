import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { readCatalogVersion } from "./version.ts";
import { productsWithBrandAndCategory } from "./product-rows.ts";
import {
  editDistance,
  oneEditVariants,
  isSearchableWord,
  porterStem,
  TRIGRAM_THRESHOLD,
  trigrams,
  trigramSimilarity,
  words,
  MAX_TERM_CHARS,
} from "./search-text.ts";

/**
 * The search vocabulary: every word of the catalog (titles, brands, categories, descriptions)
 * with its stem and how many products use it. Query words that the catalog does not know are
 * completed (prefix) or corrected (one edit). Correction candidates come from trigrams — pg_trgm's
 * `%` on PostgreSQL, the `search_term_trigrams` table with pg_trgm's own formula on SQLite, so both
 * find the same words — plus an exact look-up of every one-edit variant of short words (trigrams
 * miss a swapped pair in "drlil"); the edit distance then keeps the words one edit away.
 */

const READ_BATCH = 5000;
const WRITE_BATCH = 400;

/** Shortest word that gets prefix completions. */
const MIN_PREFIX_CHARS = 2;
/** Shortest word that gets typo corrections; numbers and model codes never do. */
const MIN_TYPO_CHARS = 4;
/** Completions per prefix and corrections per word that join the query. */
const MAX_PREFIX_EXPANSIONS = 12;
const MAX_TYPO_EXPANSIONS = 5;

export function indexable(word: string): boolean {
  return word.length >= 2 && word.length <= MAX_TERM_CHARS && isSearchableWord(word);
}

/**
 * Recomputes the vocabulary from the products on sale (those in search_products; archived ones
 * are not). Idempotent; the seed calls it after adding products, and the migration after creating
 * the tables. A single product's change updates it in place (search-sync.ts).
 */
export async function rebuildSearchVocabulary(db: Db): Promise<{ terms: number }> {
  const docs = new Map<string, number>();
  const heads = new Map<string, number>();
  const bump = (map: Map<string, number>, word: string) => map.set(word, (map.get(word) ?? 0) + 1);

  let lastId = 0;
  for (;;) {
    const rows = await productsWithBrandAndCategory(db)
      .innerJoin("search_products as s", "s.product_id", "p.id")
      .select(["p.id", "p.title", "p.description", "b.name as brand", "c.name as category"])
      .where("p.id", ">", lastId)
      .orderBy("p.id")
      .limit(READ_BATCH)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const head = new Set(words(`${row.title} ${row.brand} ${row.category}`).filter(indexable));
      const all = new Set(head);
      for (const w of words(row.description)) if (indexable(w)) all.add(w);
      for (const w of head) bump(heads, w);
      for (const w of all) bump(docs, w);
    }
    lastId = Number(rows[rows.length - 1].id);
  }
  // Brand and category names are words shoppers type even before any product uses them.
  const names = await Promise.all([
    db.selectFrom("brands").select("name").execute(),
    db.selectFrom("categories").select("name").execute(),
  ]);
  for (const { name } of names.flat()) for (const w of words(name)) if (indexable(w) && !docs.has(w)) docs.set(w, 0);

  const terms = [...docs.keys()].sort();
  const sqlite = dbKind(db) === "sqlite";
  const write = async (trx: Db) => {
    await trx.deleteFrom("search_terms").execute();
    if (sqlite) await trx.deleteFrom("search_term_trigrams").execute();
    for (let i = 0; i < terms.length; i += WRITE_BATCH) {
      const chunk = terms.slice(i, i + WRITE_BATCH);
      await trx
        .insertInto("search_terms")
        .values(
          chunk.map((term) => ({
            term,
            stem: porterStem(term),
            doc_count: docs.get(term) ?? 0,
            title_count: heads.get(term) ?? 0,
            trigram_count: trigrams(term).length,
          })),
        )
        .execute();
      if (sqlite) {
        await trx
          .insertInto("search_term_trigrams")
          .values(chunk.flatMap((term) => trigrams(term).map((trigram) => ({ trigram, term }))))
          .execute();
      }
    }
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  // After a bulk load: fresh statistics let the planners pick the right index for filters and
  // sorting, and on PostgreSQL the GIN index's pending list is merged (a long pending list makes the
  // planner scan the whole table instead) and the visibility map set (index-only facet counts).
  if (sqlite) {
    await sql`ANALYZE search_products`.execute(db);
    await sql`ANALYZE search_terms`.execute(db);
  } else if (db.isTransaction) {
    await sql`SELECT gin_clean_pending_list('search_products_document_idx'::regclass)`.execute(db);
    await sql`ANALYZE search_products, search_terms`.execute(db);
  } else {
    await sql`VACUUM (ANALYZE) search_products, search_terms`.execute(db);
  }
  forgetVocabulary(db);
  return { terms: terms.length };
}

/** Fills the vocabulary when it is empty but the catalog is not (for catalogs filled some other way). */
export async function ensureSearchVocabulary(db: Db): Promise<void> {
  const term = await db.selectFrom("search_terms").select("term").limit(1).executeTakeFirst();
  if (term) return;
  const product = await db.selectFrom("products").select("id").limit(1).executeTakeFirst();
  if (product) await rebuildSearchVocabulary(db);
}

// ---------------------------------------------------------------------------------------------
// Resolving query words. Results are cached per database handle for a few minutes: the
// vocabulary changes only when the catalog does, and the cache is per process and disposable.

type TermKind = "known" | "completed" | "corrected" | "unknown";

export interface ResolvedTerm {
  /** The word as typed (folded). */
  input: string;
  kind: TermKind;
  /** Words that satisfy this term: the input itself, plus completions or corrections (none: nothing matches). */
  alternatives: string[];
  /** The best correction for "did you mean", when the word is not known. */
  correction: string | null;
  /** Products using the alternatives, by the vocabulary (an upper bound; 0 = none known). */
  docCount: number;
  /**
   * Every word a product may hold to match: the alternatives and the vocabulary's words that share
   * a stem with one of them. PostgreSQL indexes words unstemmed and matches these; FTS5 stems the
   * alternatives itself, with the same stemmer (migration 018).
   */
  matchWords: string[];
  /** The same for the word as typed alone (suggestions try it before completions). */
  inputWords: string[];
}

interface VocabularyCache {
  at: number;
  /** The catalog version the cached look-ups were made at (a product edit in any process bumps it). */
  version?: number;
  terms: Map<string, ResolvedTerm>;
  trgmSchema?: Promise<string>;
}

const CACHE_TTL_MS = 5 * 60_000;
const CACHE_MAX = 5000;
const caches = new WeakMap<Db, VocabularyCache>();

function cacheFor(db: Db): VocabularyCache {
  let cache = caches.get(db);
  if (!cache || Date.now() - cache.at > CACHE_TTL_MS) {
    cache = { at: Date.now(), terms: new Map(), trgmSchema: cache?.trgmSchema };
    caches.set(db, cache);
  }
  return cache;
}

/** Drops cached word lookups (after a vocabulary rebuild, and in benchmarks that want cold lookups). */
export function forgetVocabulary(db: Db): void {
  const cache = caches.get(db);
  if (cache) cache.terms.clear();
}

interface Candidate {
  term: string;
  doc_count: number;
  title_count: number;
  similarity: number;
}

interface VocabularyRow {
  term: string;
  stem: string;
  doc_count: number;
  title_count: number;
}

/**
 * One query: the vocabulary words that are the word or share its stem (is it known, and how many
 * products use it), and, when asked, the words it is a prefix of.
 */
async function lookUp(
  db: Db,
  word: string,
  withPrefix: boolean,
): Promise<{ count: number; forms: string[]; completions: VocabularyRow[] }> {
  const stem = porterStem(word);
  const rows = await db
    .selectFrom("search_terms")
    .select(["term", "stem", "doc_count", "title_count"])
    .where((eb) => {
      const same = [eb("term", "=", word), eb("stem", "=", stem)];
      // Words are a–z and 0–9 only, and "{" sorts after both, so this range is "starts with word".
      if (withPrefix) same.push(eb.and([eb("term", ">=", word), eb("term", "<", `${word}{`)]));
      return eb.or(same);
    })
    .execute();
  const matching = rows.filter((r) => r.term === word || r.stem === stem);
  const completions = withPrefix
    ? rows
        .filter((r) => r.term.startsWith(word))
        .sort(
          (a, b) =>
            Number(b.title_count) - Number(a.title_count) ||
            Number(b.doc_count) - Number(a.doc_count) ||
            (a.term < b.term ? -1 : a.term > b.term ? 1 : 0),
        )
        .slice(0, MAX_PREFIX_EXPANSIONS)
    : [];
  // -1: unknown. A word no product uses yet (a new brand's name) is known, with 0.
  const count = matching.length === 0 ? -1 : matching.reduce((sum, r) => sum + Number(r.doc_count), 0);
  return { count, forms: matching.map((r) => r.term), completions };
}

/** The vocabulary's words that share a stem with one of `words` (those words included). */
async function wordsSharingStems(db: Db, words: string[]): Promise<string[]> {
  const out = new Set(words);
  const stems = [...new Set(words.map(porterStem))];
  if (stems.length === 0) return [];
  const rows = await db.selectFrom("search_terms").select("term").where("stem", "in", stems).execute();
  for (const r of rows) out.add(r.term);
  return [...out].sort();
}

async function pgTrigramSchema(db: Db): Promise<string> {
  const cache = cacheFor(db);
  cache.trgmSchema ??= sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`
    .execute(db)
    .then(({ rows }) => rows[0]?.schema ?? "public");
  return cache.trgmSchema;
}

/** Longest word whose one-edit variants are looked up (longer words share enough trigrams). */
const MAX_VARIANT_CHARS = 20;

/**
 * One query: vocabulary words whose trigram similarity to `word` reaches pg_trgm's threshold
 * (pg_trgm on PostgreSQL, the same formula over search_term_trigrams on SQLite), and the words
 * exactly one edit away (every variant looked up; trigrams miss a swapped pair in short words).
 */
async function correctionCandidates(db: Db, word: string): Promise<Candidate[]> {
  const variants = word.length <= MAX_VARIANT_CHARS ? oneEditVariants(word) : [];
  let rows: Candidate[];
  if (dbKind(db) === "postgres") {
    const trgm = sql.id(await pgTrigramSchema(db));
    // The variants are joined, not compared with "= ANY", which PostgreSQL would answer from the trigram index, slowly.
    ({ rows } = await sql<Candidate>`
      SELECT term, doc_count, title_count, ${trgm}.similarity(term, ${word}) AS similarity
      FROM search_terms WHERE term OPERATOR(${trgm}.%) ${word}
      UNION ALL
      SELECT t.term, t.doc_count, t.title_count, -1 AS similarity
      FROM unnest(${variants}::text[]) AS v(term) JOIN search_terms t ON t.term = v.term`.execute(db));
  } else {
    const grams = trigrams(word);
    const raw = await sql<{
      term: string;
      doc_count: number;
      title_count: number;
      trigram_count: number;
      shared: number;
    }>`
      SELECT t.term, t.doc_count, t.title_count, t.trigram_count, count(*) AS shared
      FROM search_term_trigrams g JOIN search_terms t ON t.term = g.term
      WHERE g.trigram IN (${sql.join(grams)})
      GROUP BY t.term, t.doc_count, t.title_count, t.trigram_count
      ${variants.length ? sql`UNION ALL SELECT term, doc_count, title_count, trigram_count, -1 AS shared FROM search_terms WHERE term IN (${sql.join(variants)})` : sql``}`.execute(
      db,
    );
    rows = raw.rows.map((r) => ({
      term: r.term,
      doc_count: r.doc_count,
      title_count: r.title_count,
      similarity: Number(r.shared) < 0 ? -1 : trigramSimilarity(Number(r.shared), grams.length, r.trigram_count),
    }));
  }
  const out = new Map<string, Candidate>();
  for (const r of rows) {
    const similarity = Number(r.similarity);
    // -1 marks a one-edit variant; the others must reach the threshold (SQLite computed them all).
    if (similarity !== -1 && similarity < TRIGRAM_THRESHOLD) continue;
    if (!out.has(r.term))
      out.set(r.term, { ...r, doc_count: Number(r.doc_count), title_count: Number(r.title_count), similarity });
  }
  return [...out.values()];
}

function byCloseness() {
  return (a: Candidate & { distance: number }, b: Candidate & { distance: number }) =>
    a.distance - b.distance ||
    b.title_count - a.title_count ||
    b.doc_count - a.doc_count ||
    (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);
}

/**
 * What a query word means to the search. `complete` asks for prefix completions even when the
 * word is known (suggestions while typing: "dri" may become "drill" or "driver").
 */
async function resolveTerm(db: Db, word: string, options: { complete?: boolean } = {}): Promise<ResolvedTerm> {
  const key = `${options.complete ? "c" : "f"}:${word}`;
  const cache = cacheFor(db);
  const hit = cache.terms.get(key);
  if (hit) return hit;

  // Prefix completions are fetched along with the word itself; they are used when the word is
  // unknown, or always while typing.
  const wantPrefix = word.length >= MIN_PREFIX_CHARS;
  const { count, forms, completions } = await lookUp(db, word, wantPrefix);
  const known = count !== -1;
  // The word itself, unless it stems like a stop word (then only its completions and corrections).
  const searchable = isSearchableWord(word);
  const alternatives = searchable ? [word] : [];
  let docCount = Math.max(0, count);
  let kind: TermKind = known ? "known" : "unknown";
  let correction: string | null = null;

  if (!known || options.complete) {
    for (const c of completions) {
      // (A vocabulary built by an older version may hold words the search now leaves out.)
      if (alternatives.includes(c.term) || !isSearchableWord(c.term)) continue;
      alternatives.push(c.term);
      docCount += Number(c.doc_count);
    }
    if (!known && completions.length) kind = "completed";
  }
  if (!known && word.length >= MIN_TYPO_CHARS && !/\d/.test(word)) {
    const candidates = (await correctionCandidates(db, word))
      .map((c) => ({ ...c, distance: editDistance(word, c.term, 2) }))
      .filter((c) => c.distance <= 2)
      .sort(byCloseness());
    const oneEdit = candidates.filter((c) => c.distance <= 1).slice(0, MAX_TYPO_EXPANSIONS);
    for (const c of oneEdit) {
      if (alternatives.includes(c.term) || !isSearchableWord(c.term)) continue;
      alternatives.push(c.term);
      docCount += Number(c.doc_count);
    }
    if (oneEdit.length && kind === "unknown") kind = "corrected";
    correction = candidates[0]?.term ?? null;
  }

  const inputWords = searchable ? [...new Set([word, ...forms])].sort() : [];
  const others = alternatives.filter((w) => w !== word);
  const matchWords = others.length
    ? [...new Set([...inputWords, ...(await wordsSharingStems(db, others))])].sort()
    : inputWords;
  const resolved: ResolvedTerm = { input: word, kind, alternatives, correction, docCount, matchWords, inputWords };
  if (cache.terms.size >= CACHE_MAX) cache.terms.clear();
  cache.terms.set(key, resolved);
  return resolved;
}

/** Resolves each word of a query; the last one is completed as a prefix when `completeLast`. */
export async function resolveTerms(
  db: Db,
  terms: string[],
  options: { completeLast?: boolean } = {},
): Promise<ResolvedTerm[]> {
  // The vocabulary changes with the catalog (a product saved in the back office, in any process):
  // cached look-ups hold only while the catalog version is the one they were made at.
  const version = await readCatalogVersion(db).catch(() => 0);
  const cache = cacheFor(db);
  if (cache.version !== version) {
    cache.terms.clear();
    cache.version = version;
  }
  const out: ResolvedTerm[] = [];
  // Sequential: SQLite has one connection anyway, and a PostgreSQL query is cheaper than a pool checkout storm.
  for (let i = 0; i < terms.length; i++) {
    out.push(await resolveTerm(db, terms[i], { complete: options.completeLast && i === terms.length - 1 }));
  }
  return out;
}

/** "Did you mean": the query with each unknown word replaced by its closest known word, if any changed. */
export function correctedQuery(resolved: ResolvedTerm[]): string | null {
  let changed = false;
  const parts = resolved.map((t) => {
    if (t.kind === "known" || !t.correction || t.correction === t.input) return t.input;
    changed = true;
    return t.correction;
  });
  return changed ? parts.join(" ") : null;
}
