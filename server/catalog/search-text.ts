/**
 * Text rules shared by both search back ends: how a query becomes words, how words are stemmed
 * for highlighting, trigram similarity (the same formula as pg_trgm) and edit distance.
 * Pure functions, no database.
 */
import { MAX_QUERY_LENGTH } from "../../app/lib/search-limits.ts";

/** Words of a query that take part in the search; the rest are ignored. */
export const MAX_SEARCH_TERMS = 8;
/** Longest single word worth looking up. */
export const MAX_TERM_CHARS = 40;

/**
 * PostgreSQL's English stop words (tsearch_data/english.stop). PostgreSQL leaves them out of the
 * index, so the query drops them on both databases and the two agree.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers " +
    "herself it its itself they them their theirs themselves what which who whom this that these those am is " +
    "are was were be been being have has had having do does did doing a an the and but if or because as until " +
    "while of at by for with about against between into through during before after above below to from up down " +
    "in out on off over under again further then once here there when where why how all any both each few more " +
    "most other some such no nor not only own same so than too very s t can will just don should now"
  ).split(" "),
);

/** Lower case, accents removed, every run of characters other than a–z and 0–9 becomes one space. */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The words of a text as the index sees them (before stemming). */
export function words(text: string): string[] {
  const folded = foldText(text);
  return folded ? folded.split(" ") : [];
}

let stopStems: Set<string> | undefined;

/**
 * Whether a word can take part in a search. Not a stop word, and not a word that stems like one
 * ("ins" stems to "in"): SQLite indexes stop words and PostgreSQL drops them, so such a word would
 * match different products on the two databases.
 */
export function isSearchableWord(word: string): boolean {
  stopStems ??= new Set([...STOP_WORDS].flatMap((w) => [w, porterStem(w)]));
  return word.length > 0 && !STOP_WORDS.has(word) && !stopStems.has(porterStem(word));
}

/** The distinct, non-stop-word terms of a query, capped in number and length. */
export function queryTerms(query: string): string[] {
  const out: string[] = [];
  for (const word of words(query.slice(0, MAX_QUERY_LENGTH))) {
    if (STOP_WORDS.has(word) || word.length > MAX_TERM_CHARS || out.includes(word)) continue;
    out.push(word);
    if (out.length === MAX_SEARCH_TERMS) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Porter stemmer (Martin Porter, 1980, in the revised form of tartarus.org that SQLite's FTS5
// `porter` tokenizer implements). Used to decide which words of a title to highlight and whether
// a query word is known; the database does its own stemming for matching.

const step2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};
const step3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};

const cons = "[^aeiou]";
const vowel = "[aeiouy]";
const consSeq = `${cons}[^aeiouy]*`;
const vowelSeq = `${vowel}[aeiou]*`;
const mGt0 = new RegExp(`^(${consSeq})?${vowelSeq}${consSeq}`);
const mEq1 = new RegExp(`^(${consSeq})?${vowelSeq}${consSeq}(${vowelSeq})?$`);
const mGt1 = new RegExp(`^(${consSeq})?${vowelSeq}${consSeq}${vowelSeq}${consSeq}`);
const hasVowel = new RegExp(`^(${consSeq})?${vowel}`);
const endsCvc = new RegExp(`^${consSeq}${vowel}[^aeiouwxy]$`);

const stemCache = new Map<string, string>();

export function porterStem(word: string): string {
  if (word.length < 3) return word;
  const hit = stemCache.get(word);
  if (hit !== undefined) return hit;
  const stem = porter(word);
  if (stemCache.size > 20_000) stemCache.clear();
  stemCache.set(word, stem);
  return stem;
}

function porter(input: string): string {
  let w = input;
  const firstY = w[0] === "y";
  if (firstY) w = `Y${w.slice(1)}`;

  // Step 1a
  let m = /^(.+?)(ss|i)es$/.exec(w);
  if (m) w = m[1] + m[2];
  else if ((m = /^(.+?)([^s])s$/.exec(w))) w = m[1] + m[2];

  // Step 1b
  if ((m = /^(.+?)eed$/.exec(w))) {
    if (mGt0.test(m[1])) w = w.slice(0, -1);
  } else if ((m = /^(.+?)(ed|ing)$/.exec(w))) {
    const stem = m[1];
    if (hasVowel.test(stem)) {
      w = stem;
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
      else if (new RegExp(`^${consSeq}${vowel}[^aeiouwxy]$`).test(w)) w += "e";
    }
  }

  // Step 1c
  if ((m = /^(.+?)y$/.exec(w)) && hasVowel.test(m[1])) w = `${m[1]}i`;

  // Step 2
  m =
    /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/.exec(
      w,
    );
  if (m && mGt0.test(m[1])) w = m[1] + step2[m[2]];

  // Step 3
  m = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/.exec(w);
  if (m && mGt0.test(m[1])) w = m[1] + step3[m[2]];

  // Step 4
  m = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/.exec(w);
  if (m) {
    if (mGt1.test(m[1])) w = m[1];
  } else if ((m = /^(.+?)(s|t)(ion)$/.exec(w))) {
    const stem = m[1] + m[2];
    if (mGt1.test(stem)) w = stem;
  }

  // Step 5
  if ((m = /^(.+?)e$/.exec(w))) {
    const stem = m[1];
    if (mGt1.test(stem) || (mEq1.test(stem) && !endsCvc.test(stem))) w = stem;
  }
  if (/ll$/.test(w) && mGt1.test(w)) w = w.slice(0, -1);

  if (firstY) w = `y${w.slice(1)}`;
  return w;
}

// ---------------------------------------------------------------------------------------------
// Trigrams and edit distance.

/** pg_trgm's trigrams of one word: padded with two spaces in front and one behind, as a set. */
export function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/** pg_trgm's similarity(): shared trigrams over all distinct trigrams of both words. */
export function trigramSimilarity(shared: number, countA: number, countB: number): number {
  const union = countA + countB - shared;
  return union === 0 ? 0 : shared / union;
}

/** pg_trgm's default similarity_threshold, used by the `%` operator. */
export const TRIGRAM_THRESHOLD = 0.3;

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of two
 * neighbours each count one), giving up as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max = 2): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prevPrev = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prevPrev[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prevPrev, prev, cur] = [prev, cur, prevPrev];
  }
  return Math.min(prev[n], max + 1);
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Every word one edit away (delete, swap of neighbours, replace, insert over a–z and 0–9). Looked
 * up exactly in the vocabulary, they catch the typos trigrams miss in short words ("drlil").
 */
