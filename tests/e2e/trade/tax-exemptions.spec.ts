/**
 * Tax exemption certificates (issue 51): a US trade company's owner uploads a certificate from
 * their company page (a bad file and a past date are refused by field); staff find it waiting in
 * the back office, open the file and verify it (the owner is mailed, the page says Verified) or
 * reject it with a reason; another company's member can't fetch the file; the upload works
 * without JavaScript; and a company's verified certificate takes the sales tax off its orders to
 * that state (Michigan, which no other test collects in).
 */
import type { Page } from "@playwright/test";
import { uniqueEmail, registerViaApi } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { signInViaApi, storeDb } from "../shopping/support.ts";
import { approvedCompany, sqliteStore } from "./company-fixtures.ts";
import { exemptOrderToMichigan } from "./exempt-order.ts";

// A scanned certificate's size (2 MB), far past the 16 KB every plain form may post.
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n% an exemption certificate\n"), Buffer.alloc(2 * 1024 * 1024, 0x20)]);
const PDF_FILE = { name: "cert.pdf", mimeType: "application/pdf", buffer: PDF };
const status = (page: Page) => page.getByRole("main").getByRole("status");
const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;

async function upload(
  page: Page,
  fields: {
    state: string;
    number: string;
    expiresOn: string;
    file: { name: string; mimeType: string; buffer: Buffer };
  },
) {
  await page.getByLabel("State").selectOption({ label: fields.state });
  await page.getByLabel("Certificate number").fill(fields.number);
  await page.getByLabel("Valid until (last day)").fill(fields.expiresOn);
  await page.getByLabel(/Certificate file/).setInputFiles(fields.file);
  await page.getByRole("button", { name: "Upload certificate" }).click();
}

test("an owner uploads a certificate, staff verify it, and the owner is mailed and sees it verified", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const company = await approvedCompany(page.request, baseURL!, "US");
  await signInViaApi(page.request, baseURL!, company.email);
  await page.goto("/account/company");
  await page.getByRole("link", { name: "Tax exemption certificates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tax exemptions" })).toBeVisible();
  await expect(page.getByText("No certificates yet.")).toBeVisible();
  await waitForHydration(page);

  await upload(page, {
    state: "Texas",
    number: "TX 12-345",
    expiresOn: nextYear,
    file: { name: "cert.html", mimeType: "application/pdf", buffer: Buffer.from("<html>not a pdf</html>") },
  });
  await expect(page.getByLabel(/Certificate file/)).toHaveAccessibleDescription(
    "Upload the certificate as a PDF, JPEG, PNG or WebP file.",
  );
  await expect(page.getByLabel("Certificate number")).toHaveValue("TX 12-345");
  await upload(page, {
    state: "Texas",
    number: "TX 12-345",
    expiresOn: "2020-01-01",
    file: PDF_FILE,
  });
  await expect(page.getByLabel("Valid until (last day)")).toHaveAccessibleDescription(
    "This certificate has already expired.",
  );
  await expectNoAxeViolations(page);
  expect(
    queryAll("SELECT id FROM tax_exemption_certificates WHERE organization_id = ?", company.organizationId),
  ).toEqual([]);

  await upload(page, {
    state: "Texas",
    number: "TX 12-345",
    expiresOn: nextYear,
    file: PDF_FILE,
  });
  await expect(status(page)).toHaveText("Certificate uploaded. We'll check it and mail you when it's verified.");
  const row = page.getByRole("row", { name: /Texas/ });
  await expect(row).toContainText("Waiting for us to check it");
  const { id } = queryOne<{ id: number }>(
    "SELECT id FROM tax_exemption_certificates WHERE organization_id = ?",
    company.organizationId,
  );
  const own = await page.request.get(`/account/company/tax-exemptions/${id}/file`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("application/pdf");
  expect(own.headers()["content-disposition"]).toBe(`attachment; filename="exemption-tx-${id}.pdf"`);
  expect(await own.body()).toEqual(PDF);

  // Another company's owner gets nothing.
  const stranger = await browser.newContext();
  const other = await approvedCompany(stranger.request, baseURL!, "US");
  await signInViaApi(stranger.request, baseURL!, other.email);
  expect((await stranger.request.get(`/account/company/tax-exemptions/${id}/file`)).status()).toBe(404);
  await stranger.close();

  const staffPage = await browser.newPage();
  await useSharedStaffSession(staffPage.context(), baseURL!, "staff");
  await staffPage.goto("/admin/tax");
  await staffPage.getByRole("link", { name: /Exemption certificates \(\d+ waiting\)/ }).click();
  await expect(staffPage.getByRole("heading", { level: 1, name: "Exemption certificates" })).toBeVisible();
  await expectNoAxeViolations(staffPage);
  await staffPage
    .getByRole("row", { name: new RegExp(company.name) })
    .getByRole("link", { name: "Texas", exact: true })
    .click();
  await expect(staffPage.getByRole("heading", { level: 1, name: `${company.name}: Texas certificate` })).toBeVisible();
  const file = await staffPage.request.get(`/admin/tax/certificates/${id}/file`);
  expect(await file.body()).toEqual(PDF);
  await waitForHydration(staffPage);
  await expectNoAxeViolations(staffPage);
  await staffPage.getByRole("button", { name: "Verify" }).click();
  await expect(status(staffPage)).toHaveText("Certificate verified; the company is mailed.");
  await expect(staffPage.getByRole("button", { name: "Verify" })).toHaveCount(0);
  await staffPage.close();

  expect(
    queryOne("SELECT status, decided_by IS NOT NULL AS decided FROM tax_exemption_certificates WHERE id = ?", id),
  ).toEqual({ status: "verified", decided: 1 });
  expect(
    queryAll<{ subject: string }>("SELECT subject FROM mail_queue WHERE to_address = ?", company.email).map(
      (m) => m.subject,
    ),
  ).toContain("Your exemption certificate for Texas is verified");
  expect(
    queryAll(
      "SELECT action FROM audit_log WHERE object_type = 'tax_exemption_certificate' AND object_id = ?",
      String(id),
    ),
  ).toEqual([{ action: "tax.certificate.verify" }]);
  await page.reload();
  await expect(page.getByRole("row", { name: /Texas/ })).toContainText("Verified");
});

