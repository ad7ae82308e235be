import { createContext } from "react-router";
import { DEFAULT_MARKET, type MarketId } from "./markets.ts";

export interface PageMarket {
  /** The market this page shows prices in (its URL's, else the shopper's). */
  market: MarketId;
  /** The shopper's own market (their cart's), which the picker shows. */
  shopper: MarketId;
  /** A trade buyer's page: always the US market, which the picker then only names. */
  trade: boolean;
}

/** Set for every request by the root's middleware (root.tsx); loaders read it. */
export const pageMarketContext = createContext<PageMarket>({
  market: DEFAULT_MARKET,
  shopper: DEFAULT_MARKET,
  trade: false,
});
