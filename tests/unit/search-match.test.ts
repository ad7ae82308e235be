import { describe, expect, it } from "vitest";
import { namesMatching } from "../../server/catalog/search-match.ts";
import type { ResolvedTerm } from "../../server/catalog/search-vocabulary.ts";

const term = (...alternatives: string[]): ResolvedTerm => ({
  input: alternatives[0] ?? "",
  kind: "known",
  alternatives,
  correction: null,
  docCount: 1,
  matchWords: alternatives,
  inputWords: alternatives,
});

const options = [
  { id: 1, name: "Power Tools" },
  { id: 2, name: "Measuring & Layout" },
  { id: 3, name: "Halvorsen & Dale" },
  { id: 4, name: "Gardening" },
];

describe("namesMatching (a word in a brand or category name, as the index matches it)", () => {
  it("matches whole words by their Porter stem, in any case", () => {
    expect(namesMatching(options, term("tool"))).toEqual([1]);
    expect(namesMatching(options, term("measure"))).toEqual([2]);
    expect(namesMatching(options, term("dale"))).toEqual([3]);
    expect(namesMatching(options, term("garden"))).toEqual([4]);
  });
  it("matches any of a term's alternatives", () => {
    expect(namesMatching(options, term("layout", "power"))).toEqual([1, 2]);
  });
  it("does not match part of a word, or words that are not in the names", () => {
    expect(namesMatching(options, term("pow"))).toEqual([]);
    expect(namesMatching(options, term("hammer"))).toEqual([]);
    expect(namesMatching(options, term())).toEqual([]);
  });
  it("ignores alternatives the full-text query would not use", () => {
    expect(namesMatching(options, term("tools*", "dale'"))).toEqual([]);
  });
});
