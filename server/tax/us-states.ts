/**
 * The seed of the US sales-tax table (issue 51): each state's base rate in parts per million and
 * whether it taxes a delivery charge stated on the invoice. States with no sales tax have a 0
 * rate. Staff keep the table current in the back office; local rates come by ZIP code from a CSV.
 * The figures are the state rates of January 2025 (local rates not included).
 */
export interface UsStateSeed {
  code: string;
  name: string;
  ratePpm: number;
  shippingTaxable: boolean;
}

const S = (code: string, name: string, percent: number, shippingTaxable: boolean): UsStateSeed => ({
  code,
  name,
  ratePpm: Math.round(percent * 10_000),
  shippingTaxable,
});

export const US_STATES: readonly UsStateSeed[] = [
  S("AL", "Alabama", 4, false),
  S("AK", "Alaska", 0, false),
  S("AZ", "Arizona", 5.6, false),
  S("AR", "Arkansas", 6.5, true),
  S("CA", "California", 7.25, false),
  S("CO", "Colorado", 2.9, false),
  S("CT", "Connecticut", 6.35, true),
  S("DE", "Delaware", 0, false),
  S("DC", "District of Columbia", 6, true),
  S("FL", "Florida", 6, false),
  S("GA", "Georgia", 4, true),
  S("HI", "Hawaii", 4, true),
  S("ID", "Idaho", 6, false),
  S("IL", "Illinois", 6.25, false),
  S("IN", "Indiana", 7, true),
  S("IA", "Iowa", 6, false),
  S("KS", "Kansas", 6.5, true),
  S("KY", "Kentucky", 6, true),
  S("LA", "Louisiana", 5, false),
  S("ME", "Maine", 5.5, false),
  S("MD", "Maryland", 6, false),
  S("MA", "Massachusetts", 6.25, false),
  S("MI", "Michigan", 6, true),
  S("MN", "Minnesota", 6.875, true),
  S("MS", "Mississippi", 7, true),
  S("MO", "Missouri", 4.225, false),
  S("MT", "Montana", 0, false),
  S("NE", "Nebraska", 5.5, true),
  S("NV", "Nevada", 6.85, false),
  S("NH", "New Hampshire", 0, false),
  S("NJ", "New Jersey", 6.625, true),
  S("NM", "New Mexico", 4.875, true),
  S("NY", "New York", 4, true),
  S("NC", "North Carolina", 4.75, true),
  S("ND", "North Dakota", 5, true),
  S("OH", "Ohio", 5.75, true),
  S("OK", "Oklahoma", 4.5, false),
  S("OR", "Oregon", 0, false),
  S("PA", "Pennsylvania", 6, true),
  S("RI", "Rhode Island", 7, true),
  S("SC", "South Carolina", 6, true),
  S("SD", "South Dakota", 4.2, true),
  S("TN", "Tennessee", 7, true),
  S("TX", "Texas", 6.25, true),
  S("UT", "Utah", 6.1, false),
  S("VT", "Vermont", 6, true),
  S("VA", "Virginia", 5.3, false),
  S("WA", "Washington", 6.5, true),
  S("WV", "West Virginia", 6, true),
  S("WI", "Wisconsin", 5, true),
  S("WY", "Wyoming", 4, false),
];
