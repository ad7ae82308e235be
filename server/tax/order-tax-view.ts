import type { SummaryTax } from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import type { OrderTaxBasis } from "../db/schema.ts";
import { taxNote } from "./checkout-tax.ts";

/** An order's tax as its pages and invoice show it: the tax lines stored with it when it was placed (none before tax lines were kept). */
export async function orderTaxView(
  db: Db,
  order: { id: number; tax_basis: OrderTaxBasis | null; tax_state: string | null },
): Promise<SummaryTax> {
  const rows = await db
    .selectFrom("order_tax_lines")
    .select(["label", "tax_cents", "included"])
    .where("order_id", "=", order.id)
    .orderBy("id")
    .execute();
  return {
    lines: rows.map((r) => ({ label: r.label, taxCents: Number(r.tax_cents), included: Number(r.included) === 1 })),
    note: order.tax_basis ? taxNote(order.tax_basis, order.tax_state) : null,
  };
}
