import { MARKETS } from "../../app/lib/markets.ts";
import type { Db } from "../db/connection.ts";
import { orderTax, usTaxBasis, type UsTaxBasis } from "./order-tax.ts";
import { readUsTaxTables } from "./us-tax-settings.ts";

/** The sample order the back office's address check prices: goods and a delivery charge, in cents. */
const SAMPLE_ORDER = { goodsCents: 10_000, shippingCents: 1_000 } as const;

export interface AddressCheck {
  state: string;
  zip: string;
  basis: UsTaxBasis;
  /** The sample order's tax lines and total at that address. */
  lines: { label: string; taxableCents: number; taxCents: number }[];
  taxCents: number;
  totalCents: number;
}

/**
 * What the US sales-tax table charges at one delivery address, shown to staff on a sample order
 * (the same rules an order follows: usTaxBasis and orderTax). Null for a state or ZIP code the
 * table can't place.
 */
export async function checkUsAddress(db: Db, state: string, zip: string, today: string): Promise<AddressCheck | null> {
  const code = state.trim().toUpperCase();
  const zip5 = zip.trim();
  if (!/^[A-Z]{2}$/.test(code) || !/^\d{5}(-\d{4})?$/.test(zip5)) return null;
  const tables = await readUsTaxTables(db, zip5);
  if (!tables.states.has(code)) return null;
  const basis = usTaxBasis({ state: code, zip: zip5 }, tables, [], today);
  const tax = orderTax(MARKETS.us, {
    lines: [{ key: "goods", amountMinor: SAMPLE_ORDER.goodsCents, vatClass: "standard" }],
    discountMinor: 0,
    shippingMinor: SAMPLE_ORDER.shippingCents,
    us: basis,
  });
  return {
    state: code,
    zip: zip5,
    basis,
    lines: tax.lines.map((l) => ({ label: l.label, taxableCents: l.taxableMinor, taxCents: l.taxMinor })),
    taxCents: tax.taxMinor,
    totalCents: tax.totalMinor,
  };
}
