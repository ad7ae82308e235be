import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cartMarketText,
  isMarketId,
  marketChoiceLabel,
  MARKETS,
  marketForCountry,
  marketFromCookieHeader,
  marketFromSearch,
  marketPath,
  proposedMarket,
  unclearMarketCookie,
  withMarketParam,
} from "../../app/lib/markets.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { stateOfRegion, stateOfZip, US_STATE_NAMES } from "../../app/lib/us-states.ts";
import {
  derivationRuleProblem,
  derivedPriceMinor,
  endingValue,
  formatRate,
  parseDerivationRule,
  parseRate,
} from "../../app/lib/price-derivation.ts";

describe("markets", () => {
  it("sells to the UK in pounds with VAT in the price, and to the US in dollars before tax", () => {
    expect(MARKETS.uk).toMatchObject({
      currency: "gbp",
      priceMode: "inclusive",
      locale: "en-GB",
      memberDiscountThresholdMinor: 10_000,
    });
    expect(MARKETS.us).toMatchObject({
      currency: "usd",
      priceMode: "exclusive",
      locale: "en-US",
      memberDiscountThresholdMinor: 12_000,
    });
    expect(marketForCountry("gb")?.id).toBe("uk");
    expect(marketForCountry(" US ")?.id).toBe("us");
    expect(marketForCountry("FR")).toBeNull();
    expect(isMarketId("uk")).toBe(true);
    expect(isMarketId("toString")).toBe(false);
    expect(isMarketId(null)).toBe(false);
  });

  it("writes money in the market's currency", () => {
    expect(formatMoney(123_456, "gbp")).toBe("£1,234.56");
    expect(formatMoney(-5, "gbp")).toBe("-£0.05");
    expect(formatMoney(123_456, "usd")).toBe("$1,234.56");
    expect(formatMoney(123_456)).toBe("$1,234.56");
  });
});

describe("which market a shopper is in", () => {
  it("offers the market of the first language with a region, or of the trusted country header, never a guess", () => {
    expect(proposedMarket("en-GB,en;q=0.9")).toBe("uk");
    expect(proposedMarket("en-US,en;q=0.9")).toBe("us");
    expect(proposedMarket("en;q=0.9, en-GB;q=0.8")).toBe("uk");
    expect(proposedMarket("fr-FR, en-GB;q=0.5")).toBeNull();
    expect(proposedMarket("de-DE;q=0.2, en-gb;q=0.7")).toBe("uk");
    expect(proposedMarket("en-UK")).toBe("uk");
    expect(proposedMarket("en")).toBeNull();
    expect(proposedMarket("")).toBeNull();
    expect(proposedMarket(null)).toBeNull();
    expect(proposedMarket("en-GB;q=0")).toBeNull();
    expect(proposedMarket("en-US", "GB")).toBe("uk");
    expect(proposedMarket("en-GB", "FR")).toBe("uk");
    expect(proposedMarket("en-GB", "us")).toBe("us");
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.option(fc.string({ maxLength: 8 })), (header, country) => {
        const offer = proposedMarket(header, country);
        expect(offer === null || isMarketId(offer)).toBe(true);
      }),
    );
  });

  it("reads the market cookie and the URL's market parameter, and nothing else", () => {
    expect(marketFromCookieHeader("guest=abc; market=uk; other=1")).toBe("uk");
    expect(marketFromCookieHeader("market=us")).toBe("us");
    expect(marketFromCookieHeader("market=fr")).toBeNull();
    expect(marketFromCookieHeader("supermarket=uk")).toBeNull();
    expect(marketFromCookieHeader("market=ukx")).toBeNull();
    expect(marketFromCookieHeader(null)).toBeNull();
    expect(marketFromSearch("?q=drill&market=uk")).toBe("uk");
    expect(marketFromSearch(new URLSearchParams("market=UK"))).toBeNull();
    expect(marketFromSearch("?market=__proto__")).toBeNull();
    // A market cookie read another way by a shared cache (names and values ignoring case, spaces):
    // the page answered to it must not be shared.
    for (const unclear of [
      "MARKET=uk",
      "market=UK",
      "market = uk",
      "a=1; Market=uk",
      "market=uk; market=us",
      "market=fr",
    ])
      expect(unclearMarketCookie(unclear), unclear).toBe(true);
    for (const clear of ["market=uk", "guest=x; market=us", "", "supermarket=uk", "marketing=1"])
      expect(unclearMarketCookie(clear), clear).toBe(false);
  });

  it("writes each market's URL of a page: the default market's without a parameter", () => {
    expect(marketPath("/shop/12", "uk")).toBe("/shop/12?market=uk");
    expect(marketPath("/shop/12?market=uk", "us")).toBe("/shop/12");
    expect(marketPath("/shop?page=2", "uk")).toBe("/shop?page=2&market=uk");
    expect(marketPath("/", "us")).toBe("/");
    expect(withMarketParam("/shop?q=saw", "us")).toBe("/shop?q=saw&market=us");
    expect(marketChoiceLabel(MARKETS.uk)).toBe("United Kingdom (GBP £)");
    expect(marketChoiceLabel(MARKETS.us)).toBe("United States (USD $)");
    expect(cartMarketText("uk")).toMatch(/^Prices in pounds sterling \(GBP\) for delivery to the United Kingdom\./);
  });
});

