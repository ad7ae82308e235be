import { formatCount } from "./numbers.ts";
import { DEFAULT_MARKET, MARKETS, type MarketId } from "./markets.ts";

/**
 * Signed-in members get this percent off an order whose subtotal is over their market's threshold
 * (app/lib/markets.ts: $120 in the US, £100 in the UK).
 */
export const MEMBER_DISCOUNT_PERCENT = 5;
/** Every US order ships free; UK deliveries pay this flat rate, in the order's currency (£9.99, or $9.99 on a US-dollar trade order). */
export const UK_FLAT_SHIPPING_CENTS = 999;
/** The most units of one cart line (one product in one color) a single order may hold. */
export const MAX_LINE_QUANTITY = 100;
/** The most units, all lines together, a single order may hold. */
export const MAX_ORDER_QUANTITY = 1_000;
/** How long a guest has to confirm an order from the email before its stock goes back on sale. */
export const DEFAULT_GUEST_ORDER_HOLD_MINUTES = 60;

export const QUANTITY_LIMIT_MESSAGES = {
  line: `You can order at most ${MAX_LINE_QUANTITY} of one item in a single order.`,
  order: `A single order can hold at most ${formatCount(MAX_ORDER_QUANTITY)} units in all.`,
} as const;

/** Which cap a cart breaks, if any: a line above MAX_LINE_QUANTITY or a total above MAX_ORDER_QUANTITY. */
export function quantityLimitProblem(quantities: readonly number[]): "line" | "order" | null {
  if (quantities.some((q) => q > MAX_LINE_QUANTITY)) return "line";
  return quantities.reduce((sum, q) => sum + q, 0) > MAX_ORDER_QUANTITY ? "order" : null;
}

export type ShippingCountry = "US" | "GB";
export const COUNTRIES: { code: ShippingCountry; name: string }[] = [
  { code: "US", name: "United States" },
  { code: "GB", name: "United Kingdom" },
];

export interface PricedLine {
  unitPriceCents: number;
  quantity: number;
}

export interface OrderSummary {
  subtotalCents: number;
  memberDiscountCents: number;
  shippingCents: number;
  /** Prices include tax (the product page's "Tax included"), so nothing is added for it. */
  taxCents: number;
  totalCents: number;
}

/** An order's tax lines as stored (or as the checkout will charge them), and why there are none. */
export interface SummaryTax {
  lines: readonly { label: string; taxCents: number; included: boolean }[];
  /** Why a US order carries no sales tax, or how it will be worked out; null when there's nothing to say. */
  note: string | null;
}

export function shippingCents(country: ShippingCountry | null): number {
  return country === "GB" ? UK_FLAT_SHIPPING_CENTS : 0;
}

/** Rounds half-up: a 5% discount on $120.01 is $6.0005 → $6.00. */
function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/** The member discount on a subtotal in a market's minor units: 5% above the market's threshold. */
export function memberDiscountCents(
  subtotalCents: number,
  isMember: boolean,
  market: MarketId = DEFAULT_MARKET,
): number {
  return isMember && subtotalCents > MARKETS[market].memberDiscountThresholdMinor
    ? percentOf(subtotalCents, MEMBER_DISCOUNT_PERCENT)
    : 0;
}

/** An order's amounts before tax, in the minor units of its market's currency. */
export function summarizeOrder(
  lines: PricedLine[],
  options: { isMember: boolean; country: ShippingCountry | null; market?: MarketId },
): OrderSummary {
  const subtotalCents = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  const discount = memberDiscountCents(subtotalCents, options.isMember, options.market);
  const shipping = lines.length ? shippingCents(options.country) : 0;
  return {
    subtotalCents,
    memberDiscountCents: discount,
    shippingCents: shipping,
    taxCents: 0,
    totalCents: subtotalCents - discount + shipping,
  };
}

/** A whole number of units from 1 to 999,999, whatever the caps; anything else is null. */
export function parseWholeQuantity(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,6}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 ? n : null;
}

/** A cart quantity: a whole number from 1 up to `max` (and never above MAX_LINE_QUANTITY). Anything else is null. */
export function parseQuantity(value: unknown, max = MAX_LINE_QUANTITY): number | null {
  const n = parseWholeQuantity(value);
  return n != null && n <= Math.min(max, MAX_LINE_QUANTITY) ? n : null;
}

/** A row id from a form or a URL: a whole number from 1 to 2,147,483,647; anything else is null. */
export function parseRowId(value: unknown): number | null {
  const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
  // Ids are 32-bit integers in PostgreSQL: a larger one matches nothing (and must not reach the query).
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

const US_ZIP = /^\d{5}(-\d{4})?$/;
// UK postcodes (including GIR 0AA and BFPO-free forms), case-insensitive, optional space.
const UK_POSTCODE =
  /^(GIR ?0AA|[A-PR-UWYZ]([0-9]{1,2}|[A-HK-Y][0-9]{1,2}|[0-9][A-HJKPS-UW]|[A-HK-Y][0-9][ABEHMNPRVWXY]) ?[0-9][ABD-HJLNP-UW-Z]{2})$/i;

export function isValidPostcode(country: ShippingCountry, postcode: string): boolean {
  return (country === "US" ? US_ZIP : UK_POSTCODE).test(postcode.trim());
}

/** What is wrong with `postcode` for `country`, or null when it is a valid one. */
export function postcodeProblem(country: ShippingCountry, postcode: string): string | null {
  if (isValidPostcode(country, postcode)) return null;
  return country === "US"
    ? "Enter a valid US ZIP code, like 10001 or 10001-1234"
    : "Enter a valid UK postcode, like SW1A 1AA";
}

export const PAYMENT_METHODS = [
  { id: "card", label: "Card, Apple Pay or Google Pay" },
  { id: "pay-on-delivery", label: "Pay on delivery" },
  { id: "invoice-net30", label: "Invoice (business accounts, net 30)" },
] as const;
export type PaymentMethodId = (typeof PAYMENT_METHODS)[number]["id"];
