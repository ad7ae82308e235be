/**
 * The seed of the US sales-tax table (issue 51): each state's base rate in parts per million and
 * whether it taxes a delivery charge stated on the invoice. States with no sales tax have a 0
 * rate. Staff keep the table current in the back office; local rates come by ZIP code from a CSV.
 * The figures are the state rates of January 2025 (local rates not included).
 */
import { US_STATE_NAMES, type UsStateCode } from "../../app/lib/us-states.ts";

export interface UsStateSeed {
  code: string;
  name: string;
  ratePpm: number;
  shippingTaxable: boolean;
}

const S = (code: UsStateCode, percent: number, shippingTaxable: boolean): UsStateSeed => ({
  code,
  name: US_STATE_NAMES[code],
  ratePpm: Math.round(percent * 10_000),
  shippingTaxable,
});

export const US_STATES: readonly UsStateSeed[] = [
  S("AL", 4, false),
  S("AK", 0, false),
  S("AZ", 5.6, false),
  S("AR", 6.5, true),
  S("CA", 7.25, false),
  S("CO", 2.9, false),
  S("CT", 6.35, true),
  S("DE", 0, false),
  S("DC", 6, true),
  S("FL", 6, false),
  S("GA", 4, true),
  S("HI", 4, true),
  S("ID", 6, false),
  S("IL", 6.25, false),
  S("IN", 7, true),
  S("IA", 6, false),
  S("KS", 6.5, true),
  S("KY", 6, true),
  S("LA", 5, false),
  S("ME", 5.5, false),
  S("MD", 6, false),
  S("MA", 6.25, false),
  S("MI", 6, true),
  S("MN", 6.875, true),
  S("MS", 7, true),
  S("MO", 4.225, false),
  S("MT", 0, false),
  S("NE", 5.5, true),
  S("NV", 6.85, false),
  S("NH", 0, false),
  S("NJ", 6.625, true),
  S("NM", 4.875, true),
  S("NY", 4, true),
  S("NC", 4.75, true),
  S("ND", 5, true),
  S("OH", 5.75, true),
  S("OK", 4.5, false),
  S("OR", 0, false),
  S("PA", 6, true),
  S("RI", 7, true),
  S("SC", 6, true),
  S("SD", 4.2, true),
  S("TN", 7, true),
  S("TX", 6.25, true),
  S("UT", 6.1, false),
  S("VT", 6, true),
  S("VA", 5.3, false),
  S("WA", 6.5, true),
  S("WV", 6, true),
  S("WI", 5, true),
  S("WY", 4, false),
];
