/**
 * Approval makes a new organization for its application and nothing else (issue 48, item 6): an
 * organization already holding a slug someone could predict is never adopted; a failed or
 * clashing create leaves the application waiting with nothing half-written; two approvals at
 * once end in one company and a readable 409. Invitation mails name the company as staff approved
 * it, whatever its owner did to the library's organization row, and quote the inviter's name only
 * when it reads like a person's. On SQLite and PostgreSQL.
 */
import { betterAuth } from "better-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAuthOptions, type Auth } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { UNGUARDED } from "../../server/auth/sign-in-guard.ts";
import { loadConfig } from "../../server/config.ts";
import {
  applyForTrade,
  COMPANY_NOT_CREATED_MESSAGE,
  decideApplication,
  latestApplication,
  type CreateOrganization,
} from "../../server/trade/applications.ts";
import { companyOf } from "../../server/trade/company.ts";
import { companyInvitationMail, quotableInviterName } from "../../server/trade/mails.ts";
import { createOrganizationThroughAuth, newOrganizationSlug } from "../../server/trade/organizations.ts";
import { tradeApplicationSchema } from "../../app/lib/trade-schema.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const PASSWORD = "Sturdy-Hammer-42";
const SITE = "http://127.0.0.1:3997";
const cfg = loadConfig({ SITE_URL: SITE, NODE_ENV: "test", AUTH_SECRET: "integration-secret-0123456789abcdef0123" });
const STAFF = { userId: "staff-1", name: "Sam Staff" };
const PHISHING = "URGENT: your account is locked, call 0800 000 000 or visit evil.example";
const form = (companyName: string) =>
  tradeApplicationSchema.parse({
    companyName,
    country: "GB",
    taxId: "GB 123 4567 89",
    line1: "1 High Street",
    city: "London",
    postcode: "SW1A 1AA",
    phone: "+44 20 7946 0000",
  });

