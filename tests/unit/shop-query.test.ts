import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseShopQuery, shopHref } from "../../app/lib/shop-query.ts";

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
  it("round-trips through shopHref", () => {
    const q = parse("q=saw&category=hand&brand=x&min=1&max=2&inStock=1&onSale=1&sort=price-asc&page=3");
    expect(parseShopQuery(new URL(shopHref(q), "http://x").searchParams)).toEqual(q);
  });
  it("never throws on arbitrary input", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (k, v) => {
      parseShopQuery(new URLSearchParams([[k, v], ["q", v], ["min", v], ["page", v]]));
      return true;
    }));
  });
});
