import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { readFileSync } from "node:fs";
import { extractText, getDocumentProxy } from "unpdf";
import { queryAll, queryOne, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { linkIn, waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { fillCheckout, signInViaApi } from "../shopping/support.ts";
import { inviteBuyer } from "./support.ts";

test("a customer applies for a trade account, staff approve it, the owner invites a colleague who joins as a buyer", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  // The applicant, in their own browser.
  const applicantContext = await browser.newContext({ baseURL });
  const applicant = await applicantContext.newPage();
  const email = uniqueEmail("trade-owner");
  const company = `Hammer & Sons ${email.slice(12, 20)}`;
  await registerViaApi(applicant.request, baseURL!, email, GOOD_PASSWORD, "Olive Owner");
  await signInViaApi(applicant.request, baseURL!, email);
  await applicant.goto("/account");
  await applicant.getByRole("link", { name: "Trade account for your business" }).click();
  await expect(applicant.getByRole("heading", { level: 1, name: "Trade account" })).toBeVisible();
  await expectNoAxeViolations(applicant);

  await waitForHydration(applicant);
  await applicant.getByLabel("Company name").fill(company);
  await applicant.getByLabel("Country").selectOption("GB");
  await applicant.getByLabel("VAT number or EIN").fill("12-3456789");
  await applicant.getByLabel("Address line 1").fill("1 High Street");
  await applicant.getByLabel("Town or city").fill("London");
  await applicant.getByLabel("ZIP or postcode").fill("SW1A 1AA");
  await applicant.getByLabel("Phone").fill("+44 20 7946 0000");
  await applicant.getByRole("button", { name: "Apply for a trade account" }).click();
  // The UK needs a VAT number: the field says how it looks, and keeps what was typed.
  await expect(applicant.getByLabel("VAT number or EIN")).toHaveAttribute("aria-invalid", "true");
  await expect(
    applicant.getByText("Enter the VAT number as GB followed by 9 or 12 digits, like GB123456789"),
  ).toBeVisible();
  await expect(applicant.getByLabel("Company name")).toHaveValue(company);
  await expectNoAxeViolations(applicant);
  await applicant.getByLabel("VAT number or EIN").fill("GB 123 4567 89");
  await applicant.getByRole("button", { name: "Apply for a trade account" }).click();
  await expect(applicant.getByRole("main").getByRole("status")).toContainText(
    `Your application for ${company} is being reviewed.`,
  );
  await waitForMail(email, /^Your ToolHub Wholesale trade account application$/);

  // Staff approve it from the back office.
  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Trade accounts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Trade accounts" })).toBeVisible();
  await expectNoAxeViolations(page);
  const row = page.getByRole("row").filter({ hasText: company });
  await expect(row).toContainText("GB123456789");
  await row.getByRole("link", { name: company }).click();
  await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
  await expect(page.getByText("1 High Street, London, SW1A 1AA")).toBeVisible();
  // HMRC's check (its stand-in, tests/support/fake-services.mjs) says whose the number is.
  await expect(page.getByTestId("vat-check")).toHaveText("— HMRC: registered to Acme Builders Ltd");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Approved: the company's trade account is open and the applicant was emailed.",
  );
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  const audit = queryOne<{ action: string }>(
    "SELECT action FROM audit_log WHERE object_type = 'trade_application' AND after LIKE '%approved%' ORDER BY id DESC LIMIT 1",
  );
  expect(audit.action).toBe("trade.approve");

  // The owner is mailed, opens the company page and invites a colleague.
  const approved = await waitForMail(email, /trade account is approved/);
  await applicant.goto(new URL(linkIn(approved, "/account/company")).pathname);
  await expect(applicant.getByRole("heading", { level: 1, name: "Your company" })).toBeVisible();
  await expect(applicant.getByText(`${company} · your role: Owner`)).toBeVisible();
  await expectNoAxeViolations(applicant);
  const colleagueEmail = await inviteBuyer(applicant, "trade-buyer");
  await expect(applicant.getByText(`${colleagueEmail} · Buyer`)).toBeVisible();

  // The colleague registers, follows the mail's link and accepts.
  const invitation = await waitForMail(colleagueEmail, new RegExp(`^Invitation to join ${company}`));
  const colleagueContext = await browser.newContext({ baseURL });
  const colleague = await colleagueContext.newPage();
  await registerViaApi(colleague.request, baseURL!, colleagueEmail, GOOD_PASSWORD, "Bea Buyer");
  await signInViaApi(colleague.request, baseURL!, colleagueEmail);
  const joinUrl = new URL(linkIn(invitation, "/account/company/join"));
  await colleague.goto(joinUrl.pathname + joinUrl.search);
  await expect(colleague.getByText(`${company} invites you to order on its trade account as Buyer.`)).toBeVisible();
  await expectNoAxeViolations(colleague);
  await colleague.getByRole("button", { name: "Accept invitation" }).click();
  await expect(colleague).toHaveURL(/\/account\/company$/);
  await expect(colleague.getByText(`${company} · your role: Buyer`)).toBeVisible();
  await expect(colleague.getByRole("row").filter({ hasText: "Olive Owner" })).toContainText("Owner");
  // A buyer doesn't manage members.
  await expect(colleague.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  // The link is spent.
  await colleague.goto(joinUrl.pathname + joinUrl.search);
  await expect(colleague.getByText("This invitation no longer exists")).toBeVisible();

  // The owner gives the buyer a $200 limit per order.
  await applicant.reload();
  await applicant.getByLabel("Limit for Bea Buyer in USD (empty: no limit)").fill("200");
  await applicant.getByRole("button", { name: "Save limit for Bea Buyer" }).click();
  await expect(applicant.getByRole("main").getByRole("status")).toHaveText(
    "Bea Buyer may now order up to $200.00 per order; above that, an approver decides.",
  );
  await expect(applicant.getByText("Bea Buyer: $200.00 per order")).toBeVisible();

  // The buyer pastes a 50-line CSV with 3 bad lines into the quick order and adds the rest.
  const skus = queryAll<{ sku: string }>(
    "SELECT sku FROM products WHERE archived_at IS NULL AND stock_quantity >= 100 ORDER BY id LIMIT 47 OFFSET 5",
  ).map((r) => r.sku);
  const csv = [
    "sku,quantity",
    ...skus.slice(0, 20).map((sku) => `${sku},1`),
    "TH-0000000,2",
    ...skus.slice(20, 40).map((sku) => `${sku},1`),
    `${skus[0]},x`,
    ...skus.slice(40).map((sku) => `${sku},1`),
    "NOT-A-SKU,1",
  ];
  await colleague.goto("/quick-order");
  await waitForHydration(colleague);
  await colleague.getByLabel("CSV lines (sku,quantity)").fill(csv.join("\n"));
  await expect(colleague.getByRole("main").getByRole("status")).toHaveText("47 lines ready, 3 lines with a problem.");
  const checked = colleague.getByRole("table", { name: "Each line of the quick order and its result" });
  await expect(checked.getByRole("row", { name: /^Line 22/ })).toContainText("Unknown SKU TH-0000000.");
  await expect(checked.getByRole("row", { name: /^Line 43/ })).toContainText('"x" is not a quantity');
  await expect(checked.getByRole("row", { name: /^Line 51/ })).toContainText("Unknown SKU NOT-A-SKU.");
  await colleague.getByRole("button", { name: "Add to cart" }).click();
  await expect(colleague.getByRole("main").getByRole("status")).toContainText(
    "47 lines (47 units) added to your cart. 3 lines not added",
  );

  // Checkout: above the limit, so the order goes to the approvers with its PO number.
  await colleague.goto("/checkout");
  await waitForHydration(colleague);
  await expect(colleague.getByText("Your spending limit is $200.00 per order.", { exact: false })).toBeVisible();
  await fillCheckout(colleague, { name: "Bea Buyer", line1: "1 Site Road", city: "Leeds", postcode: "10001" });
  await colleague.getByLabel("PO number (optional)").fill("PO-4471");
  await colleague.getByRole("button", { name: "Place order" }).click();
  const waiting = colleague.getByRole("main").getByRole("status").filter({ hasText: "spending limit" });
  await expect(waiting).toContainText("is above your spending limit, so it was sent to your company's approvers.");
  const number = /TH-[0-9A-F]{10}/.exec((await waiting.textContent()) ?? "")![0];
  await expect(colleague.getByText("Status: Awaiting approval")).toBeVisible();
  await expect(colleague.getByText("PO number: PO-4471")).toBeVisible();
  await waitForMail(colleagueEmail, new RegExp(`^Your order ${number} is waiting for approval$`));

  // The owner approves it from their account pages; the buyer is mailed and the order is placed.
  const request = await waitForMail(email, new RegExp(`^Order ${number} needs your approval$`));
  await applicant.goto(new URL(linkIn(request, "/account/company/approvals")).pathname);
  await expect(applicant.getByRole("heading", { level: 2, name: `Order ${number} by Bea Buyer` })).toBeVisible();
  await expectNoAxeViolations(applicant);
  await applicant.getByRole("button", { name: `Approve order ${number}` }).click();
  await expect(applicant.getByRole("main").getByRole("status")).toHaveText(
    `Order ${number} is approved and placed; the buyer was emailed.`,
  );
  await expect(applicant.getByText("No order is waiting for approval.")).toBeVisible();
  const placedMail = await waitForMail(colleagueEmail, new RegExp(`^Your ToolHub Wholesale order ${number}$`));
  expect(placedMail.body).toContain("Your PO number: PO-4471.");
  await colleague.goto(`/account/orders/${number}`);
  await expect(colleague.getByText("Status: Placed")).toBeVisible();

  // The invoice PDF downloads from the order page; its text holds the PO number, VAT number and totals.
  const download = colleague.waitForEvent("download");
  await colleague.getByRole("link", { name: "Download invoice (PDF)" }).click();
  const pdf = readFileSync(await (await download).path());
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  const flat = text.replace(/\s+/g, "");
  const totals = queryOne<{ total_cents: number; shipping_cents: number }>(
    "SELECT total_cents, shipping_cents FROM orders WHERE number = ?",
    number,
  );
  for (const part of [
    "PO number: PO-4471",
    "VAT number: GB123456789",
    `Bill to${company}`,
    `Total${usd(totals.total_cents)}`,
    `Order: ${number}`,
  ])
    expect(flat, part).toContain(part.replace(/\s+/g, ""));
  expect(flat).toMatch(/^InvoiceINV-\d{6}/);

  await applicantContext.close();
  await colleagueContext.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the application form works as a plain form post", async ({ page, baseURL }) => {
    const email = uniqueEmail("trade-nojs");
    await registerViaApi(page.request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);
    await page.goto("/account/trade");
    await page.getByLabel("Company name").fill("No Script Supplies");
    await page.getByLabel("Country").selectOption("US");
    await page.getByLabel("VAT number or EIN").fill("123456789");
    await page.getByLabel("Address line 1").fill("1 Main Street");
    await page.getByLabel("Town or city").fill("Austin");
    await page.getByLabel("ZIP or postcode").fill("73301");
    await page.getByLabel("Phone").fill("(512) 555-0100");
    await page.getByRole("button", { name: "Apply for a trade account" }).click();
    await expect(page).toHaveURL(/\/account\/trade\?submitted=1$/);
    await expect(page.getByRole("main").getByRole("status")).toContainText("your application is sent");
    expect(
      queryOne<{ tax_id: string; status: string }>(
        'SELECT a.tax_id, a.status FROM trade_applications a JOIN "user" u ON u.id = a.user_id WHERE u.email = ?',
        email,
      ),
    ).toEqual({ tax_id: "12-3456789", status: "pending" });
  });
});

test("the trade pages send a guest to the login page and refuse a post from another site", async ({
  page,
  baseURL,
}) => {
  for (const path of ["/account/trade", "/account/company"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  const email = uniqueEmail("trade-csrf");
  await registerViaApi(page.request, baseURL!, email);
  await signInViaApi(page.request, baseURL!, email);
  const forged = await page.request.post("/account/trade", {
    form: { companyName: "Forged" },
    headers: { origin: "https://evil.example" },
  });
  // React Router's own cross-site check answers 400 before the action; the action's origin check (403) is the second line.
  expect([400, 403]).toContain(forged.status());
  expect(
    queryOne<{ n: number }>(
      'SELECT count(*) AS n FROM trade_applications a JOIN "user" u ON u.id = a.user_id WHERE u.email = ?',
      email,
    ),
  ).toEqual({ n: 0 });
  // A customer can't reach the back office's trade pages.
  expect((await page.request.get("/admin/trade")).status()).toBe(404);
});
