/**
 * A company's trade terms as staff set them in the back office: its price list, whether every
 * order needs a PO number, net-30 invoices and the credit limit. A save carries the
 * companies.updated_at the form was rendered with; if someone saved in between, it is refused
 * and nothing is written. Each save writes one audit row ("company.terms") in its transaction.
 */
import { parseRowId } from "../../app/lib/order-rules.ts";
import { MAX_CREDIT_LIMIT_CENTS } from "../../app/lib/admin/trade-limits.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { diffFields, writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, DomainError, NotFoundError } from "../errors.ts";

export interface CompanyTerms {
  priceListId: number | null;
  poRequired: boolean;
  net30: boolean;
  creditLimitCents: number;
}

export type CompanyTermsField = "priceListId" | "creditLimit";

/** A refusal tied to one field of the terms form. */
export class CompanyTermsFieldError extends DomainError {
  readonly field: CompanyTermsField;
  constructor(field: CompanyTermsField, message: string) {
    super("invalid", "COMPANY_TERMS_FIELD", message);
    this.field = field;
  }
}

export const TERMS_CONFLICT_MESSAGE =
  "Someone else changed this company's terms while you were editing them. The form now shows their values; make your change again.";

/** The terms form, as posted: checkboxes are present ("on") when ticked. */
export interface CompanyTermsForm {
  priceListId?: unknown;
  poRequired?: unknown;
  net30?: unknown;
  creditLimit?: unknown;
}

/** "250000", "250,000.00", "$1,000" → cents; a CompanyTermsFieldError when it isn't an amount in range. */
function parseCreditLimit(raw: unknown): number {
  const typed = typeof raw === "string" ? raw.trim().replace(/^\$/, "").replace(/,/g, "") : "";
  if (!typed) throw new CompanyTermsFieldError("creditLimit", "Enter a credit limit in dollars (0 for none).");
  const match = /^(\d{1,8})(?:\.(\d{1,2}))?$/.exec(typed);
  const cents = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!(cents >= 0 && cents <= MAX_CREDIT_LIMIT_CENTS))
    throw new CompanyTermsFieldError(
      "creditLimit",
      `The credit limit must be an amount from $0 to ${formatMoney(MAX_CREDIT_LIMIT_CENTS)}, like 25000 or 25,000.00.`,
    );
  return cents;
}

export function parseCompanyTermsForm(form: CompanyTermsForm): CompanyTerms {
  const list = typeof form.priceListId === "string" ? form.priceListId.trim() : "";
  const priceListId = list ? parseRowId(list) : null;
  if (list && priceListId == null)
    throw new CompanyTermsFieldError("priceListId", "Choose one of the price lists, or none.");
  return {
    priceListId,
    poRequired: form.poRequired === "on",
    net30: form.net30 === "on",
    creditLimitCents: parseCreditLimit(form.creditLimit),
  };
}

/** A company's current terms and the version (updated_at) a form must carry back; null when there is no such company. */
export async function companyTermsOf(
  db: Db,
  organizationId: string,
): Promise<(CompanyTerms & { updatedAt: string }) | null> {
  const row = await db
    .selectFrom("companies")
    .select(["price_list_id", "po_required", "net30", "credit_limit_cents", "updated_at"])
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    priceListId: row.price_list_id,
    poRequired: Boolean(row.po_required),
    net30: Boolean(row.net30),
    creditLimitCents: Number(row.credit_limit_cents),
    updatedAt: row.updated_at,
  };
}

/** A timestamp strictly after the previous one, so every save gives a new version. */
function versionAfter(previous: string, now: Date): string {
  const prev = Date.parse(previous);
  return new Date(Math.max(now.getTime(), Number.isFinite(prev) ? prev + 1 : 0)).toISOString();
}

function conflict(): never {
  throw new ConflictError("TERMS_CONFLICT", TERMS_CONFLICT_MESSAGE);
}

/**
 * Saves a company's terms if it still has the version `expectedUpdatedAt`. Returns whether
 * anything changed (an unchanged save writes nothing, not even an audit row).
 */
export async function saveCompanyTerms(
  db: Db,
  actor: AuditActor,
  input: { organizationId: string; terms: CompanyTerms; expectedUpdatedAt: string },
  now = new Date(),
): Promise<{ changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("companies")
      .select(["price_list_id", "po_required", "net30", "credit_limit_cents", "updated_at"])
      .where("organization_id", "=", input.organizationId)
      .executeTakeFirst();
    if (!current) throw new NotFoundError("NOT_FOUND", "This company doesn't exist.");
    if (current.updated_at !== input.expectedUpdatedAt) conflict();
    const { terms } = input;
    if (
      terms.priceListId != null &&
      !(await trx.selectFrom("price_lists").select("id").where("id", "=", terms.priceListId).executeTakeFirst())
    ) {
      throw new CompanyTermsFieldError(
        "priceListId",
        "That price list doesn't exist any more. Choose another, or none.",
      );
    }
    const columns = {
      price_list_id: terms.priceListId,
      po_required: terms.poRequired ? 1 : 0,
      net30: terms.net30 ? 1 : 0,
      credit_limit_cents: terms.creditLimitCents,
    };
    const before = {
      ...current,
      po_required: Number(current.po_required),
      net30: Number(current.net30),
      credit_limit_cents: Number(current.credit_limit_cents),
    };
    const diff = diffFields(before, columns);
    if (Object.keys(diff.after).length === 0) return { changed: false };
    const updated = await trx
      .updateTable("companies")
      .set({ ...columns, updated_at: versionAfter(current.updated_at, now) })
      .where("organization_id", "=", input.organizationId)
      .where("updated_at", "=", current.updated_at)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) conflict();
    await writeAudit(
      trx,
      actor,
      { action: "company.terms", objectType: "company", objectId: input.organizationId, ...diff },
      now,
    );
    return { changed: true };
  });
}
