import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MARKETS } from "../../app/lib/markets.ts";
import {
  orderTax,
  ukVatRate,
  usTaxBasis,
  type ExemptionCertificate,
  type OrderTaxLine,
  type UsTaxTables,
} from "../../server/tax/order-tax.ts";
import type { VatClass } from "../../app/lib/product-tax.ts";
import { US_STATES } from "../../server/tax/us-states.ts";

const tables: UsTaxTables = {
  states: new Map(US_STATES.map((s) => [s.code, s])),
  nexus: new Set(["CA", "NY", "TX"]),
  local: new Map([
    ["90001", { zip: "90001", region: "Los Angeles", ratePpm: 25_000 }],
    ["10001", { zip: "10001", region: "New York City", ratePpm: 48_750 }],
  ]),
};
const today = "2026-12-07";
const line = (key: string, amountMinor: number, vatClass: VatClass = "standard"): OrderTaxLine => ({
  key,
  amountMinor,
  vatClass,
});

describe("usTaxBasis", () => {
  it("collects the state's rate and the ZIP code's local rates where the store is registered", () => {
    expect(usTaxBasis({ state: "ca", zip: "90001-1234" }, tables, [], today)).toEqual({
      kind: "collected",
      shippingTaxable: false,
      rates: [
        { jurisdiction: "US-CA", label: "California sales tax 7.25%", ratePpm: 72_500 },
        { jurisdiction: "US-CA-90001", label: "Local sales tax 2.5% (Los Angeles)", ratePpm: 25_000 },
      ],
    });
    const ny = usTaxBasis({ state: "NY", zip: "12207" }, tables, [], today);
    expect(ny).toMatchObject({ kind: "collected", shippingTaxable: true });
    expect(ny.kind === "collected" && ny.rates.map((r) => r.ratePpm)).toEqual([40_000]);
  });

  it("collects nothing, and says why, in a state where the store is not registered", () => {
    expect(usTaxBasis({ state: "OR", zip: "97201" }, tables, [], today)).toEqual({
      kind: "not-registered",
      state: "OR",
      stateName: "Oregon",
    });
  });

  it("an unexpired certificate for the delivery state exempts the order; another state's or an expired one does not", () => {
    const certs: ExemptionCertificate[] = [
      { id: 7, state: "TX", expiresOn: "2026-12-06" },
      { id: 8, state: "NY", expiresOn: "2027-06-30" },
      { id: 9, state: "CA", expiresOn: today },
    ];
    expect(usTaxBasis({ state: "TX", zip: "73301" }, tables, certs, today).kind).toBe("collected");
    expect(usTaxBasis({ state: "NY", zip: "10001" }, tables, certs, today)).toEqual({
      kind: "exempt",
      state: "NY",
      certificateId: 8,
    });
    // Valid through its last day, not after.
    expect(usTaxBasis({ state: "CA", zip: "90001" }, tables, certs, today)).toMatchObject({
      kind: "exempt",
      certificateId: 9,
    });
    expect(usTaxBasis({ state: "CA", zip: "90001" }, tables, certs, "2026-12-08").kind).toBe("collected");
  });

  it("refuses a state it does not know", () => {
    expect(() => usTaxBasis({ state: "XX", zip: "00000" }, tables, [], today)).toThrow(/Unknown US state/);
  });

  it("seeds every state and DC once, with rates from 0 to 7.25%", () => {
    expect(new Set(US_STATES.map((s) => s.code)).size).toBe(51);
    for (const s of US_STATES) expect(s.ratePpm).toBeGreaterThanOrEqual(0);
    expect(Math.max(...US_STATES.map((s) => s.ratePpm))).toBe(72_500);
  });
});

