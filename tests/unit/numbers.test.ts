import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../app/lib/money.ts";
import { countText, formatCount } from "../../app/lib/numbers.ts";

// The storefront formats numbers without Intl (app/lib/numbers.ts); what it writes must be what
// Intl's "en-US" formats write, on the server and in the browser alike.
const intlCount = new Intl.NumberFormat("en-US");
const intlUsd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

describe("formatCount", () => {
  it("groups thousands as en-US does", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(100000)).toBe("100,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-1234)).toBe("-1,234");
  });
  it("writes every safe integer as Intl does", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.maxSafeInteger(),
          fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
          fc.integer({ min: -1e6, max: 1e6 }),
        ),
        (n) => formatCount(n) === intlCount.format(n),
      ),
    );
  });
  it("refuses what is not a whole number", () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => formatCount(bad)).toThrow(RangeError);
  });
});

describe("countText", () => {
  it("writes the count as formatCount does, with the noun for one or many", () => {
    expect(countText(1, "line")).toBe("1 line");
    expect(countText(0, "line")).toBe("0 lines");
    expect(countText(1200, "unit")).toBe("1,200 units");
    expect(countText(2, "more unit")).toBe("2 more units");
    expect(countText(3, "box", "boxes")).toBe("3 boxes");
  });
});

describe("formatMoney against Intl's en-US dollars", () => {
  it("writes every amount of cents as Intl does", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -100_000, max: 100_000 }),
          fc.integer(),
          fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
        ),
        (cents) => formatMoney(cents) === intlUsd.format(cents / 100),
      ),
    );
  });
  it("writes negative amounts with the sign before the dollar", () => {
    expect(formatMoney(-5)).toBe("-$0.05");
    expect(formatMoney(-123456)).toBe("-$1,234.56");
  });
});
