import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { centsToDecimalString, formatMoney, parseDollarsToCents } from "../../app/lib/money.ts";
import { discountedPriceCents, isDiscounted } from "../../app/lib/pricing.ts";

describe("discountedPriceCents (spec: price − price × percent / 100)", () => {
  it("returns the price unchanged without a discount", () => {
    expect(discountedPriceCents(12345, null)).toBe(12345);
    expect(discountedPriceCents(12345, undefined)).toBe(12345);
    expect(discountedPriceCents(12345, 0)).toBe(12345);
  });
  it("applies whole-percent discounts", () => {
    expect(discountedPriceCents(10000, 20)).toBe(8000);
    expect(discountedPriceCents(5000, 25)).toBe(3750);
  });
  it("rounds half-up to the cent", () => {
    // 999 × 0.85 = 849.15 → 849; 1999 × 0.85 = 1699.15 → 1699; 10 × 0.85 = 8.5 → 9
    expect(discountedPriceCents(999, 15)).toBe(849);
    expect(discountedPriceCents(10, 15)).toBe(9);
    expect(discountedPriceCents(30, 5)).toBe(29); // 28.5 → 29
  });
  it("rejects impossible inputs", () => {
    expect(() => discountedPriceCents(-1, 10)).toThrow(RangeError);
    expect(() => discountedPriceCents(10.5, 10)).toThrow(RangeError);
    expect(() => discountedPriceCents(100, 101)).toThrow(RangeError);
  });
  it("never exceeds the price and is never negative", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 100 }), (price, pct) => {
        const sale = discountedPriceCents(price, pct);
        return Number.isInteger(sale) && sale >= 0 && sale <= price;
      }),
    );
  });
  it("knows when a product is discounted", () => {
    expect(isDiscounted(null)).toBe(false);
    expect(isDiscounted(0)).toBe(false);
    expect(isDiscounted(15)).toBe(true);
  });
});

describe("money formatting", () => {
  it("prints dollars with two decimals", () => {
    expect(formatMoney(12000)).toBe("$120.00");
    expect(formatMoney(5)).toBe("$0.05");
    expect(formatMoney(123456789)).toBe("$1,234,567.89");
  });
  it("refuses fractional cents", () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });
  it("writes machine-readable decimals", () => {
    expect(centsToDecimalString(12001)).toBe("120.01");
    expect(centsToDecimalString(7)).toBe("0.07");
  });
  it("parses typed dollar amounts", () => {
    expect(parseDollarsToCents("12")).toBe(1200);
    expect(parseDollarsToCents("12.5")).toBe(1250);
    expect(parseDollarsToCents(" 0.05 ")).toBe(5);
    for (const bad of ["", "-1", "1e3", "abc", "1.234", "NaN"]) expect(parseDollarsToCents(bad)).toBeNull();
  });
});
