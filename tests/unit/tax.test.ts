import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocate,
  computeTax,
  cumulativeShare,
  formatRate,
  MAX_RATE_PPM,
  parseRatePercent,
  type TaxItem,
  type TaxRate,
} from "../../app/lib/tax.ts";

const vat20: TaxRate = { jurisdiction: "GB", label: "VAT 20%", ratePpm: 200_000 };
const vat5: TaxRate = { jurisdiction: "GB", label: "VAT 5%", ratePpm: 50_000 };
const ca: TaxRate = { jurisdiction: "US-CA", label: "California sales tax 7.25%", ratePpm: 72_500 };
const la: TaxRate = { jurisdiction: "US-CA-90001", label: "Local sales tax 2.5% (Los Angeles)", ratePpm: 25_000 };

const item = (key: string, amountMinor: number, ...rates: TaxRate[]): TaxItem => ({ key, amountMinor, rates });

describe("computeTax: worked examples", () => {
  it("takes 20% VAT out of a VAT-inclusive price: £120.00 holds £20.00", () => {
    const r = computeTax("inclusive", [item("line:1", 12_000, vat20)]);
    expect(r.lines).toEqual([{ ...vat20, taxableMinor: 10_000, taxMinor: 2_000 }]);
    expect(r).toMatchObject({ taxMinor: 2_000, netMinor: 10_000, totalMinor: 12_000 });
  });

  it("rounds once per tax line, not per item: three £9.99 lines hold £5.00 VAT, not 3 × £1.67", () => {
    const r = computeTax("inclusive", [item("a", 999, vat20), item("b", 999, vat20), item("c", 999, vat20)]);
    expect(r.taxMinor).toBe(500);
    expect(r.items.map((i) => i.taxMinor)).toEqual([167, 167, 166]);
    expect(r.items.map((i) => i.netMinor)).toEqual([832, 832, 833]);
  });

  it("keeps one line per rate: a standard and a reduced-rate line", () => {
    const r = computeTax("inclusive", [item("drill", 6_000, vat20), item("mask", 2_100, vat5)]);
    expect(r.lines.map((l) => [l.label, l.taxableMinor, l.taxMinor])).toEqual([
      ["VAT 20%", 5_000, 1_000],
      ["VAT 5%", 2_000, 100],
    ]);
    expect(r.totalMinor).toBe(8_100);
  });

  it("adds US sales tax on top, a line for the state and one for the local rates", () => {
    const r = computeTax("exclusive", [item("saw", 10_000, ca, la), item("shipping", 1_500)]);
    expect(r.lines.map((l) => [l.jurisdiction, l.taxableMinor, l.taxMinor])).toEqual([
      ["US-CA", 10_000, 725],
      ["US-CA-90001", 10_000, 250],
    ]);
    expect(r).toMatchObject({ taxMinor: 975, netMinor: 11_500, totalMinor: 12_475 });
    expect(r.items).toEqual([
      { key: "saw", netMinor: 10_000, taxMinor: 975 },
      { key: "shipping", netMinor: 1_500, taxMinor: 0 },
    ]);
  });

  it("rounds half-up on the line's sum: three 10¢ items at 7.25% owe 2¢ (2.175¢), not 3 × 1¢", () => {
    const r = computeTax("exclusive", [item("a", 10, ca), item("b", 10, ca), item("c", 10, ca)]);
    expect(r.taxMinor).toBe(2);
    expect(computeTax("exclusive", [item("a", 20, ca)]).taxMinor).toBe(1); // 1.45¢ → 1¢
    expect(computeTax("exclusive", [item("a", 200, { ...ca, ratePpm: 25_000 })]).taxMinor).toBe(5); // exactly 5¢
    expect(computeTax("exclusive", [item("a", 100, { ...ca, ratePpm: 25_000 })]).taxMinor).toBe(3); // 2.5¢ → 3¢
  });

  it("an order with nothing taxable has no tax lines", () => {
    expect(computeTax("exclusive", [item("a", 5_000)])).toMatchObject({ lines: [], taxMinor: 0, totalMinor: 5_000 });
    expect(computeTax("exclusive", [])).toMatchObject({ lines: [], items: [], taxMinor: 0, totalMinor: 0 });
  });

  it("refuses what it cannot price", () => {
    expect(() => computeTax("inclusive", [item("a", 100)])).toThrow(/exactly one rate/);
    expect(() => computeTax("inclusive", [item("a", 100, vat20, vat5)])).toThrow(/exactly one rate/);
    expect(() => computeTax("exclusive", [item("a", -1, ca)])).toThrow(RangeError);
    expect(() => computeTax("exclusive", [item("a", 1.5, ca)])).toThrow(RangeError);
    expect(() => computeTax("exclusive", [item("a", 100, { ...ca, ratePpm: MAX_RATE_PPM + 1 })])).toThrow(RangeError);
    expect(() => computeTax("exclusive", [item("a", 100, ca, ca)])).toThrow(/twice/);
  });
});

