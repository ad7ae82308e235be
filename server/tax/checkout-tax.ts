import { MARKETS } from "../../app/lib/markets.ts";
import type { ShippingCountry } from "../../app/lib/order-rules.ts";
import type { VatClass } from "../../app/lib/product-tax.ts";
import { stateOfZip } from "../../app/lib/us-states.ts";
import type { Transaction } from "kysely";
import { compiledStatement } from "../db/compiled-once.ts";
import type { Db } from "../db/connection.ts";
import type { Database, OrderTaxBasis } from "../db/schema.ts";
import { InvalidError } from "../errors.ts";
import { verifiedCertificates } from "./certificates.ts";
import { taxNote } from "./order-tax-view.ts";
import { orderTax, usTaxBasis, type UsTaxTables } from "./order-tax.ts";
import { readUsTaxTables } from "./us-tax-settings.ts";

/** An order's tax as the checkout places it: added to the total (US) or inside the prices (UK). */
export interface CheckoutTax {
  basis: OrderTaxBasis;
  /** The state whose rules applied (US only). */
  state: string | null;
  certificateId: number | null;
  /** What is added to the total: US sales tax; 0 where tax is inside the prices. */
  addedCents: number;
  lines: { jurisdiction: string; label: string; ratePpm: number; taxableCents: number; taxCents: number }[];
  /** One sentence for the order's summary when no sales tax is charged, else null. */
  note: string | null;
}

export interface CheckoutTaxInput {
  country: ShippingCountry;
  postcode: string;
  /** The buyer's trade company, whose verified certificates may exempt the order. */
  organizationId: string | null;
  /** Each line's price for all its units (after volume and trade prices) and its product's VAT rate class. */
  lines: readonly { amountCents: number; vatClass: VatClass }[];
  discountCents: number;
  shippingCents: number;
  /** The store's date, YYYY-MM-DD: a certificate applies through its last day. */
  today: string;
  /**
   * The US tables for this address, when the caller read them already (the checkout reads them
   * before its transaction, so the order's locks are held no longer for them).
   */
  usTables?: UsTaxTables;
}

/** The US tables for a checkout's address (null outside the US, or for a ZIP code in no state). */
export async function usTablesFor(
  db: Db,
  country: ShippingCountry,
  postcode: string,
): Promise<UsTaxTables | undefined> {
  const state = country === "US" ? stateOfZip(postcode) : null;
  return state ? readUsTaxTables(db, postcode, state) : undefined;
}

/**
 * The tax of an order at its delivery address, by the same rules as everything else (orderTax,
 * usTaxBasis): UK VAT inside the prices at each product's rate; US sales tax by the ZIP code's
 * state (where the store collects, unless a verified certificate of the buyer's company for that
 * state is valid today), its local rates, and delivery where the state taxes it.
 */
export async function checkoutTax(db: Db, input: CheckoutTaxInput): Promise<CheckoutTax> {
  const lines = input.lines.map((l, i) => ({ key: `line:${i}`, amountMinor: l.amountCents, vatClass: l.vatClass }));
  if (input.country === "GB") {
    const tax = orderTax(MARKETS.uk, { lines, discountMinor: input.discountCents, shippingMinor: input.shippingCents });
    return {
      basis: "included",
      state: null,
      certificateId: null,
      addedCents: 0,
      lines: linesOf(tax.lines),
      note: null,
    };
  }
  const state = stateOfZip(input.postcode);
  if (!state)
    throw new InvalidError("ZIP_NOT_IN_A_STATE", "Enter a ZIP code of one of the 50 states or Washington, DC.");
  const [tables, certificates] = await Promise.all([
    input.usTables ?? readUsTaxTables(db, input.postcode, state),
    input.organizationId ? verifiedCertificates(db, input.organizationId, input.today) : [],
  ]);
  const basis = usTaxBasis({ state, zip: input.postcode }, tables, certificates, input.today);
  const tax = orderTax(MARKETS.us, {
    lines,
    discountMinor: input.discountCents,
    shippingMinor: input.shippingCents,
    us: basis,
  });
  const certificateId = basis.kind === "exempt" ? basis.certificateId : null;
  return {
    basis: basis.kind,
    state,
    certificateId,
    addedCents: tax.taxMinor,
    lines: linesOf(tax.lines),
    note: taxNote(basis.kind, state),
  };
}

function linesOf(lines: ReturnType<typeof orderTax>["lines"]): CheckoutTax["lines"] {
  return lines.map((l) => ({
    jurisdiction: l.jurisdiction,
    label: l.label,
    ratePpm: l.ratePpm,
    taxableCents: l.taxableMinor,
    taxCents: l.taxMinor,
  }));
}

/** One tax line's insert, compiled once per database (most orders have one line: a single rate). */
const insertTaxLine = /* @__PURE__ */ compiledStatement((db: Db) =>
  db.insertInto("order_tax_lines").values({
    order_id: 0,
    jurisdiction: "",
    label: "",
    rate_ppm: 0,
    taxable_cents: 0,
    tax_cents: 0,
    included: 0,
  }),
);

/** Stores a placed order's tax lines with it (in the order's transaction). */
export async function insertOrderTaxLines(
  trx: Transaction<Database>,
  orderId: number,
  tax: CheckoutTax,
): Promise<void> {
  const included = tax.basis === "included" ? 1 : 0;
  for (const l of tax.lines)
    await insertTaxLine(trx, [orderId, l.jurisdiction, l.label, l.ratePpm, l.taxableCents, l.taxCents, included]);
}
