import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Highlight } from "../../app/components/search/Highlight.tsx";
import {
  editDistance,
  foldText,
  highlight,
  isSearchableWord,
  MAX_SEARCH_TERMS,
  porterStem,
  queryTerms,
  snippet,
  trigrams,
  trigramSimilarity,
  words,
} from "../../server/catalog/search-text.ts";

const marked = (segments: { text: string; match: boolean }[]) =>
  segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join("");

describe("query words", () => {
  it("folds case, accents and punctuation the way the index does", () => {
    expect(foldText("  Ångle-Grinder, 125mm  ")).toBe("angle grinder 125mm");
    expect(words("2 x 4.0Ah Batteries")).toEqual(["2", "x", "4", "0ah", "batteries"]);
    expect(foldText("ＤＲＩＬＬ")).toBe("drill");
  });
  it("drops stop words and repeats, caps the number of words and their length", () => {
    expect(queryTerms("The drill with THE battery drill")).toEqual(["drill", "battery"]);
    expect(queryTerms("a b c d e f g h i j k l m n o p").length).toBeLessThanOrEqual(MAX_SEARCH_TERMS);
    expect(queryTerms(`${"x".repeat(41)} saw`)).toEqual(["saw"]);
    expect(queryTerms("\"'*(){}:^-+")).toEqual([]);
  });
});

describe("isSearchableWord", () => {
  it("refuses stop words and words that stem like one", () => {
    for (const w of ["the", "with", "ins", "ons", "doe"]) expect(isSearchableWord(w), w).toBe(false);
    for (const w of ["drill", "insulated", "hammer", "18v", "us"]) expect(isSearchableWord(w), w).toBe(true);
  });
});

describe("porterStem (the same algorithm as SQLite FTS5's porter tokenizer)", () => {
  it.each([
    ["drills", "drill"],
    ["drilling", "drill"],
    ["hammers", "hammer"],
    ["batteries", "batteri"],
    ["battery", "batteri"],
    ["cordless", "cordless"],
    ["relational", "relat"],
    ["caresses", "caress"],
    ["ponies", "poni"],
    ["agreed", "agre"],
    ["hopping", "hop"],
    ["generalization", "gener"],
    ["us", "us"],
    ["18v", "18v"],
    ["markkings", "mark"],
    // FTS5 reduces a doubled "y" after "ing"/"ed" like any doubled consonant.
    ["layying", "lai"],
    ["assembly", "assembl"],
  ])("%s → %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe("trigrams (pg_trgm's definition)", () => {
  it("pads words with two spaces in front and one behind", () => {
    expect(trigrams("drill").sort()).toEqual(["  d", " dr", "dri", "ill", "ll ", "ril"].sort());
    expect(trigrams("aaa").sort()).toEqual(["  a", " aa", "aa ", "aaa"].sort());
  });
  it("computes similarity as pg_trgm does (similarity('drill','driabc') = 0.3)", () => {
    const a = trigrams("drill");
    const b = trigrams("driabc");
    const shared = a.filter((t) => b.includes(t)).length;
    expect(trigramSimilarity(shared, a.length, b.length)).toBeCloseTo(0.3, 10);
  });
});

describe("editDistance (optimal string alignment)", () => {
  it.each([
    ["hammer", "hammer", 0],
    ["hamer", "hammer", 1],
    ["dril", "drill", 1],
    ["forgcrest", "forgecrest", 1],
    ["hmamer", "hammer", 1],
    ["drill", "grill", 1],
    ["saw", "drill", 3],
  ])("%s ↔ %s = %i", (a, b, d) => {
    expect(editDistance(a, b, 2)).toBe(Math.min(d, 3));
  });
  it("is symmetric and bounded", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b, 2);
        expect(d).toBe(editDistance(b, a, 2));
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(3);
        if (a === b) expect(d).toBe(0);
      }),
    );
  });
});

describe("highlight", () => {
  const stems = new Set(["drill", "hammer"]);
  it("marks whole words whose stem matches, keeping every character", () => {
    const title = "Forgecrest 18V Drill-Powered Hammer Drills, 2 x 4.0Ah";
    const segments = highlight(title, stems);
    expect(segments.map((s) => s.text).join("")).toBe(title);
    expect(marked(segments)).toBe("Forgecrest 18V [Drill]-Powered [Hammer] [Drills], 2 x 4.0Ah");
  });
  it("never changes text, whatever it contains", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(
          highlight(text, stems)
            .map((s) => s.text)
            .join(""),
        ).toBe(text);
      }),
    );
  });
  it("renders matches in <mark> and escapes markup", () => {
    const html = renderToStaticMarkup(
      createElement(Highlight, { segments: highlight(`<img src=x onerror="alert(1)"> drill & "hammer"`, stems) }),
    );
    expect(html).toBe(
      `&lt;img src=x onerror=&quot;alert(1)&quot;&gt; <mark class="rounded-sm bg-brand-100 px-0.5 text-inherit">drill</mark> &amp; &quot;<mark class="rounded-sm bg-brand-100 px-0.5 text-inherit">hammer</mark>&quot;`,
    );
    expect(html).not.toContain("<img");
  });
  it("cuts a snippet around the first match", () => {
    const text =
      "A compact, well-balanced driver that handles everything from pilot holes in hardwood to long screws. " +
      "Fits the whole cordless range, so one charger covers every drill in the van, and more words follow here.";
    const s = snippet(text, stems, 10);
    expect(s).not.toBeNull();
    expect(marked(s!)).toBe("… one charger covers every [drill] in the van, and more …");
    expect(snippet("nothing relevant here", stems)).toBeNull();
  });
});
