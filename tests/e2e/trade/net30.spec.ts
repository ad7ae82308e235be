import { expectNoAxeViolations } from "../support/axe.ts";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  ordersFor,
  placeOrderButton,
  setProduct,
  signInViaApi,
  storeDb,
  US_ADDRESS,
} from "../shopping/support.ts";
import { tradeCompany } from "./support.ts";

/** This file owns products 540–549. */
// One flow of three checkouts, a buyer, staff and four accessibility scans: past 60 s on a slow day
// (CI, 2026-11-27: timed out at its last checkout, twice, while the suite took 33 min).
test.describe.configure({ timeout: 120_000 });
const NET30 = "Invoice (business accounts, net 30)";

function giveNet30(organizationId: string, creditLimitCents: number) {
  storeDb()
    .prepare("UPDATE companies SET net30 = 1, credit_limit_cents = ? WHERE organization_id = ?")
    .run(creditLimitCents, organizationId);
}

function invoiceOf(orderNumber: string) {
  return queryOne<{ number: string; status: string; due_at: string; paid_at: string | null }>(
    "SELECT i.number, i.status, i.due_at, i.paid_at FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.number = ?",
    orderNumber,
  );
}

test("a company on net 30 orders on invoice within its credit; above it the order is refused; an overdue invoice shows on its page and the dashboard until staff mark it paid", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(540, { stock: 100, priceCents: 3_000, discountPercent: null });
  const email = uniqueEmail("net30");
  await registerViaApi(page.request, baseURL!, email);
  const company = tradeCompany([{ email, role: "owner" }], { name: "Net Thirty Ltd" });
  giveNet30(company.organizationId, 10_000);
  await signInViaApi(page.request, baseURL!, email);

  await addFromProductPage(page, p.id, { quantity: 2 });
  await page.goto("/checkout");
  const main = page.getByRole("main");
  await waitForHydration(page);
  await main.getByRole("radio", { name: NET30 }).check();
  await expect(main).toContainText(
    `On account: invoiced to ${company.name} (12-3456789), due 30 days after the invoice date. Credit available: $100.00 of $100.00.`,
  );
  await expectNoAxeViolations(page);
  await fillCheckout(page, US_ADDRESS);
  await placeOrderButton(page).click();
  const first = await confirmedOrderNumber(page);
  await expect(main).toContainText(`Payment: ${NET30}`);
  const [row] = ordersFor(email);
  expect(row).toMatchObject({ number: first, payment_method: "invoice-net30", payment_status: "invoiced_net30" });
  const invoice = invoiceOf(first);
  expect(invoice.status).toBe("unpaid");
  // The buyer can't mark it paid: the back office refuses a customer.
  const forged = await page.request.post(`/admin/orders/${first}`, {
    form: { intent: "mark-paid", version: "1" },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect([302, 303, 403, 404]).toContain(forged.status());
  expect(invoiceOf(first).status).toBe("unpaid");

  // The second order would take the unpaid invoices above the $100.00 limit.
  await addFromProductPage(page, p.id, { quantity: 2 });
  await page.goto("/checkout");
  await waitForHydration(page);
  await main.getByRole("radio", { name: NET30 }).check();
  await fillCheckout(page, US_ADDRESS);
  await placeOrderButton(page).click();
  await expect(main.getByRole("alert")).toContainText(`above its credit limit of $100.00`);
  expect(ordersFor(email)).toHaveLength(1);

  // The company's page shows the invoice; once past its due date, as overdue.
  storeDb()
    .prepare("UPDATE invoices SET due_at = ? WHERE number = ?")
    .run(new Date(Date.now() - 3 * 86_400_000 - 60_000).toISOString(), invoice.number);
  await page.goto("/account/company");
  const invoices = page.getByRole("region", { name: "Invoices and credit" });
  await expect(invoices).toContainText("Credit limit$100.00");
  await expect(invoices.getByRole("row").filter({ hasText: invoice.number })).toContainText("Overdue by 3 days");
  await expect(invoices.getByRole("alert")).toContainText("1 invoice is overdue");
  await expectNoAxeViolations(page);

  const staff = await browser.newContext({ baseURL });
  await useSharedStaffSession(staff, baseURL!, "staff");
  const admin = await staff.newPage();
  await admin.goto("/admin");
  await expect(
    admin
      .getByRole("region", { name: "Overdue invoices, oldest first" })
      .getByRole("link", { name: `${invoice.number} · ${company.name}` }),
  ).toBeVisible();
  await expectNoAxeViolations(admin);
  // The company's page in the back office lists its open invoices too.
  const applicationId = queryOne<{ application_id: number }>(
    "SELECT application_id FROM companies WHERE organization_id = ?",
    company.organizationId,
  ).application_id;
  await admin.goto(`/admin/trade/${applicationId}`);
  const staffView = admin.getByRole("region", { name: "Invoices and credit" });
  await expect(staffView.getByRole("row").filter({ hasText: invoice.number })).toContainText("Overdue by 3 days");
  await expectNoAxeViolations(admin);
  await staffView.getByRole("link", { name: first }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${first}$`));
  await waitForHydration(admin);
  const form = admin.getByRole("form", { name: "Invoice payment" });
  await expect(form).toContainText(`Invoice ${invoice.number} for`);
  await expect(form).toContainText("It is overdue.");
  await form.getByRole("button", { name: "Mark invoice paid" }).click();
  await expect(admin.getByRole("main").getByRole("status").filter({ hasText: "marked paid" })).toContainText(
    `Invoice ${invoice.number} is marked paid`,
  );
  await expect(admin.getByRole("form", { name: "Invoice payment" })).toHaveCount(0);
  expect(invoiceOf(first).status).toBe("paid");
  expect(
    queryOne<{ n: number }>(
      "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'invoice.mark-paid' AND object_id = ?",
      invoice.number,
    ).n,
  ).toBe(1);
  await expectNoAxeViolations(admin);
  await staff.close();

  // Paid: nothing overdue, and the credit is free again for the cart that was refused.
  await page.goto("/account/company");
  await expect(invoices).toContainText("No unpaid invoices.");
  await page.goto("/checkout");
  await waitForHydration(page);
  await main.getByRole("radio", { name: NET30 }).check();
  await fillCheckout(page, US_ADDRESS);
  await placeOrderButton(page).click();
  await confirmedOrderNumber(page);
  expect(ordersFor(email)).toHaveLength(2);
});
