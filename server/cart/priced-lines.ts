/**
 * Lines priced for one buyer, the way the cart prices them: each product's volume breaks and the
 * buyer's company price list, read from the database, through the one price rule
 * (app/lib/pricing.ts). The cart and the saved lists show their lines this way.
 */
import { priceLines, tradeRuleFor, type TradeRule, type UnitPrice, type VolumeBreak } from "../../app/lib/pricing.ts";
import type { Db } from "../db/connection.ts";
import type { MarketId } from "../../app/lib/markets.ts";
import { marketSalePrice } from "../catalog/market-columns.ts";
import { buyerPriceRules, volumeBreaksFor } from "../trade/prices.ts";

/** A line as read with its product: what pricing needs of it. */
export interface BuyerLineRow {
  product_id: number;
  category_id: number;
  quantity: number;
  sale_price_cents: number;
}

/**
 * What a cart, quote or order line reads of its product (as `p`): to price it (a price list rule
 * may go by category), to check it is still sold and in stock, and its tax rules. Its price is
 * the market's, as `sale_price_cents`.
 */
export function lineProductColumns(market: MarketId) {
  return [
    "p.title",
    marketSalePrice(market),
    "p.archived_at",
    "p.category_id",
    "p.stock_quantity",
    "p.vat_class",
    "p.prop65",
  ] as const;
}

export interface PricedLine<T extends BuyerLineRow> {
  row: T;
  unit: UnitPrice;
  volumeBreaks: VolumeBreak[] | undefined;
  trade: TradeRule | null;
}

/** Prices the rows for the buyer (`userId`; null for a guest), in the rows' order. */
export async function priceLinesForBuyer<T extends BuyerLineRow>(
  db: Db,
  userId: string | null,
  rows: readonly T[],
): Promise<PricedLine<T>[]> {
  if (rows.length === 0) return [];
  const [breaks, rules] = await Promise.all([
    volumeBreaksFor(
      db,
      rows.map((r) => r.product_id),
    ),
    buyerPriceRules(db, userId),
  ]);
  return priceLines(
    rows.map((row) => ({
      row,
      productId: row.product_id,
      quantity: row.quantity,
      listCents: row.sale_price_cents,
      volumeBreaks: breaks.get(row.product_id),
      trade: tradeRuleFor(rules, row.product_id, row.category_id),
    })),
  ).map(({ row, unit, volumeBreaks, trade }) => ({ row, unit, volumeBreaks, trade: trade ?? null }));
}
