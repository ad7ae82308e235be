/** The trade application form's labels (no zod here: the browser bundle imports this). */
export const TRADE_FIELD_LABELS = {
  companyName: "Company name",
  country: "Country",
  taxId: "VAT number or EIN",
  line1: "Address line 1",
  line2: "Address line 2 (optional)",
  city: "Town or city",
  region: "County or state (optional)",
  postcode: "ZIP or postcode",
  phone: "Phone",
} as const;

export type TradeField = keyof typeof TRADE_FIELD_LABELS;
export const TRADE_FIELDS = Object.keys(TRADE_FIELD_LABELS) as TradeField[];
