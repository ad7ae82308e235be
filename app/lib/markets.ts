import { CURRENCY_NAMES, CURRENCY_SYMBOL, type Currency } from "./money.ts";
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

/** The market of a shopper who has chosen none and of a page whose URL names none. */
export const DEFAULT_MARKET: MarketId = "us";

/** The cookie that remembers the market a shopper chose (server/shopper/market.ts). */
export const MARKET_COOKIE = "market";

/**
 * The URL parameter naming a catalog page's market: `?market=uk` is the UK page, the URL without
 * it the default market's (hreflang alternates, canonical URLs and the sitemap use these).
 */
export const MARKET_PARAM = "market";

/** The market a `market=` cookie names in a Cookie header, or null when it names none. */
export function marketFromCookieHeader(header: string | null | undefined): MarketId | null {
  const match = /(?:^|;\s*)market=([a-z]{2})(?:;|$)/.exec(header ?? "");
  return match && isMarketId(match[1]) ? match[1] : null;
}

/**
 * True when a Cookie header holds a `market` cookie the store doesn't read as exactly one market
 * ("MARKET=uk", "market=UK", "market = uk", two of them …). A shared cache may read such a header
 * its own way (nginx matches cookie names and map values ignoring case), so a page answered to it
 * must not be shared.
 */
export function unclearMarketCookie(header: string | null | undefined): boolean {
  const named = (header ?? "").match(/(?:^|;)\s*market\s*=/gi) ?? [];
  if (named.length === 0) return false;
  return named.length > 1 || marketFromCookieHeader(header) === null;
}

/** The market a URL names with `?market=`, or null when it names none (or an unknown one). */
export function marketFromSearch(search: string | URLSearchParams): MarketId | null {
  const value = (typeof search === "string" ? new URLSearchParams(search) : search).get(MARKET_PARAM);
  return isMarketId(value) ? value : null;
}

/**
 * The market to propose to a first-time visitor: the country a trusted proxy names, else the region
 * of the first language in `Accept-Language` that has one (en-GB → United Kingdom). Null when
 * neither points at a market.
 */
export function proposedMarket(acceptLanguage: string | null | undefined, country?: string | null): MarketId | null {
  if (country) {
    const byCountry = marketForCountry(country);
    if (byCountry) return byCountry.id;
  }
  const languages = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q == null ? 1 : Number(q) };
    })
    .filter((l) => l.tag && l.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of languages) {
    const region = /^[a-z]{2,3}-([a-z]{2})\b/i.exec(tag)?.[1];
    if (!region) continue;
    return marketForCountry(region === "UK" || region === "uk" ? "GB" : region)?.id ?? null;
  }
  return null;
}

/**
 * A catalog page's URL in a market: the default market's has no `market` parameter, another's
 * has `market=<id>`. `pathWithSearch` is the path and query (any `market` in it is replaced).
 */
export function marketPath(pathWithSearch: string, market: MarketId): string {
  const [path, query = ""] = pathWithSearch.split("?", 2);
  const params = new URLSearchParams(query);
  params.delete(MARKET_PARAM);
  if (market !== DEFAULT_MARKET) params.set(MARKET_PARAM, market);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A path and query with `market=<id>` set (whatever the market), e.g. a redirect that keeps the URL's market. */
export function withMarketParam(pathWithSearch: string, market: MarketId): string {
  const [path, query = ""] = pathWithSearch.split("?", 2);
  const params = new URLSearchParams(query);
  params.set(MARKET_PARAM, market);
  return `${path}?${params.toString()}`;
}

/** How the market picker names a market: its name and currency. */
export function marketChoiceLabel(market: Market): string {
  return `${market.name} (${market.currency.toUpperCase()} ${CURRENCY_SYMBOL[market.currency]})`;
}

/** What the cart says of its market: the currency of its prices and where it delivers. */
export function cartMarketText(market: MarketId): string {
  const { name, currency } = MARKETS[market];
  return `Prices in ${CURRENCY_NAMES[currency]} for delivery to the ${name}. Delivering elsewhere? Change market at the top of the page.`;
}
