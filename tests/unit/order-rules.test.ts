import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import {
  isValidPostcode,
  MAX_LINE_QUANTITY,
  MEMBER_DISCOUNT_PERCENT,
  memberDiscountCents,
  parseRowId,
  parseQuantity,
  shippingCents,
  summarizeOrder,
  UK_FLAT_SHIPPING_CENTS,
  type ShippingCountry,
} from "../../app/lib/order-rules.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { MARKETS, type MarketId } from "../../app/lib/markets.ts";

const one = (cents: number) => [{ unitPriceCents: cents, quantity: 1 }];

describe("named constants", () => {
  it("match the issue: 5% off orders over $120.00 (£100.00 in the UK), a flat UK rate, a sane line cap", () => {
    expect(MEMBER_DISCOUNT_PERCENT).toBe(5);
    expect(MARKETS.us.memberDiscountThresholdMinor).toBe(12_000);
    expect(MARKETS.uk.memberDiscountThresholdMinor).toBe(10_000);
    expect(Number.isInteger(UK_FLAT_SHIPPING_CENTS)).toBe(true);
    expect(UK_FLAT_SHIPPING_CENTS).toBeGreaterThan(0);
    expect(MAX_LINE_QUANTITY).toBe(100);
  });
});

describe("summarizeOrder: member discount", () => {
  it("gives no discount at exactly $120.00 (the rule is 'over $120.00')", () => {
    const s = summarizeOrder(one(12_000), { isMember: true, country: "US" });
    expect(s).toEqual({
      subtotalCents: 12_000,
      memberDiscountCents: 0,
      shippingCents: 0,
      taxCents: 0,
      totalCents: 12_000,
    });
  });

  it("gives 5% at $120.01: $6.0005 rounds to $6.00", () => {
    const s = summarizeOrder(one(12_001), { isMember: true, country: "US" });
    expect(s.memberDiscountCents).toBe(600);
    expect(s.totalCents).toBe(12_001 - 600);
  });

  it("gives a UK member 5% above £100.00, not at it, in pence", () => {
    expect(summarizeOrder(one(10_000), { isMember: true, country: "GB", market: "uk" }).memberDiscountCents).toBe(0);
    expect(summarizeOrder(one(10_001), { isMember: true, country: "GB", market: "uk" }).memberDiscountCents).toBe(500);
    // £110 is above the UK threshold but $110 is under the US one.
    expect(memberDiscountCents(11_000, true, "uk")).toBe(550);
    expect(memberDiscountCents(11_000, true, "us")).toBe(0);
  });

  it("rounds half a cent up", () => {
    // 5% of $120.10 is 600.5 cents → 601; 5% of $120.30 is 601.5 → 602; 5% of $120.29 is 601.45 → 601.
    expect(memberDiscountCents(12_010, true)).toBe(601);
    expect(memberDiscountCents(12_030, true)).toBe(602);
    expect(memberDiscountCents(12_029, true)).toBe(601);
  });

  it("counts the whole subtotal over all lines and quantities", () => {
    const s = summarizeOrder(
      [
        { unitPriceCents: 4_000, quantity: 2 },
        { unitPriceCents: 4_001, quantity: 1 },
      ],
      { isMember: true, country: "US" },
    );
    expect(s.subtotalCents).toBe(12_001);
    expect(s.memberDiscountCents).toBe(600);
  });

  it("never discounts a guest, whatever the amount", () => {
    for (const cents of [12_000, 12_001, 50_000, 10_000_000]) {
      const s = summarizeOrder(one(cents), { isMember: false, country: "US" });
      expect(s.memberDiscountCents).toBe(0);
      expect(s.totalCents).toBe(cents);
    }
  });
});

