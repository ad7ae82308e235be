import type { ExpressionBuilder } from "kysely";
import type { Currency } from "../../app/lib/money.ts";
import type { Database } from "../db/schema.ts";

/**
 * An order's column where the order is in `currency`, else null: what a count or sum per currency
 * reads, so one GROUP BY (a day, an account) gives every currency's figure beside the others and
 * pounds are never added to dollars.
 */
export function inCurrency(
  eb: ExpressionBuilder<Database, "orders">,
  currency: Currency,
  column: "id" | "total_cents",
) {
  return eb.case().when("currency", "=", currency).then(eb.ref(column)).end();
}