describe.each(dialects)("trade organizations on %s", (kind) => {
  let t: TestDb;
  let auth: Auth;
  let n = 0;

  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
    auth = betterAuth(buildAuthOptions(t.db, cfg, UNGUARDED));
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function applicant(companyName: string) {
    const email = `org-applicant${++n}@example.com`;
    const { user } = await auth.api.signUpEmail({ body: { email, password: PASSWORD, name: "Ada Applicant" } });
    const { id } = await applyForTrade(t.db, {
      userId: user.id,
      email,
      name: "Ada Applicant",
      form: form(companyName),
      siteUrl: SITE,
    });
    return { userId: user.id, email, applicationId: id };
  }
  const decide = (
    id: number,
    createOrganization: CreateOrganization = createOrganizationThroughAuth(t.db, auth),
    actor = STAFF,
  ) => decideApplication(t.db, { id, approve: true, reason: null, actor, siteUrl: SITE, createOrganization });
  const organization = (id: string) =>
    t.db.selectFrom("organization").select(["id", "name", "slug"]).where("id", "=", id).executeTakeFirst();
  const membersOf = async (organizationId: string) =>
    (
      await t.db
        .selectFrom("member")
        .select(["userId", "role"])
        .where("organizationId", "=", organizationId)
        .orderBy("createdAt")
        .execute()
    ).map((m) => [m.userId, m.role]);
  const organizationsOf = async (userId: string) =>
    (await t.db.selectFrom("member").select("organizationId").where("userId", "=", userId).execute()).map(
      (m) => m.organizationId,
    );
  /** The organization of each company made from the application (none while it is undecided). */
  const companiesOfApplication = (applicationId: number) =>
    t.db.selectFrom("companies").select("organization_id").where("application_id", "=", applicationId).execute();
  const organizationCount = async () =>
    Number(
      (
        await t.db
          .selectFrom("organization")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  // Nothing of the approval was written: the application still waits, with no company, organization, audit row or mail.
  async function expectNothingWritten(
    a: { userId: string; email: string; applicationId: number },
    organizationsBefore: number,
  ) {
    expect(await latestApplication(t.db, a.userId)).toMatchObject({
      id: a.applicationId,
      status: "pending",
      organization_id: null,
      decided_at: null,
    });
    expect(await companiesOfApplication(a.applicationId)).toEqual([]);
    expect(await organizationsOf(a.userId)).toEqual([]);
    expect(await organizationCount()).toBe(organizationsBefore);
    expect(
      await t.db
        .selectFrom("audit_log")
        .select("id")
        .where("object_type", "=", "trade_application")
        .where("object_id", "=", String(a.applicationId))
        .execute(),
    ).toEqual([]);
    expect(
      await t.db
        .selectFrom("mail_queue")
        .select("subject")
        .where("to_address", "=", a.email)
        .where("subject", "like", "%approved%")
        .execute(),
    ).toEqual([]);
  }

  it("an organization already holding the slug anyone could predict is left alone: approval makes a new one", async () => {
    // An owner of another company renames theirs and takes `trade-<id>` for the next application.
    const squatterOrg = await insertCompany(t.db, { name: "Squatter Ltd" });
    const squatter = await insertMember(t.db, squatterOrg, "owner");
    const victim = await applicant("Victim Tools Ltd");
    await t.db
      .updateTable("organization")
      .set({ slug: `trade-${victim.applicationId}`, name: PHISHING })
      .where("id", "=", squatterOrg)
      .execute();
    // And an organization with no company at all holds the other form of a guessable slug.
    await t.db
      .insertInto("organization")
      .values({
        id: "org-bare",
        name: "Bare",
        slug: `trade-${victim.applicationId + 1}`,
        logo: null,
        metadata: null,
        createdAt: new Date().toISOString(),
      })
      .execute();

    const { organizationId } = await decide(victim.applicationId);
    expect(organizationId).not.toBe(squatterOrg);
    expect(organizationId).not.toBe("org-bare");
    const made = await organization(organizationId!);
    expect(made).toMatchObject({ name: "Victim Tools Ltd" });
    expect(made!.slug).toMatch(/^trade-[0-9a-f]{24}$/);
    expect(await membersOf(organizationId!)).toEqual([[victim.userId, "owner"]]);
    expect(await companyOf(t.db, victim.userId)).toMatchObject({
      role: "owner",
      company: { organization_id: organizationId, application_id: victim.applicationId, name: "Victim Tools Ltd" },
    });
    // The squatter's organization is untouched, keeps its own company, and gained no member or company.
    expect(await organization(squatterOrg)).toEqual({
      id: squatterOrg,
      name: PHISHING,
      slug: `trade-${victim.applicationId}`,
    });
    expect(await membersOf(squatterOrg)).toEqual([[squatter, "owner"]]);
    expect(
      await t.db
        .selectFrom("companies")
        .select(["name", "application_id"])
        .where("organization_id", "=", squatterOrg)
        .execute(),
    ).toEqual([{ name: "Squatter Ltd", application_id: expect.any(Number) }]);
    expect(
      await t.db.selectFrom("companies").select("organization_id").where("organization_id", "=", "org-bare").execute(),
    ).toEqual([]);
    expect(await membersOf("org-bare")).toEqual([]);
  });

  it("a slug clash is retried with a fresh slug; the organization holding it is never adopted", async () => {
    const holder = await insertCompany(t.db, { name: "Holder Ltd" });
    const holderSlug = (await organization(holder))!.slug;
    const a = await applicant("Retry Ltd");
    const slugs = [holderSlug, newOrganizationSlug()];
    const { organizationId } = await decide(
      a.applicationId,
      createOrganizationThroughAuth(t.db, auth, () => slugs.shift()!),
    );
    expect(organizationId).not.toBe(holder);
    expect(await organization(organizationId!)).toMatchObject({ name: "Retry Ltd" });
    expect(await organization(holder)).toMatchObject({ name: "Holder Ltd", slug: holderSlug });
    expect(await companyOf(t.db, a.userId)).toMatchObject({ company: { organization_id: organizationId } });
  });

  it("slugs that keep clashing end in a readable 409 with nothing written", async () => {
    const holder = await insertCompany(t.db, { name: "Always Taken Ltd" });
    const holderSlug = (await organization(holder))!.slug;
    const a = await applicant("Unlucky Ltd");
    const before = await organizationCount();
    await expect(
      decide(
        a.applicationId,
        createOrganizationThroughAuth(t.db, auth, () => holderSlug),
      ),
    ).rejects.toMatchObject({ code: "COMPANY_NOT_CREATED", status: 409, message: COMPANY_NOT_CREATED_MESSAGE });
    await expectNothingWritten(a, before);
    expect(await membersOf(holder)).toEqual([]);
    // The next attempt, with fresh slugs, goes through.
    expect((await decide(a.applicationId)).organizationId).toBeTruthy();
  });

  it("a create that fails halfway is a readable 409: the application still waits and nothing is left behind", async () => {
    const a = await applicant("Halfway Ltd");
    const before = await organizationCount();
    // The library wrote the organization and its owner, then failed (a hook, a lost connection).
    const halfway = {
      api: {
        async createOrganization({ body }: { body: { name: string; slug: string; userId: string } }) {
          const now = new Date().toISOString();
          await t.db
            .insertInto("organization")
            .values({
              id: `org-half-${n}`,
              name: body.name,
              slug: body.slug,
              logo: null,
              metadata: null,
              createdAt: now,
            })
            .execute();
          await t.db
            .insertInto("member")
            .values({
              id: `mem-half-${n}`,
              organizationId: `org-half-${n}`,
              userId: body.userId,
              role: "owner",
              createdAt: now,
            })
            .execute();
          throw new Error("connection lost");
        },
      },
    } as unknown as Auth;
    await expect(decide(a.applicationId, createOrganizationThroughAuth(t.db, halfway))).rejects.toMatchObject({
      code: "COMPANY_NOT_CREATED",
      status: 409,
    });
    await expectNothingWritten(a, before);

    // A library that answers without an id, and one that refuses outright: the same clean 409.
    const noId = { api: { createOrganization: async () => ({}) } } as unknown as Auth;
    await expect(decide(a.applicationId, createOrganizationThroughAuth(t.db, noId))).rejects.toMatchObject({
      code: "COMPANY_NOT_CREATED",
      status: 409,
    });
    const missingUser: CreateOrganization = ({ name }) =>
      createOrganizationThroughAuth(t.db, auth)({ userId: "no-such-user", name });
    await expect(decide(a.applicationId, missingUser)).rejects.toMatchObject({
      code: "COMPANY_NOT_CREATED",
      status: 409,
    });
    await expectNothingWritten(a, before);
  });

  it("a company row that can't be written removes only the organization this approval made", async () => {
    const a = await applicant("Clash Ltd");
    const other = await insertCompany(t.db, { name: "Other Ltd" });
    const before = await organizationCount();
    // A buggy creator that hands back someone else's organization: the company insert clashes.
    await expect(decide(a.applicationId, async () => other)).rejects.toMatchObject({
      code: "COMPANY_NOT_CREATED",
      status: 409,
      message: COMPANY_NOT_CREATED_MESSAGE,
    });
    expect(await latestApplication(t.db, a.userId)).toMatchObject({ status: "pending" });
    // That organization has a company, so it is kept as it was.
    expect(await organization(other)).toMatchObject({ name: "Other Ltd" });
    expect(await organizationCount()).toBe(before);
  });

  it("two approvals at once: one company, the other a readable 409, no organization left over", async () => {
    const a = await applicant("Twice Ltd");
    const before = await organizationCount();
    const results = await Promise.allSettled([
      decide(a.applicationId),
      decide(a.applicationId, undefined, { userId: "staff-2", name: "Sue" }),
      decide(a.applicationId),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect(r).toMatchObject({ reason: { code: "ALREADY_DECIDED", status: 409 } });
    const winner = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ organizationId: string }>)
      .value.organizationId;
    expect(await organizationsOf(a.userId)).toEqual([winner]);
    expect(await organizationCount()).toBe(before + 1);
    expect(await companiesOfApplication(a.applicationId)).toEqual([{ organization_id: winner }]);
  });

  it("an invitation names the company as staff approved it, not the organization's current name", async () => {
    const orgId = await insertCompany(t.db, { name: "Approved Plumbing Ltd" });
    await t.db.updateTable("organization").set({ name: PHISHING }).where("id", "=", orgId).execute();
    const link = `${SITE}/account/company/join?invitation=inv-1`;
    const mail = await companyInvitationMail(t.db, {
      organizationId: orgId,
      email: "new.hire@example.com",
      role: "buyer",
      inviterName: "Owen O'Neill",
      link,
    });
    expect(mail.to).toBe("new.hire@example.com");
    expect(mail.subject).toBe("Invitation to join Approved Plumbing Ltd on ToolHub Wholesale");
    expect(mail.text).toContain("Join Approved Plumbing Ltd on ToolHub Wholesale");
    expect(mail.text).toContain("You are invited to order for Approved Plumbing Ltd as a buyer");
    expect(mail.text).toContain("Invited by: “Owen O'Neill” (the name they registered with).");
    expect(mail.text).toContain(`See the invitation: ${link}`);
    expect(mail.html).toContain("Owen O&#39;Neill");
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toContain("URGENT");
      expect(part).not.toContain("evil.example");
    }
    // The inviter's own text never reaches the subject, and a name that is not a name is left out.
    const phishingInviter = await companyInvitationMail(t.db, {
      organizationId: orgId,
      email: "x@example.com",
      role: "approver",
      inviterName: PHISHING,
      link,
    });
    expect(phishingInviter.subject).toBe("Invitation to join Approved Plumbing Ltd on ToolHub Wholesale");
    expect(phishingInviter.text).toContain("as an approver");
    expect(phishingInviter.text).not.toContain("Invited by");
    expect(phishingInviter.text).not.toContain("0800");
  });

  it("an organization the store has no company for gets no invitation mail", async () => {
    await t.db
      .insertInto("organization")
      .values({
        id: "org-nocompany",
        name: PHISHING,
        slug: "no-company",
        logo: null,
        metadata: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const link = `${SITE}/account/company/join?invitation=inv-2`;
    await expect(
      companyInvitationMail(t.db, {
        organizationId: "org-nocompany",
        email: "x@example.com",
        role: "buyer",
        inviterName: "Ann",
        link,
      }),
    ).rejects.toMatchObject({ code: "COMPANY_NOT_FOUND", status: 404 });
    await expect(
      companyInvitationMail(t.db, {
        organizationId: "org-does-not-exist",
        email: "x@example.com",
        role: "buyer",
        link,
      }),
    ).rejects.toMatchObject({ code: "COMPANY_NOT_FOUND" });
  });
});

describe("the inviter's name in an invitation", () => {
  it.each([
    ["Owen Owner", "Owen Owner"],
    ["  Zoë   Ørsted-Ñúñez ", "Zoë Ørsted-Ñúñez"],
    ["J. R. R. Tolkien", "J. R. R. Tolkien"],
    ["Mary O’Brien", "Mary O’Brien"],
  ])("quotes %j as %j", (name, quoted) => {
    expect(quotableInviterName(name)).toBe(quoted);
  });
  it.each([
    ["", "empty"],
    ["Call 0800 000 000", "digits"],
    ["visit evil.example", "a dotted word (a link)"],
    ["www.evil.example", "a host name"],
    ["ann@example.com", "an address"],
    ["Ann: verify now", "a colon"],
    ["https//evil", "a slash"],
    ["A".repeat(61), "over 60 characters"],
    ["Ann <b>", "markup"],
    ["- Ann", "not starting with a letter"],
  ])("leaves out %j (%s)", (name) => {
    expect(quotableInviterName(name)).toBeNull();
  });
});
