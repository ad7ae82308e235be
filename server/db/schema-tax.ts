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

declare module "./schema.ts" {
  interface Database {
    tax_us_states: TaxUsStateTable;
    tax_us_local_rates: TaxUsLocalRateTable;
    tax_exemption_certificates: TaxExemptionCertificateTable;
  }
}