describe("orderTax", () => {
  it("UK: VAT inside the prices, the member discount shared before tax, delivery at the goods' rate", () => {
    const r = orderTax(MARKETS.uk, {
      lines: [line("drill", 10_000), line("saw", 2_000)],
      discountMinor: 600,
      shippingMinor: 999,
    });
    // Goods 12,000 − 600 = 11,400 and delivery 999, all at 20%: VAT 12,399 / 6 = 2,066.5 → 2,067.
    expect(r.lines).toEqual([{ ...ukVatRate("standard"), taxableMinor: 10_332, taxMinor: 2_067 }]);
    expect(r.totalMinor).toBe(12_399);
    expect(r.items.map((i) => i.key)).toEqual(["drill", "saw", "shipping"]);
  });

  it("UK: delivery of a mixed order is shared between the rates by value", () => {
    const r = orderTax(MARKETS.uk, {
      lines: [line("drill", 6_000), line("mask", 2_000, "reduced"), line("book", 2_000, "zero")],
      discountMinor: 0,
      shippingMinor: 1_000,
    });
    expect(r.items.filter((i) => i.key.startsWith("shipping")).map((i) => i.key)).toEqual([
      "shipping:standard",
      "shipping:reduced",
      "shipping:zero",
    ]);
    expect(r.lines.map((l) => [l.label, l.taxableMinor + l.taxMinor, l.taxMinor])).toEqual([
      ["VAT 20%", 6_600, 1_100],
      ["VAT 5%", 2_200, 105],
      ["VAT 0%", 2_200, 0],
    ]);
  });

  it("US: tax added at the state's and local rates, delivery taxed where the state says", () => {
    const ca = usTaxBasis({ state: "CA", zip: "90001" }, tables, [], today);
    const r = orderTax(MARKETS.us, { lines: [line("saw", 10_000)], discountMinor: 0, shippingMinor: 1_000, us: ca });
    expect(r.taxMinor).toBe(975);
    expect(r.totalMinor).toBe(11_975);
    const ny = usTaxBasis({ state: "NY", zip: "10001" }, tables, [], today);
    const n = orderTax(MARKETS.us, { lines: [line("saw", 10_000)], discountMinor: 0, shippingMinor: 1_000, us: ny });
    expect(n.lines.map((l) => [l.jurisdiction, l.taxableMinor, l.taxMinor])).toEqual([
      ["US-NY", 11_000, 440],
      ["US-NY-10001", 11_000, 536], // 536.25
    ]);
  });

  it("US: no tax lines where the store is not registered or the buyer is exempt", () => {
    for (const us of [
      usTaxBasis({ state: "OR", zip: "97201" }, tables, [], today),
      usTaxBasis({ state: "CA", zip: "90001" }, tables, [{ id: 1, state: "CA", expiresOn: "2030-01-01" }], today),
    ]) {
      const r = orderTax(MARKETS.us, { lines: [line("saw", 10_000)], discountMinor: 500, shippingMinor: 1_000, us });
      expect(r).toMatchObject({ lines: [], taxMinor: 0, totalMinor: 10_500 });
    }
  });

  it("refuses a discount above the goods, and a US order without its address's basis", () => {
    expect(() => orderTax(MARKETS.uk, { lines: [line("a", 100)], discountMinor: 101, shippingMinor: 0 })).toThrow(
      RangeError,
    );
    expect(() => orderTax(MARKETS.us, { lines: [line("a", 100)], discountMinor: 0, shippingMinor: 0 })).toThrow(
      /basis/,
    );
  });

  it("in both markets the total is goods − discount + delivery (+ tax in the US), and the lines sum to the tax", () => {
    const lines = fc.array(
      fc.record({
        amountMinor: fc.integer({ min: 0, max: 5_000_000 }),
        vatClass: fc.constantFrom<VatClass>("standard", "reduced", "zero"),
      }),
      { minLength: 1, maxLength: 8 },
    );
    const states = fc.constantFrom("CA", "NY", "TX", "OR", "DE");
    fc.assert(
      fc.property(
        lines,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 5_000 }),
        states,
        (ls, share, shipping, state) => {
          const goods = ls.reduce((s, l) => s + l.amountMinor, 0);
          const discount = Math.floor(goods * share);
          const input = {
            lines: ls.map((l, i) => ({ key: `l${i}`, ...l })),
            discountMinor: discount,
            shippingMinor: goods ? shipping : 0,
          };
          const uk = orderTax(MARKETS.uk, input);
          expect(uk.totalMinor).toBe(goods - discount + input.shippingMinor);
          const us = orderTax(MARKETS.us, { ...input, us: usTaxBasis({ state, zip: "90001" }, tables, [], today) });
          expect(us.totalMinor).toBe(goods - discount + input.shippingMinor + us.taxMinor);
          for (const r of [uk, us]) expect(r.lines.reduce((s, l) => s + l.taxMinor, 0)).toBe(r.taxMinor);
        },
      ),
    );
  });
});
