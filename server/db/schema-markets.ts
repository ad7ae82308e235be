import type { Generated } from "kysely";
import type { Currency } from "../../app/lib/money.ts";
import type { MarketId } from "../../app/lib/markets.ts";

/** How one market's prices are derived from another's (migration 033_market_prices). */
export interface MarketPriceRuleTable {
  market: MarketId;
  source_market: MarketId;
  /** Target minor units per source minor unit, in millionths (app/lib/price-derivation.ts). */
  rate_micros: number;
  /** The minor units every derived price ends in (99 → .99), or null to keep the converted amount. */
  ending: number | null;
  version: Generated<number>;
  updated_at: string | null;
}

/** A signed-in shopper's chosen market (migration 035_shopper_markets), keyed like the cart. */
export interface ShopperMarketTable {
  owner: string;
  market: MarketId;
  updated_at: string;
}

declare module "./schema.ts" {
  interface OrderTable {
    /** The currency the order's amounts are in (migration 033): its market's. */
    currency: Generated<Currency>;
  }
  interface Database {
    market_price_rules: MarketPriceRuleTable;
    shopper_markets: ShopperMarketTable;
  }
}
