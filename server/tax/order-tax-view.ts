import type { SummaryTax } from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import type { OrderTaxBasis } from "../db/schema.ts";
import { usStateName } from "../../app/lib/us-states.ts";

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

/** Why a US order carries no sales tax, in the words its summary and invoice use. */
export function taxNote(basis: OrderTaxBasis, state: string | null): string | null {
  const name = usStateName(state ?? "");
  if (basis === "not-registered") return `No sales tax: we don't collect it for deliveries to ${name}.`;
  if (basis === "exempt") return `No sales tax: exempt by your company's verified certificate for ${name}.`;
  return null;
}
