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

declare module "./schema.ts" {
  interface Database {
    tax_us_states: TaxUsStateTable;
    tax_us_local_rates: TaxUsLocalRateTable;
  }
}