describe("summarizeOrder: shipping and taxes", () => {
  it("ships free to the US", () => {
    expect(shippingCents("US")).toBe(0);
    expect(summarizeOrder(one(500), { isMember: false, country: "US" }).shippingCents).toBe(0);
  });

  it("charges the flat UK rate to Great Britain and adds it to the total", () => {
    expect(shippingCents("GB")).toBe(UK_FLAT_SHIPPING_CENTS);
    const s = summarizeOrder(one(500), { isMember: false, country: "GB" });
    expect(s.shippingCents).toBe(UK_FLAT_SHIPPING_CENTS);
    expect(s.totalCents).toBe(500 + UK_FLAT_SHIPPING_CENTS);
  });

  it("computes the member discount on the goods only, not on UK shipping", () => {
    const s = summarizeOrder(one(12_001), { isMember: true, country: "GB" });
    expect(s.memberDiscountCents).toBe(600);
    expect(s.totalCents).toBe(12_001 - 600 + UK_FLAT_SHIPPING_CENTS);
    // Shipping does not lift an order at $120.00 over the threshold.
    expect(summarizeOrder(one(12_000), { isMember: true, country: "GB" }).memberDiscountCents).toBe(0);
  });

  it("adds nothing for taxes (prices are 'Tax included')", () => {
    expect(summarizeOrder(one(9_999), { isMember: true, country: "GB" }).taxCents).toBe(0);
  });

  it("charges no shipping on an empty order", () => {
    expect(summarizeOrder([], { isMember: true, country: "GB" })).toEqual({
      subtotalCents: 0,
      memberDiscountCents: 0,
      shippingCents: 0,
      taxCents: 0,
      totalCents: 0,
    });
  });

  it("property: total = subtotal − discount + shipping, with 0 ≤ discount ≤ subtotal", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            unitPriceCents: fc.integer({ min: 0, max: 5_000_000 }),
            quantity: fc.integer({ min: 1, max: MAX_LINE_QUANTITY }),
          }),
          { maxLength: 12 },
        ),
        fc.boolean(),
        fc.constantFrom<ShippingCountry>("US", "GB"),
        fc.constantFrom<MarketId>("us", "uk"),
        (lines, isMember, country, market) => {
          const s = summarizeOrder(lines, { isMember, country, market });
          const subtotal = lines.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0);
          expect(s.subtotalCents).toBe(subtotal);
          expect(s.totalCents).toBe(s.subtotalCents - s.memberDiscountCents + s.shippingCents);
          expect(s.memberDiscountCents).toBeGreaterThanOrEqual(0);
          expect(s.memberDiscountCents).toBeLessThanOrEqual(s.subtotalCents);
          expect(Number.isInteger(s.memberDiscountCents)).toBe(true);
          expect(s.totalCents).toBeGreaterThanOrEqual(0);
          if (!isMember || subtotal <= MARKETS[market].memberDiscountThresholdMinor)
            expect(s.memberDiscountCents).toBe(0);
          else
            expect(Math.abs(s.memberDiscountCents - (subtotal * MEMBER_DISCOUNT_PERCENT) / 100)).toBeLessThanOrEqual(
              0.5,
            );
          expect(s.shippingCents).toBe(lines.length === 0 ? 0 : country === "GB" ? UK_FLAT_SHIPPING_CENTS : 0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("parseQuantity: a whole number from 1 up to the limit", () => {
  it.each([
    ["1", 1],
    ["2", 2],
    [" 2 ", 2],
    ["99", 99],
    ["100", 100],
    [3, 3],
  ] as const)("accepts %j as %d", (input, expected) => {
    expect(parseQuantity(input)).toBe(expected);
  });

  it.each([
    ["-1"],
    [-1],
    ["0"],
    [0],
    ["1.5"],
    [1.5],
    ["1,5"],
    ["1e3"],
    ["101"],
    ["1000"],
    ["99999"],
    ["100000"],
    ["99999999999999999999"],
    [Number.MAX_SAFE_INTEGER],
    [Infinity],
    [NaN],
    ["abc"],
    ["2abc"],
    [""],
    ["   "],
    ["+2"],
    ["0x10"],
    [null],
    [undefined],
    [true],
    [{}],
    [["2"]],
  ] as const)("refuses %j", (input) => {
    expect(parseQuantity(input)).toBeNull();
  });

  it("honours a smaller maximum (the stock), but never exceeds the line cap", () => {
    expect(parseQuantity("5", 5)).toBe(5);
    expect(parseQuantity("6", 5)).toBeNull();
    expect(parseQuantity("1", 0)).toBeNull();
    expect(parseQuantity(String(MAX_LINE_QUANTITY + 1), 1_000_000)).toBeNull();
  });

  it("property: any accepted value is a whole number in [1, max]", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.double()), fc.integer({ min: 0, max: 5000 }), (input, max) => {
        const q = parseQuantity(input, max);
        if (q !== null) {
          expect(Number.isInteger(q)).toBe(true);
          expect(q).toBeGreaterThanOrEqual(1);
          expect(q).toBeLessThanOrEqual(Math.min(max, MAX_LINE_QUANTITY));
        }
      }),
    );
  });
});

