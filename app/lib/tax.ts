/**
 * The one tax calculation (issue 51, decision 0049), for both kinds of market: a UK price includes
 * its VAT, a US price is before sales tax. Amounts are integer minor units (pence, cents); rates
 * are parts per million (20% = 200,000; 7.25% = 72,500; 0.125% = 1,250).
 *
 * Rounding: per tax line, not per item. The amounts that one rate of one jurisdiction applies to
 * are summed and the tax on that sum is rounded half-up once, so an order's tax is what the
 * jurisdiction computes on the invoice total. Each tax line is then shared among its items by
 * largest remainder (so the shares sum exactly to it), and a return reverses an item's share in
 * cumulative steps (`cumulativeShare`), so returning every unit, in any steps, reverses exactly
 * the tax that was charged.
 */

export type PriceMode = "inclusive" | "exclusive";

/** The largest rate accepted: 100%. */
export const MAX_RATE_PPM = 1_000_000;

export interface TaxRate {
  /** Who levies it: "GB" (HMRC), "US-CA" (a state), "US-CA-90001" (the local rates of a ZIP code). */
  jurisdiction: string;
  /** What the buyer reads on the order: "VAT 20%", "California sales tax 6%". */
  label: string;
  ratePpm: number;
}

export interface TaxItem {
  /** The item's name in the result: "line:12", "shipping". */
  key: string;
  /**
   * What the buyer pays for the item after every discount: with its tax in an inclusive market,
   * before tax in an exclusive one.
   */
  amountMinor: number;
  /** The rates that apply to it: exactly one in an inclusive market (a product's VAT rate), any number in an exclusive one. */
  rates: readonly TaxRate[];
}

/** One line of an order's tax, stored with the order and never changed after it is placed. */
interface TaxLine extends TaxRate {
  /** The amount the rate applied to, before tax. */
  taxableMinor: number;
  taxMinor: number;
}

interface ItemTax {
  key: string;
  /** The item's amount before tax. */
  netMinor: number;
  /** Its share of every tax line (what a return of the whole item reverses). */
  taxMinor: number;
}

export interface TaxResult {
  mode: PriceMode;
  lines: TaxLine[];
  items: ItemTax[];
  /** The sum of the tax lines. */
  taxMinor: number;
  /** The sum of the items before tax. */
  netMinor: number;
  /** What the buyer pays: the items as priced, plus the tax in an exclusive market. */
  totalMinor: number;
}

