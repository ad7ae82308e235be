import { readFileSync } from "node:fs";
import type { Download } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryOne, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { addToCartViaHttp, checkoutTokenViaHttp, placeOrderViaHttp } from "../support/orders.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { signInViaApi } from "../shopping/support.ts";

async function pdfTextOf(download: Download): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(readFileSync(await download.path()))), {
    mergePages: true,
  });
  return text.replace(/\s+/g, " ");
}

function stockedProduct(): number {
  return queryOne<{ id: number }>(
    "SELECT id FROM products WHERE archived_at IS NULL AND stock_quantity >= 200 ORDER BY id DESC LIMIT 1 OFFSET 7",
  ).id;
}

test("a customer and staff download the same invoice; nobody else gets it", async ({ page, browser, baseURL }) => {
  const email = uniqueEmail("invoice");
  await registerViaApi(page.request, baseURL!, email);
  await signInViaApi(page.request, baseURL!, email);
  const number = await placeOrderViaHttp(page.request, baseURL!, stockedProduct(), 2);
  await page.goto(`/account/orders/${number}`);
  await expectNoAxeViolations(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download invoice (PDF)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/);
  const text = await pdfTextOf(download);
  const invoiceNumber = download.suggestedFilename().replace(".pdf", "");
  const order = queryOne<{ total_cents: number }>("SELECT total_cents FROM orders WHERE number = ?", number);
  expect(text).toContain(`Invoice ${invoiceNumber}`);
  expect(text).toContain(`Order: ${number}`);
  expect(text).toContain(`Total ${usd(order.total_cents)}`);
  expect(text).toContain("No sales tax: we don't collect it for deliveries to New York.");

  // Staff get the same invoice (same number) from the back office's order page.
  const staff = await browser.newContext({ baseURL });
  await useSharedStaffSession(staff, baseURL!);
  const staffPage = await staff.newPage();
  await staffPage.goto(`/admin/orders/${number}`);
  const [staffDownload] = await Promise.all([
    staffPage.waitForEvent("download"),
    staffPage.getByRole("link", { name: "Invoice (PDF)" }).click(),
  ]);
  expect(staffDownload.suggestedFilename()).toBe(`${invoiceNumber}.pdf`);
  await staff.close();

  // Another customer: 404; signed out: to the login page; a guest link that isn't one: 404.
  const other = await browser.newContext({ baseURL });
  const otherEmail = uniqueEmail("invoice-other");
  await registerViaApi(other.request, baseURL!, otherEmail);
  await signInViaApi(other.request, baseURL!, otherEmail);
  expect((await other.request.get(`/account/orders/${number}/invoice.pdf`)).status()).toBe(404);
  await other.close();
  const anonymous = await browser.newContext({ baseURL });
  const signedOut = await anonymous.request.get(`/account/orders/${number}/invoice.pdf`, { maxRedirects: 0 });
  expect([302, 303]).toContain(signedOut.status());
  expect(signedOut.headers()["location"]).toBe("/login");
  expect((await anonymous.request.get(`/orders/${"x".repeat(32)}/invoice.pdf`)).status()).toBe(404);
  // A customer can't reach the back office's copy.
  expect((await page.request.get(`/admin/orders/${number}/invoice.pdf`)).status()).toBe(404);
  await anonymous.close();
});

test("a guest's order has no invoice until it is confirmed", async ({ page, baseURL }) => {
  await addToCartViaHttp(page.request, baseURL!, stockedProduct(), { quantity: 1 });
  const checkoutToken = await checkoutTokenViaHttp(page.request);
  const form = {
    checkoutToken,
    email: uniqueEmail("invoice-guest"),
    country: "US",
    name: "Gus Guest",
    line1: "1 Main Street",
    line2: "",
    city: "New York",
    region: "",
    postcode: "10001",
    paymentMethod: "pay-on-delivery",
  };
  const placed = await page.request.post("/checkout", { form, headers: { origin: baseURL! }, maxRedirects: 0 });
  const token = /^\/orders\/([A-Za-z0-9_-]{32})/.exec(placed.headers()["location"] ?? "")?.[1];
  expect(token, placed.headers()["location"]).toBeTruthy();
  await page.goto(`/orders/${token}`);
  await expect(page.getByRole("heading", { level: 1, name: /^Order TH-/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download invoice (PDF)" })).toHaveCount(0);
  const answer = await page.request.get(`/orders/${token}/invoice.pdf`);
  expect(answer.status()).toBe(409);
  expect(await answer.text()).toContain("This order hasn't been placed, so it has no invoice yet.");
});
