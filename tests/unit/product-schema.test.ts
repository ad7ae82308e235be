import { describe, expect, it } from "vitest";
import {
  productEditSchema,
  productSchema,
  productToFields,
  stockAdjustSchema,
  validateWith,
} from "../../app/lib/product-schema.ts";

const valid = {
  sku: " th-9 ",
  title: "Hammer",
  brand: "forgecrest",
  category: "hand",
  colors: "Yellow, Black, Yellow",
  price: "$1,299.5",
  discount_percent: "",
  stock: "4",
  low_stock_threshold: "2",
  description: "Strikes nails.",
  features: "Steel\n\nRubber grip\n",
  model: "H-1",
  material: "Steel",
  weight_grams: "700",
  country_of_origin: "Germany",
  manufacturer: "Forgecrest Ltd",
  return_policy: "14 days.",
};

/** A parsed product as the form's text again. */
const fieldsOf = (p: ReturnType<typeof productSchema.parse>) =>
  productToFields({
    ...p,
    brandSlug: p.brand,
    categorySlug: p.category,
    priceCents: p.price,
    ukPricePence: p.uk_price,
    discountPercent: p.discount_percent,
    lowStockThreshold: p.low_stock_threshold,
    weightGrams: p.weight_grams,
    countryOfOrigin: p.country_of_origin,
    returnPolicy: p.return_policy,
  });

describe("product schema", () => {
  it("turns form text into stored values", () => {
    const p = productSchema.parse(valid);
    expect(p).toMatchObject({
      sku: "TH-9",
      price: 129950,
      discount_percent: null,
      colors: ["Yellow", "Black"],
      features: ["Steel", "Rubber grip"],
      stock: 4,
      weight_grams: 700,
    });
  });

  it("puts one message on each bad field", () => {
    const r = validateWith(productSchema, {
      ...valid,
      sku: "bad sku!",
      price: "0",
      discount_percent: "95",
      stock: "1.5",
      colors: " , ",
      title: "a\nb",
      weight_grams: "",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual([
      "colors",
      "discount_percent",
      "price",
      "sku",
      "stock",
      "title",
      "weight_grams",
    ]);
    expect(r.errors.price).toContain("more than 0");
    expect(r.errors.discount_percent).toContain("between 1 and 90");
  });

  it("refuses wrong types and huge values", () => {
    expect(productSchema.safeParse({ ...valid, price: 12 }).success).toBe(false);
    expect(productSchema.safeParse({ ...valid, stock: "99999999" }).success).toBe(false);
    expect(productSchema.safeParse({ ...valid, title: "x".repeat(201) }).success).toBe(false);
    expect(productSchema.safeParse({ ...valid, price: "10000000000" }).success).toBe(false);
  });

  it("has no stock field when editing (stock moves through the ledger)", () => {
    expect(productEditSchema.parse({ ...valid, stock: "nonsense" })).not.toHaveProperty("stock");
  });

  it("round-trips stored values through the form's text", () => {
    const p = productSchema.parse(valid);
    const text = fieldsOf(p);
    expect(productSchema.parse(text)).toEqual(p);
  });

  it("takes a UK price in pounds, or none (derived by the UK price rule)", () => {
    expect(productSchema.parse(valid).uk_price).toBeNull();
    expect(productSchema.parse({ ...valid, uk_price: "" }).uk_price).toBeNull();
    expect(productSchema.parse({ ...valid, uk_price: "£1,099.5" }).uk_price).toBe(109_950);
    for (const bad of ["0", "-3", "12.345", "£", "ten", "10000000.01"]) {
      const r = validateWith(productSchema, { ...valid, uk_price: bad });
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.errors.uk_price).toContain("UK price must be an amount like 99.99");
    }
    const p = productSchema.parse({ ...valid, uk_price: "79.99" });
    const text = fieldsOf(p);
    expect(text.uk_price).toBe("79.99");
  });

  it("checks a stock adjustment's sign against its reason", () => {
    expect(stockAdjustSchema.parse({ reason: "received", change: "+12" })).toMatchObject({ change: 12, note: "" });
    expect(stockAdjustSchema.safeParse({ reason: "received", change: "-1" }).success).toBe(false);
    expect(stockAdjustSchema.safeParse({ reason: "damaged", change: "3" }).success).toBe(false);
    expect(stockAdjustSchema.safeParse({ reason: "count_correction", change: "0" }).success).toBe(false);
    expect(stockAdjustSchema.safeParse({ reason: "order", change: "1" }).success).toBe(false);
    expect(stockAdjustSchema.parse({ reason: "count_correction", change: "-3", note: " recount " })).toMatchObject({
      change: -3,
      note: "recount",
    });
  });
});