const rates: TaxRate[] = [
  vat20,
  vat5,
  { jurisdiction: "GB", label: "VAT 0%", ratePpm: 0 },
  ca,
  la,
  { jurisdiction: "US-NY", label: "New York sales tax 4%", ratePpm: 40_000 },
  { jurisdiction: "US-NY-10001", label: "Local 4.875%", ratePpm: 48_750 },
];
const amount = fc.integer({ min: 0, max: 50_000_000 });
const exclusiveItems = fc.array(
  fc.record({ amountMinor: amount, rates: fc.subarray(rates) }).map((r): TaxItem => ({ key: "item", ...r })),
  { maxLength: 12 },
);
const inclusiveItems = fc.array(
  fc
    .record({ amountMinor: amount, rate: fc.constantFrom(...rates) })
    .map((r) => ({ key: "i", amountMinor: r.amountMinor, rates: [r.rate] })),
  { maxLength: 12 },
);
const halfUp = (n: bigint, d: bigint) => Number((2n * n + d) / (2n * d));

describe("computeTax: properties", () => {
  it("exclusive: lines sum to the tax, items' shares sum to it, total = goods + tax, each line rounded once", () => {
    fc.assert(
      fc.property(exclusiveItems, (items) => {
        const r = computeTax("exclusive", items);
        const goods = items.reduce((s, i) => s + i.amountMinor, 0);
        expect(r.lines.reduce((s, l) => s + l.taxMinor, 0)).toBe(r.taxMinor);
        expect(r.items.reduce((s, i) => s + i.taxMinor, 0)).toBe(r.taxMinor);
        expect(r.totalMinor).toBe(goods + r.taxMinor);
        expect(r.netMinor).toBe(goods);
        for (const line of r.lines) {
          const base = items
            .filter((i) => i.rates.some((x) => x.label === line.label))
            .reduce((s, i) => s + i.amountMinor, 0);
          expect(line.taxableMinor).toBe(base);
          expect(line.taxMinor).toBe(halfUp(BigInt(base) * BigInt(line.ratePpm), 1_000_000n));
        }
        // Each item's share of a line is within one unit of its share of the rounded line, which is
        // within half a unit of the exact tax: under 1.5 units per line from the exact tax.
        items.forEach((it, i) => {
          const exact = it.rates.reduce((s, x) => s + (it.amountMinor * x.ratePpm) / 1e6, 0);
          expect(Math.abs(r.items[i].taxMinor - exact)).toBeLessThan(1.5 * it.rates.length + 1e-9);
        });
      }),
    );
  });

  it("inclusive: the total is the prices, net + tax = price for every item and line, never a negative net", () => {
    fc.assert(
      fc.property(inclusiveItems, (items) => {
        const r = computeTax("inclusive", items);
        const goods = items.reduce((s, i) => s + i.amountMinor, 0);
        expect(r.totalMinor).toBe(goods);
        expect(r.netMinor + r.taxMinor).toBe(goods);
        r.items.forEach((x, i) => {
          expect(x.netMinor + x.taxMinor).toBe(items[i].amountMinor);
          expect(x.netMinor).toBeGreaterThanOrEqual(0);
        });
        expect(r.lines.reduce((s, l) => s + l.taxableMinor + l.taxMinor, 0)).toBe(goods);
      }),
    );
  });

  it("more goods never mean less tax on any line", () => {
    fc.assert(
      fc.property(exclusiveItems, amount, (items, extra) => {
        const before = computeTax("exclusive", items);
        const after = computeTax("exclusive", [...items, { key: "more", amountMinor: extra, rates }]);
        for (const line of before.lines)
          expect(after.lines.find((l) => l.label === line.label)!.taxMinor).toBeGreaterThanOrEqual(line.taxMinor);
      }),
    );
  });

  it("returning every unit, in any steps, reverses exactly the tax and the net that were charged", () => {
    const order = fc.array(
      fc.record({ amountMinor: amount, quantity: fc.integer({ min: 1, max: 40 }), rate: fc.constantFrom(...rates) }),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(order, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 10 }), (lines, steps) => {
        for (const mode of ["inclusive", "exclusive"] as const) {
          const r = computeTax(
            mode,
            lines.map((l, i) => ({ key: `l${i}`, amountMinor: l.amountMinor, rates: [l.rate] })),
          );
          let taxBack = 0;
          let netBack = 0;
          lines.forEach((l, i) => {
            let returned = 0;
            for (const step of [...steps, l.quantity]) {
              const count = Math.min(step, l.quantity - returned);
              const tax = cumulativeShare(r.items[i].taxMinor, l.quantity, returned, count);
              expect(tax).toBeGreaterThanOrEqual(0);
              expect(tax).toBeLessThanOrEqual(Math.ceil((r.items[i].taxMinor * count) / l.quantity));
              taxBack += tax;
              netBack += cumulativeShare(r.items[i].netMinor, l.quantity, returned, count);
              returned += count;
            }
          });
          expect(taxBack).toBe(r.taxMinor);
          expect(netBack).toBe(r.netMinor);
        }
      }),
    );
  });
});

