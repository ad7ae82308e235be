/**
 * A market's price derived from another market's (issue 51): the source price times a rate that
 * staff set, then brought to the price ending staff chose. The result is stored with the product
 * when staff save the rule or the source price, never computed while a page is served.
 */
export interface DerivationRule {
  /** Target minor units per source minor unit, in millionths: 790,000 turns $10.00 into £7.90. */
  rateMicros: number;
  /**
   * The minor units every derived price ends in (99 → £x.99, 95 → £x.95, 0 → whole pounds);
   * null keeps the converted amount, rounded half-up to the minor unit.
   */
  ending: number | null;
}

const MAX_RATE_MICROS = 100_000_000;

/** What is wrong with a rule, or null when it can be used. */
export function derivationRuleProblem(rule: DerivationRule): string | null {
  if (!Number.isInteger(rule.rateMicros) || rule.rateMicros <= 0 || rule.rateMicros > MAX_RATE_MICROS)
    return "Enter a rate above 0 and at most 100, like 0.79";
  if (rule.ending !== null && (!Number.isInteger(rule.ending) || rule.ending < 0 || rule.ending > 99))
    return "Enter a price ending from .00 to .99, like .99";
  return null;
}

/**
 * The derived price: the converted amount rounded half-up to the minor unit, then, with an ending,
 * raised to the nearest amount at or above it that has that ending. A free product stays free.
 * Never lower for a higher source price.
 */
export function derivedPriceMinor(sourceMinor: number, rule: DerivationRule): number {
  if (!Number.isSafeInteger(sourceMinor) || sourceMinor < 0) throw new RangeError(`Invalid price: ${sourceMinor}`);
  const problem = derivationRuleProblem(rule);
  if (problem) throw new RangeError(problem);
  if (sourceMinor === 0) return 0;
  const converted = Number((2n * BigInt(sourceMinor) * BigInt(rule.rateMicros) + 1_000_000n) / 2_000_000n);
  if (rule.ending === null) return converted;
  const base = Math.floor(converted / 100) * 100 + rule.ending;
  return base >= converted ? base : base + 100;
}

/** A rate as staff type it ("0.79", "1.2665") in millionths; null when it is not a number above 0 and at most 100. */
export function parseRate(input: string): number | null {
  const text = input.trim();
  if (!/^\d{1,3}(\.\d{1,6})?$/.test(text)) return null;
  const [whole, fraction = ""] = text.split(".");
  const micros = Number(whole) * 1_000_000 + Number(fraction.padEnd(6, "0"));
  return micros > 0 && micros <= MAX_RATE_MICROS ? micros : null;
}

/** The UK price rule a new store starts with: $1.00 → £0.79, every price ending in .99. */
export const DEFAULT_UK_PRICE_RULE: DerivationRule = { rateMicros: 790_000, ending: 99 };

/** A rate in millionths as staff read and type it: 790,000 → "0.79". */
export function formatRate(micros: number): string {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** The price endings staff choose from, as the form sends them ("none" keeps the converted amount). */
export const PRICE_ENDING_OPTIONS = [
  { value: "99", label: ".99" },
  { value: "95", label: ".95" },
  { value: "0", label: ".00 (whole amounts)" },
  { value: "none", label: "None (the converted amount, to the penny)" },
] as const;

/** The form's value for an ending. */
export function endingValue(ending: number | null): string {
  return ending === null ? "none" : String(ending);
}

/** A rule from the form's text, or what is wrong with it and in which field. */
export function parseDerivationRule(input: {
  rate: string;
  ending: string;
}): { rule: DerivationRule } | { problem: string; field: "rate" | "ending" } {
  const rateMicros = parseRate(input.rate);
  if (rateMicros === null) return { problem: "Enter a rate above 0 and at most 100, like 0.79", field: "rate" };
  const option = PRICE_ENDING_OPTIONS.find((o) => o.value === input.ending.trim());
  if (!option) return { problem: "Choose a price ending.", field: "ending" };
  return { rule: { rateMicros, ending: option.value === "none" ? null : Number(option.value) } };
}
