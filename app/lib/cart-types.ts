import type { PriceSource, TradeRule, VolumeBreak } from "./pricing.ts";

export interface CartLine {
  productId: number;
  color: string;
  title: string;
  imageUrl: string;
  quantity: number;
  /** The unit price this shopper pays for this quantity (list, volume break or trade price), from the server. */
  unitPriceCents: number;
  /** Everyone's price for one unit (after any sale discount). */
  listPriceCents: number;
  priceSource: PriceSource;
  /** The product's volume breaks and the buyer's trade rule: the browser reprices a changed quantity with the same rule. */
  volumeBreaks: VolumeBreak[];
  trade: TradeRule | null;
  /** What the unit price was when the shopper added the line. */
  seenPriceCents: number;
  stockQuantity: number;
  lineTotalCents: number;
  /** Why the line needs the shopper's attention, if it does. */
  notice: string | null;
}

export interface CartView {
  lines: CartLine[];
  totalQuantity: number;
  totalCents: number;
}

export interface WishlistLine {
  productId: number;
  title: string;
  imageUrl: string;
  color: string;
  stockQuantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
}
