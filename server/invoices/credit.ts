/**
 * Net-30 on account: an approved company with net-30 terms orders against a credit limit. Its
 * unpaid net-30 invoices plus the new order may not go above the limit; the check runs inside the
 * order's transaction with the company's row locked (PostgreSQL) or the database's single writer
 * (SQLite), so two orders at once can't both squeeze under it.
 */
import type { Transaction } from "kysely";
import { formatMoney } from "../../app/lib/money.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError } from "../errors.ts";

type Handle = Db | Transaction<Database>;

export const NET30_METHOD = "invoice-net30";

export const NET30_NOT_OFFERED_MESSAGE =
  "Invoice on net-30 terms is for trade accounts that have credit terms with us. Choose card or pay on delivery, or ask us about net-30 terms.";

/** What the company owes on net-30 invoices not yet paid (cancelled orders' invoices are void). */
async function unpaidInvoicesCents(db: Handle, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("invoices as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("i.total_cents"), eb.lit(0)).as("owed"))
    .where("i.organization_id", "=", organizationId)
    .where("i.status", "=", "unpaid")
    .where("o.payment_method", "=", NET30_METHOD)
    .executeTakeFirstOrThrow();
  return Number(row.owed);
}

export interface CreditTerms {
  organizationId: string;
  companyName: string;
  net30: boolean;
  creditLimitCents: number;
}

/**
 * Refuses a net-30 order that would take the company's unpaid invoices above its credit limit.
 * Call inside the transaction that places the order.
 */
export async function checkCredit(trx: Transaction<Database>, terms: CreditTerms, orderCents: number): Promise<void> {
  if (!terms.net30) throw new ConflictError("NET30_NOT_OFFERED", NET30_NOT_OFFERED_MESSAGE);
  const lock = trx
    .selectFrom("companies")
    .select("credit_limit_cents")
    .where("organization_id", "=", terms.organizationId);
  const company = await (dbKind(trx) === "postgres" ? lock.forUpdate() : lock).executeTakeFirst();
  const limit = Number(company?.credit_limit_cents ?? 0);
  const owed = await unpaidInvoicesCents(trx, terms.organizationId);
  if (owed + orderCents > limit) {
    const left = Math.max(0, limit - owed);
    throw new ConflictError(
      "CREDIT_LIMIT",
      `This order of ${formatMoney(orderCents)} would take ${terms.companyName}'s unpaid invoices to ${formatMoney(owed + orderCents)}, above its credit limit of ${formatMoney(limit)} (${formatMoney(left)} left). Pay an open invoice first, or choose card or pay on delivery.`,
    );
  }
}

/** Credit used and left, for the company's account page and the checkout. */
export async function creditStanding(db: Db, organizationId: string) {
  const [company, owed] = await Promise.all([
    db
      .selectFrom("companies")
      .select(["net30", "credit_limit_cents"])
      .where("organization_id", "=", organizationId)
      .executeTakeFirst(),
    unpaidInvoicesCents(db, organizationId),
  ]);
  const limitCents = Number(company?.credit_limit_cents ?? 0);
  return {
    net30: Boolean(company?.net30),
    limitCents,
    owedCents: owed,
    availableCents: Math.max(0, limitCents - owed),
  };
}
