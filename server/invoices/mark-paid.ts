/**
 * Staff record that a net-30 invoice was paid (a bank transfer arrived): the invoice and the
 * order's payment become paid, the company's credit is free again, and an audit row says who.
 * Two staff marking it at once: the invoice's status decides, exactly one wins.
 */
import { formatMoney } from "../../app/lib/money.ts";
import { writeAudit } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import { ConflictError } from "../errors.ts";
import { recordOrderEvent } from "../orders/history.ts";
import { loadOrder, staffActorRef, type StaffActor } from "../orders/staff-order.ts";
import { changePaymentStatus } from "../orders/states.ts";
import { NET30_METHOD } from "./credit.ts";

export async function markInvoicePaid(
  db: Db,
  staff: StaffActor,
  number: unknown,
  now = new Date(),
): Promise<{ number: string; message: string }> {
  const order = await loadOrder(db, number);
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom("orders as o")
        .leftJoin("invoices as i", "i.order_id", "o.id")
        .select([
          "o.payment_method",
          "o.payment_status",
          "o.version",
          "i.id as invoice_id",
          "i.number as invoice_number",
          "i.status as invoice_status",
          "i.total_cents",
        ])
        .where("o.id", "=", order.id)
        .executeTakeFirstOrThrow();
      if (row.payment_method !== NET30_METHOD || row.invoice_id == null)
        throw new ConflictError(
          "NO_NET30_INVOICE",
          "This order isn't invoiced on net-30 terms, so there is no invoice to mark paid.",
        );
      const updated = await trx
        .updateTable("invoices")
        .set({ status: "paid", paid_at: now.toISOString() })
        .where("id", "=", row.invoice_id)
        .where("status", "=", "unpaid")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) {
        throw new ConflictError(
          "INVOICE_NOT_OPEN",
          row.invoice_status === "void"
            ? `Invoice ${row.invoice_number} is void: the order was cancelled.`
            : `Invoice ${row.invoice_number} is already marked paid.`,
        );
      }
      await changePaymentStatus(trx, { id: order.id, payment_status: row.payment_status }, "paid", {
        paid_cents: row.total_cents,
        updated_at: now.toISOString(),
        version: Number(row.version) + 1,
      });
      const actor = staffActorRef(staff);
      await recordOrderEvent(trx, {
        orderId: order.id,
        actor,
        kind: "payment",
        from: null,
        to: null,
        details: { by: staff.name, reason: `Invoice ${row.invoice_number} paid: ${formatMoney(row.total_cents!)}` },
        now,
      });
      await writeAudit(
        trx,
        staff,
        {
          action: "invoice.mark-paid",
          objectType: "invoice",
          objectId: row.invoice_number!,
          before: { status: "unpaid", order: order.number },
          after: { status: "paid", order: order.number, totalCents: row.total_cents },
        },
        now,
      );
      return {
        number: order.number,
        message: `Invoice ${row.invoice_number} is marked paid (${formatMoney(row.total_cents!)}).`,
      };
    }),
  );
}
