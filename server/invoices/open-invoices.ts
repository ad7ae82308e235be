/**
 * Net-30 invoices still to be paid: a company's own (its account page) and every company's
 * overdue ones (the back office dashboard).
 */
import type { Db } from "../db/connection.ts";
import { NET30_METHOD } from "./credit.ts";

const DAY_MS = 86_400_000;

export interface OpenInvoice {
  number: string;
  orderNumber: string;
  totalCents: number;
  issuedAt: string;
  dueAt: string;
  /** Whole days past the due date; 0 when not yet due. */
  daysOverdue: number;
  /** Who placed the order (null once their account is deleted). */
  buyerUserId: string | null;
}

function openInvoices(db: Db) {
  return db
    .selectFrom("invoices as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .where("i.status", "=", "unpaid")
    .where("o.payment_method", "=", NET30_METHOD)
    .where("i.due_at", "is not", null);
}

const daysOverdue = (dueAt: string, now: Date) =>
  Math.max(0, Math.floor((now.getTime() - new Date(dueAt).getTime()) / DAY_MS));

/** The company's unpaid net-30 invoices, the earliest due first (at most 200). */
export async function companyOpenInvoices(db: Db, organizationId: string, now = new Date()): Promise<OpenInvoice[]> {
  const rows = await openInvoices(db)
    .select(["i.number", "o.number as order_number", "o.user_id", "i.total_cents", "i.issued_at", "i.due_at"])
    .where("i.organization_id", "=", organizationId)
    .orderBy("i.due_at")
    .orderBy("i.id")
    .limit(200)
    .execute();
  return rows.map((r) => ({
    number: r.number,
    orderNumber: r.order_number,
    totalCents: Number(r.total_cents),
    issuedAt: r.issued_at,
    dueAt: r.due_at!,
    daysOverdue: daysOverdue(r.due_at!, now),
    buyerUserId: r.user_id,
  }));
}

/** Every company's invoices past their due date: how many, how much, and the oldest few. */
export async function overdueInvoices(db: Db, now = new Date(), first = 10) {
  const overdue = openInvoices(db).where("i.due_at", "<", now.toISOString());
  const [totals, rows] = await Promise.all([
    overdue
      .select((eb) => [
        eb.fn.countAll<number>().as("count"),
        eb.fn.coalesce(eb.fn.sum<number>("i.total_cents"), eb.lit(0)).as("cents"),
      ])
      .executeTakeFirstOrThrow(),
    overdue
      .leftJoin("companies as c", "c.organization_id", "i.organization_id")
      .select([
        "i.number",
        "o.number as order_number",
        "i.total_cents",
        "i.issued_at",
        "i.due_at",
        "c.name as company_name",
      ])
      .orderBy("i.due_at")
      .orderBy("i.id")
      .limit(first)
      .execute(),
  ]);
  return {
    count: Number(totals.count),
    totalCents: Number(totals.cents),
    first: rows.map((r) => ({
      number: r.number,
      orderNumber: r.order_number,
      companyName: r.company_name ?? "—",
      totalCents: Number(r.total_cents),
      issuedAt: r.issued_at,
      dueAt: r.due_at!,
      daysOverdue: daysOverdue(r.due_at!, now),
    })),
  };
}
