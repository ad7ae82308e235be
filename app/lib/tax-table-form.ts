/**
 * A US state's row of the tax table as the back office's form shows it, as one string for a
 * hidden field ("72500:0:1"): a row sent back as shown was not touched (server/tax/us-tax-settings.ts).
 */
export function shownState(s: { ratePpm: number; shippingTaxable: boolean; collect: boolean }): string {
  return `${s.ratePpm}:${s.shippingTaxable ? 1 : 0}:${s.collect ? 1 : 0}`;
}
