import type { Currency } from "./money.ts";
import type { PriceMode } from "./tax.ts";

/**
 * The store's markets (issue 51, decision 0049): the countries a market sells to, the currency its
 * prices, carts, orders and card payments are in, whether its prices include tax, and how its
 * dates and units are written.
 */
export type MarketId = "uk" | "us";

export interface Market {
  id: MarketId;
  name: string;
  /** ISO 3166-1 alpha-2 codes of the countries it delivers to. */
  countries: readonly string[];
  /** ISO 4217, lower case as Stripe writes it. */
  currency: Currency;
  priceMode: PriceMode;
  locale: "en-GB" | "en-US";
  /** A signed-in member's order above this subtotal (in the market's minor units) gets the member discount. */
  memberDiscountThresholdMinor: number;
}

export const MARKETS: Readonly<Record<MarketId, Market>> = {
  uk: {
    id: "uk",
    name: "United Kingdom",
    countries: ["GB"],
    currency: "gbp",
    priceMode: "inclusive",
    locale: "en-GB",
    memberDiscountThresholdMinor: 10_000,
  },
  us: {
    id: "us",
    name: "United States",
    countries: ["US"],
    currency: "usd",
    priceMode: "exclusive",
    locale: "en-US",
    memberDiscountThresholdMinor: 12_000,
  },
};

export function isMarketId(value: unknown): value is MarketId {
  return typeof value === "string" && Object.hasOwn(MARKETS, value);
}

/** The market that delivers to a country, or null when none does. */
export function marketForCountry(country: string): Market | null {
  const code = country.trim().toUpperCase();
  return Object.values(MARKETS).find((m) => m.countries.includes(code)) ?? null;
}

/** The market whose prices are in this currency (each currency is one market's). */
export function marketOfCurrency(currency: Currency): Market {
  return Object.values(MARKETS).find((m) => m.currency === currency)!;
}
