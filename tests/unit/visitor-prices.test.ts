import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buyerUnitCents, unitPrice, type PriceListRules, type TradeRule } from "../../app/lib/pricing.ts";
import { priceListFromJson, priceListToJson } from "../../app/lib/visitor.ts";

const rule: fc.Arbitrary<TradeRule> = fc.oneof(
  fc.record({ percentOff: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ fixedCents: fc.integer({ min: 0, max: 100_000 }) }),
);
const rules: fc.Arbitrary<PriceListRules> = fc.record({
  products: fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), rule), { maxLength: 8 }).map((pairs) => new Map(pairs)),
  categories: fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), rule), { maxLength: 4 }).map((pairs) => new Map(pairs)),
  everything: fc.option(rule, { nil: null }),
});
const product = fc.record({
  id: fc.integer({ min: 1, max: 40 }),
  salePriceCents: fc.integer({ min: 0, max: 100_000 }),
  categoryId: fc.integer({ min: 1, max: 8 }),
});

describe("a trade buyer's price in the browser (the price list read from /visitor)", () => {
  it("is the same after the price list travels as JSON", () => {
    fc.assert(
      fc.property(rules, product, (r, p) => {
        const travelled = priceListFromJson(JSON.parse(JSON.stringify(priceListToJson(r))));
        expect(buyerUnitCents(travelled, p)).toBe(buyerUnitCents(r, p));
      }),
    );
  });

  it("is the one price rule's trade price for one unit, shown only when it beats the list price, never above it", () => {
    fc.assert(
      fc.property(rules, product, (r, p) => {
        const cents = buyerUnitCents(r, p);
        const rule1 = r.products?.get(p.id) ?? r.categories?.get(p.categoryId) ?? r.everything ?? null;
        const unit = unitPrice({ listCents: p.salePriceCents, quantity: 1, trade: rule1 });
        expect(cents).toBe(unit.source === "trade" ? unit.unitCents : null);
        if (cents !== null) expect(cents).toBeLessThan(p.salePriceCents);
      }),
    );
  });

  it("is nothing without a price list", () => {
    expect(buyerUnitCents(null, { id: 1, salePriceCents: 1000 })).toBeNull();
    expect(priceListFromJson(null)).toBeNull();
  });
});
