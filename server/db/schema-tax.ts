import type { Generated } from "kysely";

/** A US state's sales tax as staff keep it (migration 029_us_sales_tax). */
export interface TaxUsStateTable {
  /** The two-letter postal code. */
  code: string;
  name: string;
  /** The state's own rate, in parts per million. */
  rate_ppm: number;
  /** 1 when the state taxes a delivery charge shown on the invoice. */
  shipping_taxable: Generated<number>;
  /** 1 when the store is registered to collect sales tax there (has nexus). */
  collect: Generated<number>;
  version: Generated<number>;
  updated_at: string | null;
}

/** Every local rate of one ZIP code together, as staff imported it. */
export interface TaxUsLocalRateTable {
  zip: string;
  state: string;
  region: string;
  rate_ppm: number;
  imported_at: string;
}

export type CertificateStatus = "pending" | "verified" | "rejected";

/** A trade company's exemption certificate for one US state (migration 030_tax_exemptions). */
export interface TaxExemptionCertificateTable {
  id: Generated<number>;
  organization_id: string;
  state: string;
  /** The certificate's number as the company gave it. */
  number: string;
  /** The last day it applies, YYYY-MM-DD. */
  expires_on: string;
  /** The stored file's name under UPLOAD_DIR/certificates (random; nothing the uploader chose). */
  file_key: string;
  /** Its media type, from its first bytes: application/pdf, image/jpeg, image/png or image/webp. */
  file_type: string;
  status: Generated<CertificateStatus>;
  /** Why staff rejected it (the company is told). */
  reason: string | null;
  uploaded_by: string;
  uploaded_at: string;
  decided_by: string | null;
  decided_at: string | null;
  /** When the company was mailed that it expires within 30 days. */
  reminded_at: string | null;
  version: Generated<number>;
}

/**
 * Why an order holds the tax it does (migration 031): US sales tax collected, UK VAT included in
 * its prices, not registered in the delivery state, or exempt by a verified certificate. Null on
 * orders placed before tax lines were kept.
 */
export type OrderTaxBasis = "collected" | "included" | "not-registered" | "exempt";

/** One tax line of a placed order: one rate of one jurisdiction, as charged. */
export interface OrderTaxLineTable {
  id: Generated<number>;
  order_id: number;
  /** "GB", "US-CA", or "US-CA-90001" for a ZIP code's local rates. */
  jurisdiction: string;
  /** As shown to the buyer: "VAT 20%", "California sales tax 7.25%". */
  label: string;
  rate_ppm: number;
  taxable_cents: number;
  tax_cents: number;
  /** 1 when the tax is inside the prices (UK VAT); 0 when it was added to the total. */
  included: Generated<number>;
}

declare module "./schema.ts" {
  interface Database {
    order_tax_lines: OrderTaxLineTable;
    tax_us_states: TaxUsStateTable;
    tax_us_local_rates: TaxUsLocalRateTable;
    tax_exemption_certificates: TaxExemptionCertificateTable;
  }
}
