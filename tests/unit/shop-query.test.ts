import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  cleanQueryText,
  hasFilters,
  parseShopQuery,
  priceRangeErrors,
  shopHref,
  withoutFilters,
} from "../../app/lib/shop-query.ts";
import { MAX_QUERY_LENGTH } from "../../app/lib/search-limits.ts";
import { queryTerms } from "../../server/catalog/search-text.ts";

const parse = (qs: string) => parseShopQuery(new URLSearchParams(qs));

describe("parseShopQuery", () => {
  it("defaults to the first page sorted by newest", () => {
    const q = parse("");
    expect(q).toMatchObject({ q: "", categories: [], brands: [], page: 1, sort: "newest", priceErrors: [] });
  });
  it("reads repeated category and brand filters and drops malformed slugs", () => {
    const q = parse("category=hand&category=power-tools&category=%3Cscript%3E&brand=ironclad");
    expect(q.categories).toEqual(["hand", "power-tools"]);
    expect(q.brands).toEqual(["ironclad"]);
  });
  it("validates prices: no negatives, min not above max", () => {
    expect(parse("min=-5").priceErrors).toEqual(["Min price can't be negative."]);
    expect(parse("max=abc").priceErrors).toEqual(["Max price must be a number."]);
    const swapped = parse("min=50&max=10");
    expect(swapped.priceErrors).toEqual(["Min price can't be more than Max price."]);
    expect(swapped.minCents).toBeUndefined();
    expect(parse("min=10&max=50")).toMatchObject({ minCents: 1000, maxCents: 5000, priceErrors: [] });
  });
  it("clamps pages and ignores unknown sorts", () => {
    expect(parse("page=-3").page).toBe(1);
    expect(parse("page=abc").page).toBe(1);
    expect(parse("sort=DROP TABLE").sort).toBe("newest");
    expect(parse("q=drill").sort).toBe("relevance");
  });
  it("caps the query length and strips control characters", () => {
    const q = parse(`q=${"a".repeat(5000)}`);
    expect(q.q.length).toBe(200);
    expect(parse("q=a%00b%E2%80%8Fc").q).toBe("a b c");
  });
  it("removes bidi marks, zero-width characters and broken UTF-16, and collapses spaces", () => {
    expect(parse("q=%E2%80%AEdrill%E2%80%AC%20%20%E2%80%8Bsaw%EF%BB%BF").q).toBe("drill saw");
    expect(parseShopQuery(new URLSearchParams([["q", "a\ud800b"]])).q).toBe("a\ufffdb");
    expect(parse("q=%20%20%20").q).toBe("");
  });
  it("cleans search text with the one rule the server's search uses too, capped at the search box's limit", () => {
    expect(MAX_QUERY_LENGTH).toBe(200);
    expect(cleanQueryText(null)).toBe("");
    expect(cleanQueryText(undefined)).toBe("");
    expect(cleanQueryText(` ${"b".repeat(199)}  ccc`)).toBe("b".repeat(199));
    expect(cleanQueryText("a\u0000b\u202ec\ud800")).toBe("a b c\ufffd");
    const long = `drill ${"x".repeat(300)}`;
    expect(parse(`q=${encodeURIComponent(long)}`).q).toBe(cleanQueryText(long));
    expect(queryTerms(`${"the ".repeat(50)}saw`)).toEqual([]);
    expect(queryTerms(`${"the ".repeat(49)}saw`)).toEqual(["saw"]);
  });
  it("sorts by relevance only when there are words", () => {
    expect(parse("sort=relevance").sort).toBe("newest");
    expect(parse("q=saw&sort=relevance").sort).toBe("relevance");
    expect(parse("q=saw&sort=name").sort).toBe("name");
  });
  it("keeps repeated filters unique and bounded", () => {
    const q = parse(`${"category=hand&".repeat(3)}${Array.from({ length: 30 }, (_, i) => `brand=b${i}`).join("&")}`);
    expect(q.categories).toEqual(["hand"]);
    expect(q.brands).toHaveLength(20);
  });
  it("round-trips through shopHref", () => {
    const q = parse("q=saw&category=hand&brand=x&min=1&max=2&inStock=1&onSale=1&sort=price-asc&page=3");
    expect(parseShopQuery(new URL(shopHref(q), "http://x").searchParams)).toEqual(q);
  });
  it("builds links that change one part of the state", () => {
    const q = parse("q=saw&category=hand&min=5&page=4");
    expect(shopHref(q, { page: 1 })).toBe("/shop?q=saw&category=hand&min=5");
    expect(shopHref(q, { q: "hammer", page: 1 })).toBe("/shop?q=hammer&category=hand&min=5");
    expect(shopHref(withoutFilters(q))).toBe("/shop?q=saw");
    expect(shopHref(parse(""))).toBe("/shop");
    expect(shopHref(parse("sort=price-desc&inStock=1&onSale=1"))).toBe("/shop?inStock=1&onSale=1&sort=price-desc");
  });
  it("knows when filters are active", () => {
    expect(hasFilters(parse("q=saw&sort=name&page=2"))).toBe(false);
    for (const qs of ["category=hand", "brand=x", "min=1", "max=2", "inStock=1", "onSale=1"])
      expect(hasFilters(parse(qs))).toBe(true);
  });
  it("checks a price range with the server's messages", () => {
    expect(priceRangeErrors("", "")).toEqual({});
    expect(priceRangeErrors("10", "50")).toEqual({});
    expect(priceRangeErrors("-1", "")).toEqual({ min: "Min price can't be negative." });
    expect(priceRangeErrors("", "-0.5")).toEqual({ max: "Max price can't be negative." });
    expect(priceRangeErrors("abc", "")).toEqual({ min: "Min price must be a number." });
    expect(priceRangeErrors("60", "50")).toEqual({ range: "Min price can't be more than Max price." });
    expect(priceRangeErrors("50", "50")).toEqual({});
  });
  it("agrees with the server on which price ranges are valid", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 8 }), fc.float().map(String), fc.nat(100000).map(String)),
        fc.oneof(fc.string({ maxLength: 8 }), fc.nat(100000).map(String)),
        (min, max) => {
          const client = priceRangeErrors(min, max);
          const server = parseShopQuery(new URLSearchParams({ min, max })).priceErrors;
          expect(Object.values(client).sort()).toEqual([...server].sort());
        },
      ),
    );
  });
  it("round-trips any state through shopHref", () => {
    fc.assert(
      fc.property(
        fc.record({
          q: fc.string({ maxLength: 30 }),
          category: fc.array(fc.constantFrom("hand", "power-tools", "gardening"), { maxLength: 3 }),
          brand: fc.array(fc.constantFrom("forgecrest", "tidewell"), { maxLength: 2 }),
          min: fc.constantFrom("", "5", "10.5"),
          max: fc.constantFrom("", "50", "99.99"),
          inStock: fc.boolean(),
          onSale: fc.boolean(),
          sort: fc.constantFrom("relevance", "price-asc", "price-desc", "newest", "discount", "name"),
          page: fc.integer({ min: 1, max: 50 }),
        }),
        (r) => {
          const params = new URLSearchParams();
          params.set("q", r.q);
          r.category.forEach((c) => params.append("category", c));
          r.brand.forEach((b) => params.append("brand", b));
          params.set("min", r.min);
          params.set("max", r.max);
          if (r.inStock) params.set("inStock", "1");
          if (r.onSale) params.set("onSale", "1");
          params.set("sort", r.sort);
          params.set("page", String(r.page));
          const q = parseShopQuery(params);
          expect(parseShopQuery(new URL(shopHref(q), "http://x").searchParams)).toEqual(q);
        },
      ),
    );
  });
  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (k, v) => {
        parseShopQuery(
          new URLSearchParams([
            [k, v],
            ["q", v],
            ["min", v],
            ["page", v],
          ]),
        );
        return true;
      }),
    );
  });
});
