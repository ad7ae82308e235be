import { sql, type Expression, type SqlBool } from "kysely";
import type { Db } from "../db/connection.ts";

/**
 * Orders whose card payment was flagged for staff (server/payments/settle.ts) and not yet dealt
 * with: not cancelled, and money still held (not fully refunded). The dashboard counts them and
 * the order list filters on them (`?attention=payment`). `table` is how the query names orders.
 */
export function needsPaymentAttention(table: "orders" | "o"): Expression<SqlBool> {
  const t = sql.table(table);
  return sql<SqlBool>`(${t}.payment_flag is not null and ${t}.status <> 'cancelled' and ${t}.refunded_cents < coalesce(${t}.paid_cents, 1))`;
}

export async function countPaymentsNeedingAttention(db: Db): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(needsPaymentAttention("orders"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