export function oneEditVariants(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of ALPHABET) {
      if (tail) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  out.delete(word);
  return [...out];
}

// ---------------------------------------------------------------------------------------------
// Highlighting. The result is a list of plain-text segments; the page renders matched ones in
// <mark>, so no HTML is ever built from product or query text.

export interface TextSegment {
  text: string;
  match: boolean;
}

/** Splits `text` into segments, marking each word whose stem is one of `stems`. */
export function highlight(text: string, stems: ReadonlySet<string>): TextSegment[] {
  const out: TextSegment[] = [];
  if (!text) return out;
  const push = (segment: string, match: boolean) => {
    if (!segment) return;
    const last = out.at(-1);
    if (last && last.match === match) last.text += segment;
    else out.push({ text: segment, match });
  };
  // Words are runs of letters and digits (accented letters included); the rest is kept as is.
  const re = /[\p{L}\p{N}]+/gu;
  let at = 0;
  for (const found of text.matchAll(re)) {
    const start = found.index;
    push(text.slice(at, start), false);
    const token = found[0];
    // A token such as "Drill-Powered" is already split; a token like "2x4" folds to one word.
    const folded = foldText(token);
    const isMatch = stems.size > 0 && folded !== "" && folded.split(" ").some((w) => stems.has(porterStem(w)));
    push(token, isMatch);
    at = start + token.length;
  }
  push(text.slice(at), false);
  return out;
}

/** True when some segment is a match. */
function hasMatch(segments: readonly TextSegment[]): boolean {
  return segments.some((s) => s.match);
}

/**
 * A short extract of `text` around its first matching word, about `maxWords` words long, with
 * an ellipsis where it was cut. Null when nothing in the text matches.
 */
export function snippet(text: string, stems: ReadonlySet<string>, maxWords = 16): TextSegment[] | null {
  const segments = highlight(text, stems);
  if (!hasMatch(segments)) return null;
  const tokens = text.split(/(\s+)/);
  let wordIndex = 0;
  let firstMatchWord = -1;
  const wordPositions: number[] = [];
  tokens.forEach((tok, i) => {
    if (/^\s+$/.test(tok) || tok === "") return;
    wordPositions.push(i);
    if (firstMatchWord < 0 && hasMatch(highlight(tok, stems))) firstMatchWord = wordIndex;
    wordIndex++;
  });
  const startWord = Math.max(0, Math.min(firstMatchWord - 4, wordPositions.length - maxWords));
  const endWord = Math.min(wordPositions.length, startWord + maxWords);
  const startTok = wordPositions[startWord];
  const endTok = wordPositions[endWord - 1];
  const piece = tokens.slice(startTok, endTok + 1).join("");
  const result = highlight(piece, stems);
  if (startWord > 0) result.unshift({ text: "… ", match: false });
  if (endWord < wordPositions.length) result.push({ text: " …", match: false });
  return mergeSegments(result);
}

function mergeSegments(segments: TextSegment[]): TextSegment[] {
  const out: TextSegment[] = [];
  for (const s of segments) {
    const last = out.at(-1);
    if (last && last.match === s.match) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
