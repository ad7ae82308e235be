import { randomBytes } from "node:crypto";
import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { linkIn, waitForMail } from "../support/mail.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { signInViaApi, storeDb } from "../shopping/support.ts";
import { inviteBuyer, tradeCompany } from "./support.ts";

/**
 * Issue 48, item 6: a company is named as staff approved it, whatever its owner did to the auth
 * library's organization row; approval never adopts an organization it did not make.
 */
const PHISHING = "URGENT: your account is locked, call 0800 000 000";

test("an invitation names the company as staff approved it, even after its organization was renamed", async ({
  page,
  browser,
  baseURL,
}) => {
  const ownerEmail = uniqueEmail("name-owner");
  await registerViaApi(page.request, baseURL!, ownerEmail, GOOD_PASSWORD, "Olive Owner");
  await signInViaApi(page.request, baseURL!, ownerEmail);
  const company = tradeCompany([{ email: ownerEmail, role: "owner" }], { name: "Hammers" });
  // What an owner could do through the library's own update endpoint: rename the organization.
  storeDb().prepare("UPDATE organization SET name = ? WHERE id = ?").run(PHISHING, company.organizationId);

  await page.goto("/account/company");
  await expect(page.getByText(`${company.name} · your role: Owner`)).toBeVisible();
  await expect(page.getByText(PHISHING)).toHaveCount(0);
  const colleagueEmail = await inviteBuyer(page, "name-buyer");

  const invitation = await waitForMail(colleagueEmail, /^Invitation to join /);
  expect(invitation.subject).toBe(`Invitation to join ${company.name} on ToolHub Wholesale`);
  expect(invitation.body).toContain(`You are invited to order for ${company.name} as a buyer`);
  // (The mail support decodes quoted-printable bytes one by one, so the curly quotes come out as mojibake.)
  expect(invitation.body).toMatch(/Invited by: \S+Olive Owner\S+ \(the name they registered with\)/);
  expect(invitation.body).not.toContain("URGENT");
  expect(invitation.body).not.toContain("0800 000 000");

  // The colleague's join page names it the same way.
  const colleagueContext = await browser.newContext({ baseURL });
  const colleague = await colleagueContext.newPage();
  await registerViaApi(colleague.request, baseURL!, colleagueEmail, GOOD_PASSWORD, "Bea Buyer");
  await signInViaApi(colleague.request, baseURL!, colleagueEmail);
  const joinUrl = new URL(linkIn(invitation, "/account/company/join"));
  await colleague.goto(joinUrl.pathname + joinUrl.search);
  await expect(
    colleague.getByText(`${company.name} invites you to order on its trade account as Buyer.`),
  ).toBeVisible();
  await expect(colleague.getByText(PHISHING)).toHaveCount(0);
  await expectNoAxeViolations(colleague);
  await colleagueContext.close();
});

test("staff approve an application whose predictable slug another company took: a new organization, the other one untouched", async ({
  page,
  baseURL,
}) => {
  const applicantEmail = uniqueEmail("slug-applicant");
  await registerViaApi(page.request, baseURL!, applicantEmail, GOOD_PASSWORD, "Ada Applicant");
  const applicantId = queryOne<{ id: string }>('SELECT id FROM "user" WHERE email = ?', applicantEmail).id;
  const companyName = `Slug Safe Tools ${randomBytes(4).toString("hex")}`;
  const db = storeDb();
  const application = db
    .prepare(
      "INSERT INTO trade_applications (user_id, company_name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, status, created_at) VALUES (?, ?, 'GB', 'GB123456789', '1 High Street', 'London', 'SW1A 1AA', '+44 20 7946 0000', 'pending', ?) RETURNING id",
    )
    .get(applicantId, companyName, new Date().toISOString()) as { id: number };
  // Another company's owner took the slug the old approval derived from the application's id.
  const squatterEmail = uniqueEmail("slug-squatter");
  await registerViaApi(page.request, baseURL!, squatterEmail, GOOD_PASSWORD, "Sam Squatter");
  const squatter = tradeCompany([{ email: squatterEmail, role: "owner" }], { name: "Squatter Co" });
  db.prepare("UPDATE organization SET slug = ?, name = ? WHERE id = ?").run(
    `trade-${application.id}`,
    PHISHING,
    squatter.organizationId,
  );

  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto(`/admin/trade/${application.id}`);
  await expect(page.getByRole("heading", { level: 1, name: companyName })).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Approved: the company's trade account is open and the applicant was emailed.",
  );

  const created = queryOne<{ organization_id: string; name: string }>(
    "SELECT organization_id, name FROM companies WHERE application_id = ?",
    application.id,
  );
  expect(created.organization_id).not.toBe(squatter.organizationId);
  expect(created.name).toBe(companyName);
  expect(
    queryOne<{ slug: string }>("SELECT slug FROM organization WHERE id = ?", created.organization_id).slug,
  ).toMatch(/^trade-[0-9a-f]{24}$/);
  expect(queryAll("SELECT userId, role FROM member WHERE organizationId = ?", created.organization_id)).toEqual([
    { userId: applicantId, role: "owner" },
  ]);
  // The squatter's organization is as it was: its name, slug, own company and its one member.
  expect(queryOne("SELECT name, slug FROM organization WHERE id = ?", squatter.organizationId)).toEqual({
    name: PHISHING,
    slug: `trade-${application.id}`,
  });
  expect(queryAll("SELECT name FROM companies WHERE organization_id = ?", squatter.organizationId)).toEqual([
    { name: squatter.name },
  ]);
  expect(queryAll("SELECT role FROM member WHERE organizationId = ?", squatter.organizationId)).toEqual([
    { role: "owner" },
  ]);
  await waitForMail(applicantEmail, /trade account is approved/);
});
