import { formatCount } from "./numbers.ts";

/** The currencies the store sells in (ISO 4217, lower case as Stripe writes them; app/lib/markets.ts). */
export type Currency = "gbp" | "usd";
/** In the order the back office lists them: the US market's first, as most orders are. */
export const CURRENCIES: readonly Currency[] = ["usd", "gbp"];
/** A currency's name in words: "Amount in pounds sterling". */
export const CURRENCY_WORDS: Readonly<Record<Currency, string>> = { usd: "US dollars", gbp: "pounds sterling" };
/** A currency's name as a sentence, a list or an invoice writes it: "pounds sterling (GBP)". */
export const CURRENCY_NAMES: Readonly<Record<Currency, string>> = {
  usd: `${CURRENCY_WORDS.usd} (USD)`,
  gbp: `${CURRENCY_WORDS.gbp} (GBP)`,
};

/** The sign written before an amount. */
export const CURRENCY_SYMBOL: Readonly<Record<Currency, string>> = { gbp: "£", usd: "$" };

/**
 * Formats integer minor units (cents, pence) with two decimals, e.g. 123456 → "$1,234.56" or
 * "£1,234.56", and -5 → "-$0.05", as Intl's "en-US" and "en-GB" currency formats do
 * (app/lib/numbers.ts says why not Intl itself).
 */
export function formatMoney(cents: number, currency: Currency = "usd"): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Money must be integer cents, got ${cents}`);
  const abs = Math.abs(cents);
  const amount = `${CURRENCY_SYMBOL[currency]}${formatCount(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
  return cents < 0 ? `-${amount}` : amount;
}

/**
 * Amounts in several currencies, never added together: each non-zero one in CURRENCIES' order,
 * joined by "and" ("$35.00 and £19.99"); "$0.00" when all are zero.
 */
export function formatPerCurrency(amounts: Readonly<Record<Currency, number>>): string {
  const shown = CURRENCIES.filter((c) => amounts[c] !== 0);
  return shown.length ? shown.map((c) => formatMoney(amounts[c], c)).join(" and ") : formatMoney(0);
}

/** Cents as a plain decimal string for machine-readable output (JSON-LD, feeds): 12000 → "120.00". */
export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Parses a user-typed dollar amount ("12", "12.5", "12.50") into cents; null when it is not one. */
export function parseDollarsToCents(input: string): number | null {
  const trimmed = input.trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole, fraction = ""] = trimmed.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}