function checkMinor(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${what} must be whole minor units ≥ 0, got ${value}`);
}

function checkRate(rate: TaxRate): void {
  if (!Number.isInteger(rate.ratePpm) || rate.ratePpm < 0 || rate.ratePpm > MAX_RATE_PPM)
    throw new RangeError(`A tax rate must be 0–${MAX_RATE_PPM} parts per million, got ${rate.ratePpm}`);
}

/** numerator ÷ denominator rounded half-up, for numerator ≥ 0 and denominator > 0, exactly. */
function divideHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/**
 * Splits `totalMinor` among `weights` in proportion, by largest remainder: the parts are whole,
 * sum exactly to the total, and each is within one unit of its exact share (ties go to the
 * earlier weight). All weights 0: the total is split evenly the same way.
 */
export function allocate(totalMinor: number, weights: readonly number[]): number[] {
  checkMinor(totalMinor, "An amount to share");
  if (weights.length === 0) {
    if (totalMinor !== 0) throw new RangeError("Nothing to share an amount among");
    return [];
  }
  for (const w of weights) checkMinor(w, "A weight");
  const sum = weights.reduce((s, w) => s + w, 0);
  const effective = sum === 0 ? weights.map(() => 1) : weights;
  const divisor = BigInt(sum === 0 ? weights.length : sum);
  const total = BigInt(totalMinor);
  const parts = effective.map((w) => (total * BigInt(w)) / divisor);
  const remainders = effective.map((w, i) => ({ i, r: (total * BigInt(w)) % divisor }));
  let left = totalMinor - parts.reduce((s, p) => s + Number(p), 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const result = parts.map(Number);
  for (const { i } of remainders) {
    if (left === 0) break;
    result[i] += 1;
    left -= 1;
  }
  return result;
}

/**
 * The part of `totalMinor` that belongs to units `before + 1 … before + count` of `quantity`:
 * cumulative floors, so the parts of any sequence of returns that ends with every unit sum to the
 * whole, and no earlier return takes more than its share.
 */
export function cumulativeShare(totalMinor: number, quantity: number, before: number, count: number): number {
  checkMinor(totalMinor, "An amount");
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`A quantity must be ≥ 1, got ${quantity}`);
  if (
    !Number.isSafeInteger(before) ||
    !Number.isSafeInteger(count) ||
    before < 0 ||
    count < 0 ||
    before + count > quantity
  )
    throw new RangeError(`Units ${before} + ${count} are not within ${quantity}`);
  const upTo = (n: number) => Number((BigInt(totalMinor) * BigInt(n)) / BigInt(quantity));
  return upTo(before + count) - upTo(before);
}

const lineKey = (r: TaxRate) => `${r.jurisdiction}\u0000${r.ratePpm}\u0000${r.label}`;

/** Computes an order's tax lines, each item's share and the totals, in either kind of market. */
export function computeTax(mode: PriceMode, items: readonly TaxItem[]): TaxResult {
  const groups = new Map<string, { rate: TaxRate; members: number[] }>();
  items.forEach((item, index) => {
    checkMinor(item.amountMinor, `The amount of ${item.key}`);
    if (mode === "inclusive" && item.rates.length !== 1)
      throw new RangeError(`In a price-inclusive market ${item.key} needs exactly one rate, got ${item.rates.length}`);
    const seen = new Set<string>();
    for (const rate of item.rates) {
      checkRate(rate);
      const key = lineKey(rate);
      if (seen.has(key)) throw new RangeError(`${item.key} has the rate ${rate.label} twice`);
      seen.add(key);
      const group = groups.get(key) ?? { rate, members: [] };
      group.members.push(index);
      groups.set(key, group);
    }
  });

  const itemTax = items.map(() => 0);
  const lines: TaxLine[] = [];
  for (const { rate, members } of groups.values()) {
    const amounts = members.map((i) => items[i].amountMinor);
    const base = amounts.reduce((s, a) => s + a, 0);
    const ppm = BigInt(rate.ratePpm);
    const taxMinor =
      mode === "inclusive"
        ? divideHalfUp(BigInt(base) * ppm, BigInt(MAX_RATE_PPM) + ppm)
        : divideHalfUp(BigInt(base) * ppm, BigInt(MAX_RATE_PPM));
    allocate(taxMinor, amounts).forEach((share, j) => (itemTax[members[j]] += share));
    lines.push({ ...rate, taxableMinor: mode === "inclusive" ? base - taxMinor : base, taxMinor });
  }

  const resultItems = items.map((item, i) => ({
    key: item.key,
    netMinor: mode === "inclusive" ? item.amountMinor - itemTax[i] : item.amountMinor,
    taxMinor: itemTax[i],
  }));
  const taxMinor = lines.reduce((s, l) => s + l.taxMinor, 0);
  const netMinor = resultItems.reduce((s, i) => s + i.netMinor, 0);
  const priced = items.reduce((s, i) => s + i.amountMinor, 0);
  return {
    mode,
    lines,
    items: resultItems,
    taxMinor,
    netMinor,
    totalMinor: mode === "inclusive" ? priced : priced + taxMinor,
  };
}

/** A rate as people write it: 200000 → "20%", 72500 → "7.25%", 1250 → "0.125%". */
export function formatRate(ratePpm: number): string {
  const whole = Math.floor(ratePpm / 10_000);
  const fraction = String(ratePpm % 10_000)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}

/** A percentage as staff type it ("20", "7.25", "0.125") in parts per million; null when it is not one from 0 to 100. */
export function parseRatePercent(input: string): number | null {
  const text = input.trim().replace(/%$/, "").trim();
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(text)) return null;
  const [whole, fraction = ""] = text.split(".");
  const ppm = Number(whole) * 10_000 + Number(fraction.padEnd(4, "0"));
  return ppm <= MAX_RATE_PPM ? ppm : null;
}
