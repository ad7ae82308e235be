/**
 * Trade account applications: a customer applies with the company's details; staff approve or
 * reject. Approval creates a new organization through Better Auth's organization plugin (the
 * applicant becomes its owner) and the store's `companies` row; the applicant is mailed either way.
 */
import type { TradeApplicationInput } from "../../app/lib/trade-schema.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, InvalidError, NotFoundError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { companyOf } from "./company.ts";
import { applicationDecidedMail, applicationReceivedMail } from "./mails.ts";

const APPLICATION_PAGE_SIZE = 50;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

export async function latestApplication(db: Db, userId: string) {
  return db
    .selectFrom("trade_applications")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function applyForTrade(
  db: Db,
  input: { userId: string; email: string; name: string; form: TradeApplicationInput; siteUrl: string; now?: Date },
): Promise<{ id: number }> {
  if (await companyOf(db, input.userId))
    throw new ConflictError("ALREADY_TRADE", "You already belong to a company with a trade account.");
  const f = input.form;
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("trade_applications")
        .values({
          user_id: input.userId,
          company_name: f.companyName,
          country: f.country,
          tax_id: f.taxId,
          billing_line1: f.line1,
          billing_line2: f.line2,
          billing_city: f.city,
          billing_region: f.region,
          billing_postcode: f.postcode,
          phone: f.phone,
          status: "pending",
          created_at: (input.now ?? new Date()).toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await enqueueMail(
        trx,
        applicationReceivedMail({
          email: input.email,
          name: input.name,
          companyName: f.companyName,
          link: `${input.siteUrl}/account/trade`,
        }),
      );
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ConflictError("APPLICATION_PENDING", "Your trade account application is already being reviewed.");
    throw error;
  }
}

export type ApplicationFilter = "pending" | "approved" | "rejected" | "all";
export const APPLICATION_FILTERS: ApplicationFilter[] = ["pending", "approved", "rejected", "all"];

export async function listApplications(db: Db, options: { filter: ApplicationFilter; page: number }) {
  let q = db
    .selectFrom("trade_applications as a")
    .innerJoin("user as u", "u.id", "a.user_id")
    .select([
      "a.id",
      "a.company_name",
      "a.country",
      "a.tax_id",
      "a.status",
      "a.created_at",
      "a.decided_at",
      "u.name as applicant_name",
      "u.email as applicant_email",
    ]);
  if (options.filter !== "all") q = q.where("a.status", "=", options.filter);
  const rows = await q
    .orderBy("a.id", options.filter === "pending" ? "asc" : "desc")
    .limit(APPLICATION_PAGE_SIZE + 1)
    .offset((options.page - 1) * APPLICATION_PAGE_SIZE)
    .execute();
  return {
    rows: rows.slice(0, APPLICATION_PAGE_SIZE),
    hasNext: rows.length > APPLICATION_PAGE_SIZE,
    page: options.page,
  };
}

export async function countPendingApplications(db: Db): Promise<number> {
  const row = await db
    .selectFrom("trade_applications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getApplication(db: Db, id: number) {
  return db
    .selectFrom("trade_applications as a")
    .innerJoin("user as u", "u.id", "a.user_id")
    .selectAll("a")
    .select(["u.name as applicant_name", "u.email as applicant_email"])
    .where("a.id", "=", id)
    .executeTakeFirst();
}

/**
 * Creates a new organization for the company with the applicant as its owner and returns its id:
 * always one this call made, never an existing one. Fails with a DomainError, leaving nothing.
 */
export const COMPANY_NOT_CREATED_MESSAGE =
  "The company account couldn't be created, so nothing was changed and the application is still waiting. Try approving it again.";

export type CreateOrganization = (input: { userId: string; name: string }) => Promise<string>;

/** Deletes an organization (its invitations and members) that has no company row; one with a company is left alone. */
export async function removeOrphanOrganization(db: Db, organizationId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const company = await trx
      .selectFrom("companies")
      .select("organization_id")
      .where("organization_id", "=", organizationId)
      .executeTakeFirst();
    if (company) return;
    await trx.deleteFrom("invitation").where("organizationId", "=", organizationId).execute();
    await trx.deleteFrom("member").where("organizationId", "=", organizationId).execute();
    await trx.deleteFrom("organization").where("id", "=", organizationId).execute();
  });
}

const decidedMeanwhile = () =>
  new ConflictError("ALREADY_DECIDED", "Another staff member decided this application a moment ago.");

/**
 * Approves or rejects a pending application, once: of two staff deciding at the same moment,
 * one wins and the other is told it was already decided. Writes the audit row and the mail in
 * the same transaction as the decision.
 */
export async function decideApplication(
  db: Db,
  input: {
    id: number;
    approve: boolean;
    reason: string | null;
    actor: AuditActor;
    siteUrl: string;
    createOrganization: CreateOrganization;
    now?: Date;
  },
): Promise<{ organizationId: string | null }> {
  const application = await getApplication(db, input.id);
  if (!application) throw new NotFoundError("NOT_FOUND", "This application doesn't exist.");
  if (application.status !== "pending")
    throw new ConflictError("ALREADY_DECIDED", `This application was already ${application.status}.`);
  if (!input.approve && !input.reason)
    throw new InvalidError("REASON_REQUIRED", "Give the applicant a reason for the rejection.");
  if (input.approve && (await companyOf(db, application.user_id))) {
    // A colleague's approval of this same application may have made that company since it was read.
    if ((await getApplication(db, input.id))?.status !== "pending") throw decidedMeanwhile();
    throw new ConflictError("ALREADY_TRADE", "The applicant already belongs to a company with a trade account.");
  }

  // A new organization every time, made for this application only: never one found by name or slug.
  const organizationId = input.approve
    ? await input.createOrganization({ userId: application.user_id, name: application.company_name })
    : null;
  const now = (input.now ?? new Date()).toISOString();
  const status = input.approve ? "approved" : "rejected";
  try {
    await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("trade_applications")
        .set({
          status,
          reason: input.approve ? null : input.reason,
          decided_at: now,
          decided_by: input.actor.userId,
          organization_id: organizationId,
        })
        .where("id", "=", application.id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw decidedMeanwhile();
      if (organizationId) {
        await trx
          .insertInto("companies")
          .values({
            organization_id: organizationId,
            application_id: application.id,
            name: application.company_name,
            country: application.country,
            tax_id: application.tax_id,
            billing_line1: application.billing_line1,
            billing_line2: application.billing_line2,
            billing_city: application.billing_city,
            billing_region: application.billing_region,
            billing_postcode: application.billing_postcode,
            phone: application.phone,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await writeAudit(trx, input.actor, {
        action: input.approve ? "trade.approve" : "trade.reject",
        objectType: "trade_application",
        objectId: application.id,
        before: { status: "pending" },
        after: {
          status,
          ...(input.reason && !input.approve ? { reason: input.reason } : {}),
          ...(organizationId ? { organizationId } : {}),
        },
      });
      await enqueueMail(
        trx,
        applicationDecidedMail({
          email: application.applicant_email,
          name: application.applicant_name,
          companyName: application.company_name,
          approved: input.approve,
          reason: input.approve ? null : input.reason,
          link: `${input.siteUrl}${input.approve ? "/account/company" : "/account/trade"}`,
        }),
      );
    });
  } catch (error) {
    // The organization this call made stays only with its company row: a lost race leaves nothing behind.
    if (organizationId) await removeOrphanOrganization(db, organizationId);
    if (isUniqueViolation(error)) throw new ConflictError("COMPANY_NOT_CREATED", COMPANY_NOT_CREATED_MESSAGE);
    throw error;
  }
  return { organizationId };
}
