import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { porterStem } from "../../server/catalog/search-text.ts";
import { freshDb } from "./databases.ts";
import { seedSearchCatalog } from "./search-fixtures.ts";

/**
 * The search's one stemmer (search-text.ts) must stem exactly as SQLite's FTS5 `porter` tokenizer:
 * PostgreSQL matches the vocabulary words that share a stem by it, SQLite lets FTS5 stem (migration 018).
 */
function ftsStems(words: string[]): string[] {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(`CREATE VIRTUAL TABLE f USING fts5(w, tokenize = 'porter unicode61 remove_diacritics 2');
             CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance');`);
    const insert = db.prepare("INSERT INTO f (rowid, w) VALUES (?, ?)");
    db.exec("BEGIN");
    words.forEach((w, i) => insert.run(i + 1, w));
    db.exec("COMMIT");
    const out = new Array<string>(words.length);
    for (const row of db.prepare("SELECT term, doc FROM v").all() as { term: string; doc: number }[])
      out[Number(row.doc) - 1] = row.term;
    return out;
  } finally {
    db.close();
  }
}

function expectSameStems(words: string[]): void {
  const fts = ftsStems(words);
  const differing = words.map((w, i) => ({ w, fts: fts[i], ours: porterStem(w) })).filter((r) => r.fts !== r.ours);
  expect(differing.slice(0, 20)).toEqual([]);
}

describe("porterStem stems as FTS5 does", () => {
  it("on every word of the catalog and its one-edit near misses", async () => {
    const { db, drop } = await freshDb("sqlite");
    try {
      await seedSearchCatalog(db);
      const vocabulary = (await db.selectFrom("search_terms").select("term").execute()).map((r) => r.term);
      const words = new Set<string>();
      for (const w of vocabulary) {
        for (let i = 0; i < w.length; i++) {
          words.add(w.slice(0, i + 1));
          words.add(w.slice(0, i) + w.slice(i + 1));
          words.add(w.slice(0, i) + w[i] + w.slice(i));
          if (i + 1 < w.length) words.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
        }
      }
      expectSameStems([...words].filter((w) => /^[a-z0-9]+$/.test(w)));
    } finally {
      await drop();
    }
  }, 120_000);

  it("on 100,000 made-up words with the endings the algorithm handles", () => {
    const letters = "aaaaeeeeiiioooouuyybcdfghjklmnpqrstvwxzsssllnnrrtt";
    const endings = [
      "",
      "s",
      "es",
      "ies",
      "ss",
      "ed",
      "eed",
      "ing",
      "y",
      "ly",
      "bly",
      "ational",
      "tional",
      "enci",
      "izer",
      "alli",
      "ousli",
      "ization",
      "ation",
      "ator",
      "alism",
      "iveness",
      "fulness",
      "aliti",
      "biliti",
      "logi",
      "icate",
      "ative",
      "alize",
      "ical",
      "ful",
      "ness",
      "al",
      "ance",
      "er",
      "ic",
      "able",
      "ant",
      "ement",
      "ment",
      "ion",
      "ou",
      "ism",
      "ate",
      "iti",
      "ous",
      "ive",
      "ize",
      "e",
      "ll",
    ];
    let seed = 15;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = (s: string | string[]) => s[Math.floor(random() * s.length)];
    const words: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      let w = "";
      for (let n = 1 + Math.floor(random() * 8); n > 0; n--) w += pick(letters);
      if (random() < 0.3) w += w.at(-1);
      words.push(w + pick(endings));
    }
    expectSameStems(words);
  }, 60_000);
});