describe("allocate", () => {
  it("shares by largest remainder, ties to the earlier", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(5, [2, 1])).toEqual([3, 2]);
    expect(allocate(0, [5, 7])).toEqual([0, 0]);
    expect(allocate(3, [0, 0])).toEqual([2, 1]);
    expect(allocate(0, [])).toEqual([]);
    expect(() => allocate(1, [])).toThrow(RangeError);
    expect(() => allocate(1, [-1, 2])).toThrow(RangeError);
  });
  it("sums exactly and keeps each part within one unit of its share", () => {
    fc.assert(
      fc.property(amount, fc.array(amount, { minLength: 1, maxLength: 20 }), (total, weights) => {
        const parts = allocate(total, weights);
        expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
        const sum = weights.reduce((s, w) => s + w, 0);
        parts.forEach((p, i) => {
          const exact = sum ? (total * weights[i]) / sum : total / weights.length;
          expect(Math.abs(p - exact)).toBeLessThan(1);
        });
      }),
    );
  });
});

describe("rates as people write them", () => {
  it("formats and parses parts per million", () => {
    expect([200_000, 72_500, 1_250, 0, 1_000_000].map(formatRate)).toEqual(["20%", "7.25%", "0.125%", "0%", "100%"]);
    expect(parseRatePercent("7.25")).toBe(72_500);
    expect(parseRatePercent(" 20% ")).toBe(200_000);
    expect(parseRatePercent("0.125")).toBe(1_250);
    for (const bad of ["", "-1", "100.01", "abc", "7.12345", "1e2", "101"]) expect(parseRatePercent(bad)).toBeNull();
  });
  it("parse(format(rate)) is the rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RATE_PPM }), (ppm) => parseRatePercent(formatRate(ppm)) === ppm),
    );
  });
});
