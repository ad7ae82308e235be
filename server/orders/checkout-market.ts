/**
 * Which market an order is in, and which addresses a shopper's checkout delivers to (issue 51,
 * decision 0052). A cart is priced in its shopper's market, so the checkout delivers to that
 * market's country; trade buyers and accepted quotes buy in US dollars and deliver to either.
 */
import { MARKETS, marketForCountry, type MarketId } from "../../app/lib/markets.ts";
import { CURRENCY_NAMES } from "../../app/lib/money.ts";
import { COUNTRIES, type ShippingCountry } from "../../app/lib/order-rules.ts";

export interface CheckoutBuyer {
  market: MarketId;
  /** A trade buyer (their company's terms are in US dollars). */
  trade: boolean;
  /** Accepting a quote (its prices are in US dollars). */
  quote: boolean;
}

/**
 * The market an order is in: the one that delivers to its address, except that a trade buyer's
 * order and an accepted quote are in US dollars (their price lists, limits, credit and quoted
 * prices are), delivered to either country as before.
 */
export function orderMarket(country: ShippingCountry, options: { trade: boolean; quote: boolean }): MarketId {
  if (options.trade || options.quote) return "us";
  return marketForCountry(country)?.id ?? "us";
}

/** The market the checkout prices in: the US market for trade and quotes, else the shopper's. */
export function buyingMarket(buyer: CheckoutBuyer): MarketId {
  return buyer.trade || buyer.quote ? "us" : buyer.market;
}

/** The countries this checkout delivers to: the shopper's market's, or both for trade and quotes. */
export function checkoutCountries(buyer: CheckoutBuyer): ShippingCountry[] {
  return COUNTRIES.map((c) => c.code).filter((code) => orderMarket(code, buyer) === buyingMarket(buyer));
}

/** Why the checkout can't deliver to this country from the shopper's market, or null when it can. */
export function deliveryMarketProblem(country: ShippingCountry, buyer: CheckoutBuyer): string | null {
  if (checkoutCountries(buyer).includes(country)) return null;
  const shopping = MARKETS[buyer.market];
  const delivering = marketForCountry(country) ?? MARKETS.us;
  return `Your cart is priced in ${CURRENCY_NAMES[shopping.currency]} for the ${shopping.name}. To deliver to the ${delivering.name}, change market at the top of the page: your cart will be repriced in ${CURRENCY_NAMES[delivering.currency]}.`;
}
