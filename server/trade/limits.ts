/**
 * Spending limits: an owner gives a member a per-order limit; a checkout above it becomes an order
 * awaiting approval (server/orders/place-order.ts, server/trade/approvals.ts).
 */
import type { Kysely, Transaction } from "kysely";
import { formatMoney } from "../../app/lib/money.ts";
import { companyCan } from "../auth/company-roles.ts";
import { companyMember } from "./company.ts";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { InvalidError, NotAllowedError, NotFoundError } from "../errors.ts";
import { writeAudit } from "../audit/audit.ts";

type Handle = Kysely<Database> | Transaction<Database>;

/** The most a per-order limit may be set to ($1,000,000). */
const MAX_LIMIT_CENTS = 100_000_000;

/** What the checkout needs to know of a trade buyer: their company, role, PO rule and limit. */
export interface BuyerTerms {
  organizationId: string;
  companyName: string;
  role: string;
  poRequired: boolean;
  limitCents: number | null;
  /** The company's VAT number or EIN, printed on its orders and invoices. */
  taxId: string;
  /** Invoice on net-30 terms, against the company's credit limit (server/invoices/credit.ts). */
  net30: boolean;
  creditLimitCents: number;
}

export async function buyerTerms(db: Handle, userId: string | null): Promise<BuyerTerms | null> {
  if (!userId) return null;
  const row = await db
    .selectFrom("member as m")
    .innerJoin("companies as c", "c.organization_id", "m.organizationId")
    .leftJoin("spending_limits as l", (join) =>
      join.onRef("l.organization_id", "=", "m.organizationId").onRef("l.user_id", "=", "m.userId"),
    )
    .select([
      "c.organization_id",
      "c.name",
      "c.po_required",
      "c.tax_id",
      "c.net30",
      "c.credit_limit_cents",
      "m.role",
      "l.per_order_cents",
    ])
    .where("m.userId", "=", userId)
    .orderBy("m.createdAt")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    organizationId: row.organization_id,
    companyName: row.name,
    role: row.role,
    poRequired: Boolean(row.po_required),
    limitCents: row.per_order_cents ?? null,
    taxId: row.tax_id,
    net30: Boolean(row.net30),
    creditLimitCents: Number(row.credit_limit_cents),
  };
}

export async function spendingLimits(db: Db, organizationId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("spending_limits")
    .select(["user_id", "per_order_cents"])
    .where("organization_id", "=", organizationId)
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.per_order_cents]));
}

/** "250", "250.00", "1,250.5" → cents; empty → null (no limit). */
export function parseLimit(value: unknown): number | null | undefined {
  const text = typeof value === "string" ? value.trim().replace(/[$,\s]/g, "") : "";
  if (text === "") return null;
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 100);
}

/**
 * Sets (or, with null, removes) a member's per-order limit. Only a company owner may; the member
 * must belong to the same company. Written with an audit row.
 */
export async function setSpendingLimit(
  db: Db,
  owner: { userId: string; name: string; organizationId: string; role: string },
  memberUserId: string,
  cents: number | null,
): Promise<string> {
  if (!companyCan(owner.role, { limit: ["set"] }))
    throw new NotAllowedError("NOT_ALLOWED", "Only the company's owner sets spending limits.");
  if (cents != null && (cents < 0 || cents > MAX_LIMIT_CENTS))
    throw new InvalidError("BAD_LIMIT", `A limit is an amount from $0 to ${formatMoney(MAX_LIMIT_CENTS)}.`);
  // A user id is Better Auth's random id; anything else (a NUL would be a 500 on PostgreSQL) is no member.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(memberUserId))
    throw new NotFoundError("NOT_A_MEMBER", "That person isn't a member of your company.");
  return db.transaction().execute(async (trx) => {
    const member = await companyMember(trx, owner.organizationId, memberUserId);
    if (!member) throw new NotFoundError("NOT_A_MEMBER", "That person isn't a member of your company.");
    const before = await trx
      .selectFrom("spending_limits")
      .select("per_order_cents")
      .where("organization_id", "=", owner.organizationId)
      .where("user_id", "=", memberUserId)
      .executeTakeFirst();
    const now = new Date().toISOString();
    if (cents == null) {
      await trx
        .deleteFrom("spending_limits")
        .where("organization_id", "=", owner.organizationId)
        .where("user_id", "=", memberUserId)
        .execute();
    } else {
      await trx
        .insertInto("spending_limits")
        .values({
          organization_id: owner.organizationId,
          user_id: memberUserId,
          per_order_cents: cents,
          updated_by: owner.userId,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(["organization_id", "user_id"])
            .doUpdateSet({ per_order_cents: cents, updated_by: owner.userId, updated_at: now }),
        )
        .execute();
    }
    await writeAudit(
      trx,
      { userId: owner.userId, name: owner.name },
      {
        action: "company.limit",
        objectType: "member",
        objectId: memberUserId,
        before: { perOrderCents: before?.per_order_cents ?? null },
        after: { perOrderCents: cents },
      },
    );
    return cents == null
      ? `${member.name} has no spending limit now.`
      : `${member.name} may now order up to ${formatMoney(cents)} per order; above that, an approver decides.`;
  });
}
