import { formatMoney } from "../../../lib/money.ts";
import { formatCount } from "../../../lib/numbers.ts";

/** A rule's price as staff read it: "5% off" or "Fixed price $12.50 (list $15.00)". */
export function ruleAmountText(rule: {
  percentOff: number | null;
  fixedCents: number | null;
  listCents?: number | null;
}): string {
  if (rule.fixedCents != null)
    return `Fixed price ${formatMoney(rule.fixedCents)}${rule.listCents != null ? ` (list ${formatMoney(rule.listCents)})` : ""}`;
  return `${rule.percentOff ?? 0}% off`;
}

export const countText = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
