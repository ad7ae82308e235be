/**
 * The spec's discounted price: price − price × percent / 100, in integer cents,
 * rounded half-up to the cent. Every screen and the server use this one function.
 */
export function discountedPriceCents(priceCents: number, discountPercent: number | null | undefined): number {
  if (!Number.isInteger(priceCents) || priceCents < 0) throw new RangeError(`Invalid price in cents: ${priceCents}`);
  if (discountPercent == null || discountPercent === 0) return priceCents;
  if (!Number.isFinite(discountPercent) || discountPercent < 0 || discountPercent > 100) {
    throw new RangeError(`Invalid discount percent: ${discountPercent}`);
  }
  // Work in hundredths of a cent to keep the half-up rounding exact for whole percents.
  const reductionTimes100 = priceCents * discountPercent;
  const saleTimes100 = priceCents * 100 - reductionTimes100;
  return Math.floor((saleTimes100 + 50) / 100);
}

export function isDiscounted(discountPercent: number | null | undefined): discountPercent is number {
  return discountPercent != null && discountPercent > 0;
}

/** A volume break: from `minQuantity` units of one product, `percentOff` its price (for everyone). */
export interface VolumeBreak {
  minQuantity: number;
  percentOff: number;
}

/** A trade price list's rule for one product: a percent off its price, or a fixed unit price. */
export type TradeRule = { percentOff: number; fixedCents?: never } | { fixedCents: number; percentOff?: never };

/** A price list's rules: per product (most specific), per category, then for everything else. */
export interface PriceListRules {
  products?: ReadonlyMap<number, TradeRule>;
  categories?: ReadonlyMap<number, TradeRule>;
  everything?: TradeRule | null;
}

export interface PriceQuery {
  /** What everyone pays for one unit today (the product's sale price), in cents. */
  listCents: number;
  quantity: number;
  volumeBreaks?: readonly VolumeBreak[];
  /** The buyer's company price-list rule for this product, if any. */
  trade?: TradeRule | null;
}

export type PriceSource = "list" | "volume" | "trade";

export interface UnitPrice {
  unitCents: number;
  /** Which rule gave the price (the list price when nothing beat it). */
  source: PriceSource;
  /** The percent off list this is (rounded down to a whole percent), 0 at list. */
  percentOff: number;
}

/** The deepest break reached at `quantity` (the highest percent among breaks at or below it). */
export function volumePercentAt(breaks: readonly VolumeBreak[] | undefined, quantity: number): number {
  let best = 0;
  for (const b of breaks ?? []) if (quantity >= b.minQuantity && b.percentOff > best) best = b.percentOff;
  return Math.min(best, 100);
}

/** The rule of a price list that applies to one product: its own, else its category's, else the list's default. */
export function tradeRuleFor(
  rules: PriceListRules | null | undefined,
  productId: number,
  categoryId: number,
): TradeRule | null {
  if (!rules) return null;
  return rules.products?.get(productId) ?? rules.categories?.get(categoryId) ?? rules.everything ?? null;
}

function tradeUnitCents(listCents: number, rule: TradeRule): number {
  if (rule.fixedCents != null) return Math.max(0, Math.min(listCents, Math.round(rule.fixedCents)));
  return discountedPriceCents(listCents, Math.min(Math.max(rule.percentOff ?? 0, 0), 100));
}

/**
 * The one price rule: the unit price of a product for a quantity and a buyer. The list price,
 * the volume break reached at this quantity (everyone) and the buyer's trade price (a company's
 * price list) are compared and the lowest wins. Never below zero, never above list, and never
 * higher for a larger quantity. Member discount and shipping apply to the order afterwards
 * (order-rules.ts; decision 0013).
 */
export function unitPrice(query: PriceQuery): UnitPrice {
  const listCents = query.listCents;
  if (!Number.isInteger(listCents) || listCents < 0) throw new RangeError(`Invalid price in cents: ${listCents}`);
  let best: UnitPrice = { unitCents: listCents, source: "list", percentOff: 0 };
  const consider = (unitCents: number, source: PriceSource) => {
    if (unitCents < best.unitCents)
      best = { unitCents, source, percentOff: listCents ? Math.floor(((listCents - unitCents) * 100) / listCents) : 0 };
  };
  const volume = volumePercentAt(query.volumeBreaks, query.quantity);
  if (volume > 0) consider(discountedPriceCents(listCents, volume), "volume");
  if (query.trade) consider(tradeUnitCents(listCents, query.trade), "trade");
  return best;
}

/** A trade buyer's price for one unit of a product, where their price list beats its list price; null otherwise. */
export function buyerUnitCents(
  rules: PriceListRules | null | undefined,
  product: { id: number; salePriceCents: number; categoryId?: number },
): number | null {
  if (!rules) return null;
  const unit = unitPrice({
    listCents: product.salePriceCents,
    quantity: 1,
    volumeBreaks: [],
    trade: tradeRuleFor(rules, product.id, product.categoryId ?? 0),
  });
  return unit.source === "trade" ? unit.unitCents : null;
}

export interface VolumeBreakRow {
  from: number;
  /** The last quantity of this row; null for the open-ended last row. */
  to: number | null;
  percentOff: number;
  unitCents: number;
}

/** The product page's small table: 1–9 at list, 10–49 at −5%, 50+ at −10%. Empty without breaks. */
export function volumeBreakRows(listCents: number, breaks: readonly VolumeBreak[] | undefined): VolumeBreakRow[] {
  const steps = [...(breaks ?? [])]
    .filter((b) => b.minQuantity > 1 && b.percentOff > 0)
    .sort((a, b) => a.minQuantity - b.minQuantity);
  if (steps.length === 0) return [];
  const starts = [1, ...steps.map((s) => s.minQuantity)];
  return starts.map((from, i) => {
    const percentOff = volumePercentAt(steps, from);
    return {
      from,
      to: i + 1 < starts.length ? starts[i + 1] - 1 : null,
      percentOff,
      unitCents: discountedPriceCents(listCents, percentOff),
    };
  });
}

/** What a cart line needs to be priced: its product, quantity, list price and that product's rules. */
export interface PricingLine {
  productId: number;
  quantity: number;
  listCents: number;
  volumeBreaks?: readonly VolumeBreak[];
  trade?: TradeRule | null;
}

/**
 * Prices every line of a cart or order. A volume break counts all units of one product in the
 * cart, whatever their colors (10 red + 10 blue reach the 20+ break).
 */
export function priceLines<T extends PricingLine>(lines: readonly T[]): (T & { unit: UnitPrice })[] {
  const units = new Map<number, number>();
  for (const l of lines) units.set(l.productId, (units.get(l.productId) ?? 0) + l.quantity);
  return lines.map((l) => ({
    ...l,
    unit: unitPrice({
      listCents: l.listCents,
      quantity: units.get(l.productId) ?? l.quantity,
      volumeBreaks: l.volumeBreaks,
      trade: l.trade,
    }),
  }));
}
