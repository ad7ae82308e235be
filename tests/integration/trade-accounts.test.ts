/**
 * Trade accounts (server/trade/): applications, the staff decision (one winner when two staff
 * decide at once), the company Better Auth's organization plugin creates with the applicant as
 * owner, and invitations (owner only; one company per person), on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Auth } from "../../server/auth/auth.ts";
import { applyForTrade, decideApplication, latestApplication } from "../../server/trade/applications.ts";
import { companyMembers, companyOf } from "../../server/trade/company.ts";
import { createOrganizationThroughAuth } from "../../server/trade/organizations.ts";
import { freshAuthDb, testAuthConfig } from "./auth-db.ts";
import { dialects, type TestDb } from "./databases.ts";
import { tradeApplicationForm } from "./trade-support.ts";

const PASSWORD = "Sturdy-Hammer-42";
const SITE = "http://127.0.0.1:3998";
const cfg = testAuthConfig(SITE);
const STAFF = { userId: "staff-1", name: "Sam Staff" };

const form = tradeApplicationForm;

describe.each(dialects)("trade accounts on %s", (kind) => {
  let t: TestDb;
  let auth: Auth;
  let n = 0;

  beforeAll(async () => {
    ({ t, auth } = await freshAuthDb(kind, cfg));
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function customer(name = "Ada Applicant") {
    const email = `customer${++n}@example.com`;
    const { user } = await auth.api.signUpEmail({ body: { email, password: PASSWORD, name } });
    const res = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { id: user.id, email, name, headers: new Headers({ cookie }) };
  }
  // The store's trade mails to this address (not the sign-up's email confirmation).
  const mails = (to: string) =>
    t.db
      .selectFrom("mail_queue")
      .select(["subject", "text_body"])
      .where("to_address", "=", to)
      .where("subject", "not like", "Confirm your%")
      .orderBy("id")
      .execute();
  // The organizations a user is a member of (approval makes the applicant the owner of a new one).
  const organizationsOf = async (userId: string) =>
    (
      await t.db
        .selectFrom("organization as o")
        .innerJoin("member as m", "m.organizationId", "o.id")
        .select("o.id")
        .where("m.userId", "=", userId)
        .execute()
    ).map((o) => o.id);
  const decide = (id: number, approve: boolean, reason: string | null = null, actor = STAFF) =>
    decideApplication(t.db, {
      id,
      approve,
      reason,
      actor,
      siteUrl: SITE,
      createOrganization: createOrganizationThroughAuth(t.db, auth),
    });

  const apply = (c: { id: string; email: string; name: string }, overrides: Partial<Record<string, string>> = {}) =>
    applyForTrade(t.db, { userId: c.id, email: c.email, name: c.name, form: form(overrides), siteUrl: SITE });

  it("takes an application once, mails the applicant, and refuses a second while the first is reviewed", async () => {
    const c = await customer();
    const { id } = await apply(c);
    const row = await latestApplication(t.db, c.id);
    expect(row).toMatchObject({
      id,
      status: "pending",
      tax_id: "GB123456789",
      billing_postcode: "SW1A 1AA",
      company_name: "Acme Builders Ltd",
    });
    expect((await mails(c.email)).map((m) => m.subject)).toEqual(["Your ToolHub Wholesale trade account application"]);
    await expect(apply(c)).rejects.toMatchObject({ code: "APPLICATION_PENDING", status: 409 });
    // Two tabs at once: the unique index lets one through.
    const other = await customer();
    const both = await Promise.allSettled([0, 1].map(() => apply(other)));
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      await t.db.selectFrom("trade_applications").select("id").where("user_id", "=", other.id).execute(),
    ).toHaveLength(1);
  });

  it("approval creates the company with the applicant as owner, an audit row and the mail; a second decision is refused", async () => {
    const c = await customer("Olive Owner");
    const { id } = await apply(c, { companyName: "Olive Electrical" });
    const { organizationId } = await decide(id, true);
    const membership = await companyOf(t.db, c.id);
    expect(membership).toMatchObject({
      role: "owner",
      company: {
        organization_id: organizationId,
        name: "Olive Electrical",
        tax_id: "GB123456789",
        net30: 0,
        credit_limit_cents: 0,
      },
    });
    // A fresh, unguessable slug: nobody could have taken it before the approval.
    const organization = await t.db
      .selectFrom("organization")
      .select(["name", "slug"])
      .where("id", "=", organizationId!)
      .executeTakeFirstOrThrow();
    expect(organization.name).toBe("Olive Electrical");
    expect(organization.slug).toMatch(/^trade-[0-9a-f]{24}$/);
    expect(
      await t.db
        .selectFrom("audit_log")
        .select(["action", "actor_id", "after"])
        .where("object_type", "=", "trade_application")
        .where("object_id", "=", String(id))
        .execute(),
    ).toEqual([
      {
        action: "trade.approve",
        actor_id: STAFF.userId,
        after: JSON.stringify({ status: "approved", organizationId }),
      },
    ]);
    const [, decided] = await mails(c.email);
    expect(decided.subject).toBe("Your ToolHub Wholesale trade account is approved");
    expect(decided.text_body).toContain(`${SITE}/account/company`);
    await expect(decide(id, false, "late")).rejects.toMatchObject({ code: "ALREADY_DECIDED", status: 409 });
    await expect(apply(c)).rejects.toMatchObject({ code: "ALREADY_TRADE" });
  });

  it("rejection needs a reason, mails it, and lets the customer apply again", async () => {
    const c = await customer();
    const { id } = await apply(c);
    await expect(decide(id, false, null)).rejects.toMatchObject({ code: "REASON_REQUIRED", status: 400 });
    await decide(id, false, "The VAT number is not registered to this company.");
    expect((await mails(c.email)).at(-1)!.text_body).toContain(
      "Reason: The VAT number is not registered to this company.",
    );
    expect(await companyOf(t.db, c.id)).toBeNull();
    expect(await t.db.selectFrom("member").select("id").where("userId", "=", c.id).execute()).toEqual([]);
    const again = await apply(c);
    expect(again.id).toBeGreaterThan(id);
  });

  it("two staff approving at once make one company, one audit row and one mail", async () => {
    const c = await customer();
    const { id } = await apply(c);
    const results = await Promise.allSettled([
      decide(id, true),
      decide(id, true, null, { userId: "staff-2", name: "Sue" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: { code: "ALREADY_DECIDED", status: 409 },
    });
    expect(
      await t.db.selectFrom("companies").select("organization_id").where("application_id", "=", id).execute(),
    ).toHaveLength(1);
    // Each approval made its own organization; the loser's was removed with its membership.
    expect(await organizationsOf(c.id)).toEqual([(await companyOf(t.db, c.id))!.company.organization_id]);
    expect(
      await t.db
        .selectFrom("audit_log")
        .select("id")
        .where("object_id", "=", String(id))
        .where("object_type", "=", "trade_application")
        .execute(),
    ).toHaveLength(1);
    expect((await mails(c.email)).filter((m) => m.subject.includes("approved"))).toHaveLength(1);
  });

  it("an approval racing a rejection leaves one outcome, and no company behind a rejection", async () => {
    const c = await customer();
    const { id } = await apply(c);
    await Promise.allSettled([decide(id, true), decide(id, false, "Duplicate application")]);
    const row = await latestApplication(t.db, c.id);
    const orgs = await organizationsOf(c.id);
    const members = await t.db.selectFrom("member").select("id").where("userId", "=", c.id).execute();
    if (row!.status === "approved") expect([orgs.length, members.length]).toEqual([1, 1]);
    else expect([row!.status, orgs.length, members.length]).toEqual(["rejected", 0, 0]);
  });

  it("the owner invites a buyer who accepts; a buyer can't invite; nobody joins a second company", async () => {
    const owner = await customer("Owen Owner");
    const { id } = await apply(owner, { companyName: "Owen Plumbing" });
    const { organizationId } = await decide(id, true);
    const buyer = await customer("Bea Buyer");
    const invitation = await auth.api.createInvitation({
      headers: owner.headers,
      body: { email: buyer.email, role: "buyer", organizationId: organizationId! },
    });
    const [mail] = await mails(buyer.email);
    expect(mail.subject).toBe("Invitation to join Owen Plumbing on ToolHub Wholesale");
    expect(mail.text_body).toContain(`${SITE}/account/company/join?invitation=${invitation.id}`);
    await auth.api.acceptInvitation({ headers: buyer.headers, body: { invitationId: invitation.id } });
    expect(await companyOf(t.db, buyer.id)).toMatchObject({ role: "buyer", company: { name: "Owen Plumbing" } });
    expect((await companyMembers(t.db, organizationId!)).map((m) => [m.name, m.role])).toEqual([
      ["Owen Owner", "owner"],
      ["Bea Buyer", "buyer"],
    ]);

    const stranger = await customer();
    await expect(
      auth.api.createInvitation({
        headers: buyer.headers,
        body: { email: stranger.email, role: "buyer", organizationId: organizationId! },
      }),
    ).rejects.toMatchObject({ statusCode: 403 });

    // The owner of another company is invited here: refused at acceptance.
    const other = await customer("Oscar Other");
    const second = await apply(other, { companyName: "Oscar Roofing" });
    await decide(second.id, true);
    const cross = await auth.api.createInvitation({
      headers: owner.headers,
      body: { email: other.email, role: "buyer", organizationId: organizationId! },
    });
    await expect(
      auth.api.acceptInvitation({ headers: other.headers, body: { invitationId: cross.id } }),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect((await companyOf(t.db, other.id))!.company.name).toBe("Oscar Roofing");
  });
});
