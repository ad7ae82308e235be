import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  tradeRuleFor,
  unitPrice,
  volumeBreakRows,
  volumePercentAt,
  type TradeRule,
  type VolumeBreak,
} from "../../app/lib/pricing.ts";

const ISSUE_BREAKS: VolumeBreak[] = [
  { minQuantity: 10, percentOff: 5 },
  { minQuantity: 50, percentOff: 10 },
];

const breaks = fc.array(
  fc.record({ minQuantity: fc.integer({ min: 1, max: 500 }), percentOff: fc.integer({ min: 0, max: 100 }) }),
  { maxLength: 5 },
);
const rule: fc.Arbitrary<TradeRule | null> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 100 }).map((percentOff) => ({ percentOff })),
  fc.integer({ min: -1000, max: 10_000_000 }).map((fixedCents) => ({ fixedCents })),
);
const list = fc.integer({ min: 0, max: 5_000_000 });
const quantity = fc.integer({ min: 1, max: 1000 });

describe("unitPrice: the one price rule (list, volume breaks, trade price list)", () => {
  it("gives the issue's example: 1–9 at list, 10–49 at −5%, 50+ at −10%", () => {
    expect(unitPrice({ listCents: 10000, quantity: 9, volumeBreaks: ISSUE_BREAKS })).toEqual({
      unitCents: 10000,
      source: "list",
      percentOff: 0,
    });
    expect(unitPrice({ listCents: 10000, quantity: 10, volumeBreaks: ISSUE_BREAKS })).toEqual({
      unitCents: 9500,
      source: "volume",
      percentOff: 5,
    });
    expect(unitPrice({ listCents: 10000, quantity: 50, volumeBreaks: ISSUE_BREAKS })).toEqual({
      unitCents: 9000,
      source: "volume",
      percentOff: 10,
    });
  });

  it("lets the best price win between a trade list and a volume break", () => {
    const trade = { percentOff: 8 };
    expect(unitPrice({ listCents: 10000, quantity: 10, volumeBreaks: ISSUE_BREAKS, trade }).unitCents).toBe(9200);
    expect(unitPrice({ listCents: 10000, quantity: 50, volumeBreaks: ISSUE_BREAKS, trade }).source).toBe("volume");
    expect(unitPrice({ listCents: 10000, quantity: 1, trade: { fixedCents: 7999 } })).toEqual({
      unitCents: 7999,
      source: "trade",
      percentOff: 20,
    });
  });

  it("never goes above list for a fixed price set higher than list", () => {
    expect(unitPrice({ listCents: 5000, quantity: 1, trade: { fixedCents: 9000 } })).toEqual({
      unitCents: 5000,
      source: "list",
      percentOff: 0,
    });
  });

  it("refuses a price that isn't whole cents", () => {
    expect(() => unitPrice({ listCents: 10.5, quantity: 1 })).toThrow(RangeError);
    expect(() => unitPrice({ listCents: -1, quantity: 1 })).toThrow(RangeError);
  });

  it("is never below zero and never above list (property)", () => {
    fc.assert(
      fc.property(list, quantity, breaks, rule, (listCents, q, volumeBreaks, trade) => {
        const price = unitPrice({ listCents, quantity: q, volumeBreaks, trade });
        expect(Number.isInteger(price.unitCents)).toBe(true);
        expect(price.unitCents).toBeGreaterThanOrEqual(0);
        expect(price.unitCents).toBeLessThanOrEqual(listCents);
        expect(price.percentOff).toBeGreaterThanOrEqual(0);
        expect(price.percentOff).toBeLessThanOrEqual(100);
      }),
      { numRuns: 2000 },
    );
  });

  it("is monotone: a larger quantity never costs more per unit (property)", () => {
    fc.assert(
      fc.property(list, quantity, quantity, breaks, rule, (listCents, a, b, volumeBreaks, trade) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        expect(unitPrice({ listCents, quantity: large, volumeBreaks, trade }).unitCents).toBeLessThanOrEqual(
          unitPrice({ listCents, quantity: small, volumeBreaks, trade }).unitCents,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("is the lowest of the candidates it is given: adding a rule never raises the price (property)", () => {
    fc.assert(
      fc.property(list, quantity, breaks, rule, (listCents, q, volumeBreaks, trade) => {
        const withAll = unitPrice({ listCents, quantity: q, volumeBreaks, trade }).unitCents;
        expect(withAll).toBeLessThanOrEqual(unitPrice({ listCents, quantity: q, volumeBreaks }).unitCents);
        expect(withAll).toBeLessThanOrEqual(unitPrice({ listCents, quantity: q, trade }).unitCents);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("volume breaks and price-list rules", () => {
  it("takes the deepest break reached, whatever order the breaks are stored in", () => {
    const unordered = [
      { minQuantity: 50, percentOff: 10 },
      { minQuantity: 10, percentOff: 5 },
      { minQuantity: 100, percentOff: 7 },
    ];
    expect(volumePercentAt(unordered, 9)).toBe(0);
    expect(volumePercentAt(unordered, 49)).toBe(5);
    expect(volumePercentAt(unordered, 120)).toBe(10);
  });

  it("builds the product page's table with ranges and prices", () => {
    expect(volumeBreakRows(10000, ISSUE_BREAKS)).toEqual([
      { from: 1, to: 9, percentOff: 0, unitCents: 10000 },
      { from: 10, to: 49, percentOff: 5, unitCents: 9500 },
      { from: 50, to: null, percentOff: 10, unitCents: 9000 },
    ]);
    expect(volumeBreakRows(10000, [])).toEqual([]);
  });

  it("picks the product's rule, then its category's, then the list's default", () => {
    const rules = {
      products: new Map([[7, { fixedCents: 1234 }]]),
      categories: new Map([[2, { percentOff: 8 }]]),
      everything: { percentOff: 5 },
    };
    expect(tradeRuleFor(rules, 7, 2)).toEqual({ fixedCents: 1234 });
    expect(tradeRuleFor(rules, 8, 2)).toEqual({ percentOff: 8 });
    expect(tradeRuleFor(rules, 8, 3)).toEqual({ percentOff: 5 });
    expect(tradeRuleFor(null, 8, 3)).toBeNull();
  });
});