describe("parseRowId", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    [" 7 ", 7],
    [600, 600],
  ] as const)("accepts %j", (input, expected) => {
    expect(parseRowId(input)).toBe(expected);
  });

  it.each([
    ["0"],
    ["-3"],
    ["1.5"],
    ["01"],
    ["abc"],
    [""],
    ["1e3"],
    ["12345678901"],
    [0],
    [-1],
    [2.5],
    [null],
    [undefined],
    [{}],
  ] as const)("refuses %j", (input) => {
    expect(parseRowId(input)).toBeNull();
  });
});

describe("isValidPostcode", () => {
  it.each(["10001", "10001-1234", " 90210 "])("accepts the US ZIP %j", (zip) => {
    expect(isValidPostcode("US", zip)).toBe(true);
  });
  it.each(["1000", "100011", "10001-123", "10001 1234", "ABCDE", "SW1A 1AA", ""])("refuses the US ZIP %j", (zip) => {
    expect(isValidPostcode("US", zip)).toBe(false);
  });
  it.each(["SW1A 1AA", "sw1a 1aa", "EC1A1BB", "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "W1A 0AX", "GIR 0AA"])(
    "accepts the UK postcode %j",
    (pc) => {
      expect(isValidPostcode("GB", pc)).toBe(true);
    },
  );
  it.each(["10001", "SW1A", "SW1A 1A", "QW1 1AA", "SW1A 1AAA", "12345 ABC", ""])("refuses the UK postcode %j", (pc) => {
    expect(isValidPostcode("GB", pc)).toBe(false);
  });
});

describe("checkoutSchema", () => {
  const base = validCheckoutForm;
  const issues = (input: Record<string, unknown>) => {
    const r = checkoutSchema.safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
  };

  it("accepts a complete US pay-on-delivery order and normalises optional fields to null", () => {
    const parsed = checkoutSchema.parse(base);
    expect(parsed).toMatchObject({ country: "US", paymentMethod: "pay-on-delivery", line2: null, poNumber: null });
  });

  it("checks the postcode against the chosen country, with a message naming the format", () => {
    expect(issues({ ...base, postcode: "SW1A 1AA" }).postcode).toBe(
      "Enter a valid US ZIP code, like 10001 or 10001-1234",
    );
    expect(issues({ ...base, country: "GB", postcode: "10001" }).postcode).toBe(
      "Enter a valid UK postcode, like SW1A 1AA",
    );
    expect(issues({ ...base, country: "GB", postcode: "EC1A1BB" })).toEqual({});
  });

  it("allows only the United States and the United Kingdom", () => {
    expect(issues({ ...base, country: "FR" }).country).toBe("Choose the United States or the United Kingdom");
  });

  it("requires the email, the name, the address and a valid checkout token", () => {
    const got = issues({ ...base, email: "not-an-email", name: "  ", line1: "", city: "", checkoutToken: "short" });
    expect(got.email).toBe("Enter a valid email address");
    expect(got.name).toBe("Full name is required");
    expect(got.line1).toBe("Address line 1 is required");
    expect(got.city).toBe("Town or city is required");
    expect(got.checkoutToken).toMatch(/expired/);
  });

  it("refuses control characters in the name", () => {
    expect(issues({ ...base, name: "Ada\u0000Buyer" }).name).toMatch(/invalid characters/);
  });

  it("invoice payment takes no business fields from the form: the company's own name and VAT number or EIN are used", () => {
    const parsed = checkoutSchema.parse({
      ...base,
      paymentMethod: "invoice-net30",
      businessName: "Typed Ltd",
      taxNumber: "nonsense",
    });
    expect(parsed.paymentMethod).toBe("invoice-net30");
    expect(parsed).not.toHaveProperty("businessName");
    expect(parsed).not.toHaveProperty("taxNumber");
  });
});