test("staff reject a certificate with a reason the owner reads; a customer can't open the back office's copy", async ({
  page,
  browser,
  baseURL,
}) => {
  const company = await approvedCompany(page.request, baseURL!, "US");
  await signInViaApi(page.request, baseURL!, company.email);
  await page.goto("/account/company/tax-exemptions");
  await waitForHydration(page);
  await upload(page, {
    state: "Florida",
    number: "FL-999",
    expiresOn: nextYear,
    file: PDF_FILE,
  });
  await expect(status(page)).toBeVisible();
  const { id } = queryOne<{ id: number }>(
    "SELECT id FROM tax_exemption_certificates WHERE organization_id = ?",
    company.organizationId,
  );
  expect((await page.request.get(`/admin/tax/certificates/${id}/file`, { maxRedirects: 0 })).status()).not.toBe(200);

  const staffPage = await browser.newPage();
  await useSharedStaffSession(staffPage.context(), baseURL!, "staff");
  await staffPage.goto(`/admin/tax/certificates/${id}`);
  await waitForHydration(staffPage);
  await staffPage.getByRole("button", { name: "Reject" }).click();
  await expect(staffPage.getByLabel("Reason (the company is told)")).toHaveAttribute("aria-invalid", "true");
  await staffPage.getByLabel("Reason (the company is told)").fill("The certificate is not signed.");
  await staffPage.getByRole("button", { name: "Reject" }).click();
  await expect(status(staffPage)).toHaveText("Certificate rejected; the company is mailed.");
  await staffPage.close();

  await page.reload();
  await expect(page.getByRole("row", { name: /Florida/ })).toContainText(
    "Not accepted: The certificate is not signed.",
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an owner uploads a certificate through a plain form post; a buyer can't upload", async ({
    page,
    browser,
    baseURL,
  }) => {
    const company = await approvedCompany(page.request, baseURL!, "US");
    await signInViaApi(page.request, baseURL!, company.email);
    await page.goto("/account/company/tax-exemptions");
    await upload(page, {
      state: "Ohio",
      number: "OH-1",
      expiresOn: nextYear,
      file: PDF_FILE,
    });
    await expect(status(page)).toHaveText("Certificate uploaded. We'll check it and mail you when it's verified.");
    await expect(page.getByRole("row", { name: /Ohio/ })).toContainText("Waiting for us to check it");

    // A buyer of the same company sees the list but no upload form, and a post is refused.
    const buyer = await browser.newContext({ javaScriptEnabled: false });
    const email = uniqueEmail("exemption-buyer");
    await registerViaApi(buyer.request, baseURL!, email);
    const userId = queryOne<{ id: string }>(`SELECT id FROM "user" WHERE email = ?`, email).id;
    storeDb()
      .prepare(`INSERT INTO member (id, organizationId, userId, role, createdAt) VALUES (?, ?, ?, 'buyer', ?)`)
      .run(`mem-buyer-${userId}`, company.organizationId, userId, new Date().toISOString());
    await signInViaApi(buyer.request, baseURL!, email);
    const buyerPage = await buyer.newPage();
    await buyerPage.goto("/account/company/tax-exemptions");
    await expect(buyerPage.getByRole("row", { name: /Ohio/ })).toBeVisible();
    await expect(buyerPage.getByText("Your company's owners can upload certificates.")).toBeVisible();
    const post = await buyer.request.post("/account/company/tax-exemptions", {
      multipart: {
        state: "TX",
        number: "X1",
        expiresOn: nextYear,
        file: { name: "c.pdf", mimeType: "application/pdf", buffer: PDF },
      },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(403);
    await buyer.close();
    expect(
      queryAll("SELECT state FROM tax_exemption_certificates WHERE organization_id = ?", company.organizationId),
    ).toEqual([{ state: "OH" }]);
  });
});

test("a trade buyer whose company has a verified certificate for Michigan orders there without sales tax; the order and its invoice say which certificate", async ({
  page,
  baseURL,
}) => {
  await exemptOrderToMichigan(page, baseURL!, sqliteStore, 485);
});