describe("derived prices", () => {
  const rule = { rateMicros: 790_000, ending: 99 };
  it("converts, then raises to the ending staff chose", () => {
    expect(derivedPriceMinor(10_000, { rateMicros: 790_000, ending: null })).toBe(7_900);
    expect(derivedPriceMinor(10_000, rule)).toBe(7_999);
    expect(derivedPriceMinor(12_700, rule)).toBe(10_099); // 100.33 → 100.99
    expect(derivedPriceMinor(12_652, rule)).toBe(9_999); // 99.9508 → 99.95 → 99.99
    expect(derivedPriceMinor(12_658, { rateMicros: 790_000, ending: 95 })).toBe(10_095); // 100.00 → 100.95
    expect(derivedPriceMinor(12_600, { rateMicros: 790_000, ending: 0 })).toBe(10_000); // 99.54 → 100.00
    expect(derivedPriceMinor(0, rule)).toBe(0);
    expect(derivedPriceMinor(1, { rateMicros: 500_000, ending: null })).toBe(1); // 0.5 → 1, half-up
  });

  it("never below the converted amount, less than one unit above it, never lower for a higher source", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.option(fc.integer({ min: 0, max: 99 })),
        (source, more, rateMicros, ending) => {
          const r = { rateMicros, ending };
          const price = derivedPriceMinor(source, r);
          const converted = derivedPriceMinor(source, { rateMicros, ending: null });
          expect(price).toBeGreaterThanOrEqual(converted);
          expect(price - converted).toBeLessThan(100);
          if (ending !== null) expect(price % 100).toBe(ending);
          expect(derivedPriceMinor(source + more, r)).toBeGreaterThanOrEqual(price);
        },
      ),
    );
  });

  it("checks the rule and parses rates as staff type them", () => {
    expect(derivationRuleProblem({ rateMicros: 0, ending: 99 })).toMatch(/rate/);
    expect(derivationRuleProblem({ rateMicros: 790_000, ending: 100 })).toMatch(/ending/);
    expect(derivationRuleProblem(rule)).toBeNull();
    expect(() => derivedPriceMinor(-1, rule)).toThrow(RangeError);
    expect(parseRate("0.79")).toBe(790_000);
    expect(parseRate(" 1.2665 ")).toBe(1_266_500);
    for (const bad of ["", "0", "-1", "abc", "0.1234567", "101", "1e3"]) expect(parseRate(bad)).toBeNull();
  });

  it("reads the rule's form and writes a rate back as staff typed it", () => {
    expect(parseDerivationRule({ rate: "0.8", ending: "95" })).toEqual({ rule: { rateMicros: 800_000, ending: 95 } });
    expect(parseDerivationRule({ rate: "1.2665", ending: "none" })).toEqual({
      rule: { rateMicros: 1_266_500, ending: null },
    });
    expect(parseDerivationRule({ rate: "0.79", ending: "0" })).toEqual({ rule: { rateMicros: 790_000, ending: 0 } });
    expect(parseDerivationRule({ rate: "zero", ending: "99" })).toEqual({
      problem: "Enter a rate above 0 and at most 100, like 0.79",
      field: "rate",
    });
    for (const ending of ["", "98", "1.5", "abc"])
      expect(parseDerivationRule({ rate: "0.79", ending })).toEqual({
        problem: "Choose a price ending.",
        field: "ending",
      });
    for (const rate of ["0.79", "1.2665", "1", "100", "0.000001"]) expect(formatRate(parseRate(rate)!)).toBe(rate);
    expect(endingValue(null)).toBe("none");
    expect(endingValue(99)).toBe("99");
  });
});

describe("US states by ZIP code", () => {
  it("places a ZIP code in its state by its first three digits, and nothing else", () => {
    const cases: [string, string | null][] = [
      ["10001", "NY"],
      ["00501", "NY"],
      ["02134", "MA"],
      ["05501", "MA"],
      ["20500", "DC"],
      ["20149", "VA"],
      ["73301", "TX"],
      ["73102", "OK"],
      ["88510", "TX"],
      ["90001-1234", "CA"],
      ["96813", "HI"],
      ["99501", "AK"],
      ["97403", "OR"],
      ["00901", null],
      ["09001", null],
      ["34001", null],
      ["96201", null],
      ["1000", null],
      ["ABCDE", null],
    ];
    for (const [zip, state] of cases) expect(stateOfZip(zip), zip).toBe(state);
    expect(new Set(Object.keys(US_STATE_NAMES)).size).toBe(51);
  });

  it("reads a typed state by its code or name, in any case, and nothing else", () => {
    expect([stateOfRegion("ca"), stateOfRegion(" California "), stateOfRegion("DISTRICT OF COLUMBIA")]).toEqual([
      "CA",
      "CA",
      "DC",
    ]);
    expect([stateOfRegion("Los Angeles"), stateOfRegion(""), stateOfRegion("C")]).toEqual([null, null, null]);
  });
});
