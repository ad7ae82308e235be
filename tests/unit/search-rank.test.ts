import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeIds, rankMatches } from "../../server/catalog/search-postings.ts";

/** The ranking written plainly: every id tried against every term's every list. */
function plainRank(
  cellOf: number[],
  cellCount: number,
  anywhere: Int32Array[][],
  inTitle: Int32Array[][],
  named: Uint8Array[],
  shown: Uint8Array,
  needed: number,
) {
  const counts = new Int32Array(cellCount + 1);
  const scored: { id: number; score: number }[] = [];
  const holds = (lists: Int32Array[], id: number) => lists.some((ids) => ids.includes(id));
  for (let id = 1; id < cellOf.length; id++) {
    if (!anywhere.every((lists) => holds(lists, id)) || cellOf[id] === 0) continue;
    const cell = cellOf[id];
    counts[cell]++;
    if (!shown[cell]) continue;
    const score = anywhere.reduce((sum, _, t) => sum + (holds(inTitle[t], id) ? 4 : named[t][cell] ? 2 : 1), 0);
    scored.push({ id, score });
  }
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return { counts, ordered: scored.slice(0, needed).map((s) => s.id) };
}

// Product ids start at 1; the map's id 0 is no product's (cell 0).
const ascendingIds = (max: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max }), { maxLength: 60 }).map((ids) => Int32Array.from(ids).sort());

const searches = fc
  .record({
    size: fc.integer({ min: 1, max: 200 }),
    cellCount: fc.integer({ min: 1, max: 4 }),
    terms: fc.integer({ min: 1, max: 4 }),
  })
  .chain(({ size, cellCount, terms }) =>
    fc.record({
      cellOf: fc
        .array(fc.integer({ min: 0, max: cellCount }), { minLength: size, maxLength: size })
        .map((cells) => [0, ...cells.slice(1)]),
      cellCount: fc.constant(cellCount),
      // Ids a little past the map too: a product added since the map was read.
      anywhere: fc.array(fc.array(ascendingIds(size + 5), { minLength: 1, maxLength: 3 }), {
        minLength: terms,
        maxLength: terms,
      }),
      inTitle: fc.array(fc.array(ascendingIds(size + 5), { maxLength: 2 }), { minLength: terms, maxLength: terms }),
      named: fc.array(fc.uint8Array({ min: 0, max: 1, minLength: cellCount + 1, maxLength: cellCount + 1 }), {
        minLength: terms,
        maxLength: terms,
      }),
      shown: fc.uint8Array({ min: 0, max: 1, minLength: cellCount + 1, maxLength: cellCount + 1 }),
      needed: fc.integer({ min: 1, max: 30 }),
    }),
  );

describe("rankMatches (PostgreSQL's search from the lists, search-postings.ts)", () => {
  it("counts and orders as trying every product against every list does, search after search", () => {
    fc.assert(
      fc.property(searches, searches, (first, second) => {
        // Two in a row: the second finds the shared per-id bytes as the first left them.
        for (const s of [first, second]) {
          const got = rankMatches(s.cellOf, s.cellCount, s.anywhere, s.inTitle, s.named, s.shown, s.needed);
          const want = plainRank(s.cellOf, s.cellCount, s.anywhere, s.inTitle, s.named, s.shown, s.needed);
          expect(Array.from(got.counts)).toEqual(Array.from(want.counts));
          expect(got.ordered).toEqual(want.ordered);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("looks candidates up in a long list and walks a short one alike", () => {
    const size = 50_000;
    const cellOf = new Array<number>(size).fill(1);
    const every = Int32Array.from({ length: size - 1 }, (_, i) => i + 1);
    const few = Int32Array.from([7, 4_000, 49_999]);
    const named = [new Uint8Array(2), new Uint8Array(2)];
    const shown = Uint8Array.from([0, 1]);
    for (const anywhere of [
      [[few], [every]],
      [[every], [few]],
    ]) {
      const got = rankMatches(cellOf, 1, anywhere, [[], [Int32Array.from([4_000])]], named, shown, 10);
      expect(got.ordered).toEqual([4_000, 7, 49_999]);
      expect(got.counts[1]).toBe(3);
    }
  });
});

describe("decodeIds", () => {
  it("reads a list's ids ascending and each once, whatever order its runs came in", () => {
    expect(Array.from(decodeIds("QU@3Q8~QW22"))).toEqual([1200, 1203, 1243, 1250, 1252]);
    expect(Array.from(decodeIds("~5~1~5"))).toEqual([1, 5]);
    expect(Array.from(decodeIds(""))).toEqual([]);
  });
});
