/**
 * Reading a product's prices in a market (issue 51): the US market's are `price_cents` and
 * `sale_price_cents`, the UK market's `uk_price_pence` and `uk_sale_price_pence` (migration 033).
 * Queries select a market's columns under the US names, so everything that reads them (cards,
 * the product page, cart lines, the order) works in the market's minor units unchanged.
 */
import { sql } from "kysely";
import type { MarketId } from "../../app/lib/markets.ts";

const COLUMNS = {
  us: { list: "price_cents", sale: "sale_price_cents" },
  uk: { list: "uk_price_pence", sale: "uk_sale_price_pence" },
} as const satisfies Record<MarketId, { list: string; sale: string }>;

/** The market's price of one unit today (after the product's discount), as `sale_price_cents`. */
export function marketSalePrice(market: MarketId, table = "p") {
  return sql<number>`${sql.ref(`${table}.${COLUMNS[market].sale}`)}`.as("sale_price_cents");
}

/** The market's price before the product's discount, as `price_cents`. */
export function marketListPrice(market: MarketId, table = "p") {
  return sql<number>`${sql.ref(`${table}.${COLUMNS[market].list}`)}`.as("price_cents");
}

/** The market's sale-price column of search_products' products, for the shop's price filter and sort. */
export function marketSaleColumn(market: MarketId): string {
  return COLUMNS[market].sale;
}

/** A whole product row (`selectAll`) with the market's prices in the US columns' places. */
export function rowInMarket<
  T extends { price_cents: number; sale_price_cents: number; uk_price_pence: number; uk_sale_price_pence: number },
>(row: T, market: MarketId): T {
  if (market === "us") return row;
  return { ...row, price_cents: Number(row.uk_price_pence), sale_price_cents: Number(row.uk_sale_price_pence) };
}

/** A row's sale price in a market, from a row that read both markets' sale prices. */
export function salePriceIn(row: { sale_price_cents: number; uk_sale_price_pence: number }, market: MarketId): number {
  return market === "uk" ? Number(row.uk_sale_price_pence) : row.sale_price_cents;
}
