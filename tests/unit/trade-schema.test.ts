import { describe, expect, it } from "vitest";
import { normalizeTaxId, TAX_ID_HINTS, tradeApplicationSchema } from "../../app/lib/trade-schema.ts";

const valid = {
  companyName: "Acme",
  country: "US",
  taxId: "12-3456789",
  line1: "1 Main St",
  city: "Austin",
  region: "TX",
  postcode: "73301",
  phone: "(512) 555-0100",
};

describe("trade application form", () => {
  it("checks UK VAT numbers: GB and 9 or 12 digits", () => {
    expect(normalizeTaxId("GB", "gb 123 4567 89")).toBe("GB123456789");
    expect(normalizeTaxId("GB", "GB123456789012")).toBe("GB123456789012");
    for (const bad of ["123456789", "GB12345678", "GB1234567890", "GB12345678901", "FR123456789", "GBABCDEFGHI"])
      expect(normalizeTaxId("GB", bad)).toBeNull();
  });

  it("checks US EINs and stores them as NN-NNNNNNN", () => {
    expect(normalizeTaxId("US", "12-3456789")).toBe("12-3456789");
    expect(normalizeTaxId("US", "123456789")).toBe("12-3456789");
    for (const bad of ["1-23456789", "12-345678", "GB123456789", "12_3456789"])
      expect(normalizeTaxId("US", bad)).toBeNull();
  });

  it("accepts a complete US application and normalizes it", () => {
    const parsed = tradeApplicationSchema.parse({ ...valid, taxId: "123456789", line2: "" });
    expect(parsed).toMatchObject({ taxId: "12-3456789", line2: null, region: "TX" });
  });

  it("names each bad field with a message", () => {
    const result = tradeApplicationSchema.safeParse({
      ...valid,
      country: "GB",
      taxId: "12-3456789",
      postcode: "73301",
      phone: "call me",
      companyName: " ",
    });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(byField).toMatchObject({
      companyName: "Company name is required",
      phone: "Enter a phone number, like +44 20 7946 0000",
    });
    // Refinements on the whole object run once the fields themselves are valid.
    const second = tradeApplicationSchema.safeParse({
      ...valid,
      country: "GB",
      taxId: "12-3456789",
      postcode: "73301",
    });
    const messages = Object.fromEntries(second.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({ taxId: TAX_ID_HINTS.GB, postcode: "Enter a valid UK postcode, like SW1A 1AA" });
  });

  it("refuses control characters, oversize fields and a country it doesn't serve", () => {
    expect(tradeApplicationSchema.safeParse({ ...valid, companyName: "Acme\u0000" }).success).toBe(false);
    expect(tradeApplicationSchema.safeParse({ ...valid, companyName: "x".repeat(121) }).success).toBe(false);
    expect(tradeApplicationSchema.safeParse({ ...valid, country: "FR" }).success).toBe(false);
    expect(tradeApplicationSchema.safeParse({ ...valid, taxId: 12 }).success).toBe(false);
  });
});
