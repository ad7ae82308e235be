import { expectNoAxeViolations } from "../support/axe.ts";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { addToCartViaHttp } from "../support/orders.ts";
import {
  confirmedOrderNumber,
  fillCheckout,
  placeOrderButton,
  setProduct,
  signInViaApi,
  US_ADDRESS,
} from "../shopping/support.ts";
import { tradeCompany } from "./support.ts";

/** This file owns products 550–555. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const quoteRow = (number: string) =>
  queryOne<{ status: string; order_id: number | null }>("SELECT status, order_id FROM quotes WHERE number = ?", number);

test("a trade buyer asks for a quote from the cart, staff price it, the buyer accepts it at the checkout and the order is made at the quoted price", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(550, { stock: 100, priceCents: 5_000, discountPercent: null });
  const email = uniqueEmail("quote-buyer");
  await registerViaApi(page.request, baseURL!, email);
  tradeCompany([{ email, role: "owner" }], { name: "Quote Co" });
  await signInViaApi(page.request, baseURL!, email);
  await addToCartViaHttp(page.request, baseURL!, p.id, { quantity: 4 });

  await page.goto("/cart");
  const ask = page.getByRole("region", { name: "Need a better price?" });
  await ask.getByLabel("Message for our team (optional)").fill("Regular monthly order");
  await expectNoAxeViolations(page);
  await ask.getByRole("button", { name: "Request a quote" }).click();
  await expect(page).toHaveURL(/\/account\/quotes\/QT-[0-9A-F]{8}\?requested=1$/);
  const number = page.url().match(/QT-[0-9A-F]{8}/)![0];
  await expect(page.getByRole("main").getByRole("status")).toContainText(`Your quote request ${number} is sent.`);
  await expect(page.getByRole("main")).toContainText("Waiting for our prices");
  await expectNoAxeViolations(page);
  expect(quoteRow(number).status).toBe("requested");

  const staff = await browser.newContext({ baseURL });
  await useSharedStaffSession(staff, baseURL!, "staff");
  const admin = await staff.newPage();
  await admin.goto("/admin/quotes");
  await admin.getByRole("link", { name: number }).click();
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { level: 1, name: `Quote ${number}` })).toBeVisible();
  await expect(admin.getByRole("main")).toContainText("Regular monthly order");
  const price = admin.getByLabel(new RegExp(`^Price per unit for ${p.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await price.fill("60.00");
  await admin.getByLabel("Valid until (the last day the prices hold)").fill(inDays(10));
  await admin.getByRole("button", { name: "Send quote" }).click();
  await expect(admin.getByRole("main").getByRole("alert")).toContainText("Please correct the highlighted fields.");
  await expect(admin.getByText("A quoted price can't be above the list price.")).toBeVisible();
  await price.fill("42.50");
  await admin.getByRole("button", { name: "Send quote" }).click();
  await expect(admin.getByRole("main").getByRole("status")).toHaveText(`Quote ${number} is sent to the buyer.`);
  await expect(admin.getByTestId("quote-state")).toHaveText("Ready to accept");
  await expectNoAxeViolations(admin);
  await staff.close();

  await page.goto("/account/quotes");
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("main")).toContainText("Quoted total for the goods: $170.00");
  await page.getByRole("link", { name: "Accept and check out" }).click();
  await expect(page.getByRole("main")).toContainText(`Accepting quote ${number}`);
  await expect(page.getByRole("main").getByRole("radio", { name: "Card, Apple Pay or Google Pay" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await fillCheckout(page, US_ADDRESS);
  await placeOrderButton(page).click();
  const orderNumber = await confirmedOrderNumber(page);
  const order = queryOne<{ id: number; total_cents: number; member_discount_cents: number }>(
    "SELECT id, total_cents, member_discount_cents FROM orders WHERE number = ?",
    orderNumber,
  );
  expect(order).toMatchObject({ total_cents: 17_000, member_discount_cents: 0 });
  expect(
    queryAll<{ unit_price_cents: number }>("SELECT unit_price_cents FROM order_lines WHERE order_id = ?", order.id),
  ).toEqual([{ unit_price_cents: 4_250 }]);
  expect(quoteRow(number)).toEqual({ status: "accepted", order_id: order.id });

  // Accepted: the quote's page links the order and offers nothing more.
  await page.goto(`/account/quotes/${number}`);
  await expect(page.getByRole("main")).toContainText(`Accepted: it became order ${orderNumber}.`);
  await expect(page.getByRole("link", { name: "Accept and check out" })).toHaveCount(0);
});

test("the back office's quotes refuse a customer, and nobody opens another buyer's quote", async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail("quote-nosy");
  await registerViaApi(page.request, baseURL!, email);
  await signInViaApi(page.request, baseURL!, email);
  const adminList = await page.request.get("/admin/quotes", { maxRedirects: 0 });
  expect([302, 303, 403, 404]).toContain(adminList.status());
  expect((await page.request.get("/account/quotes/QT-00000000")).status()).toBe(404);
  expect((await page.request.get("/account/quotes/nonsense%00")).status()).toBe(404);
  expect((await page.request.get("/checkout?quote=QT-00000000")).status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a cart of 50 units asks for a quote with a plain form post, and the request can be withdrawn", async ({
    page,
    baseURL,
  }) => {
    const p = setProduct(551, { stock: 200, priceCents: 900, discountPercent: null });
    const email = uniqueEmail("quote-nojs");
    await registerViaApi(page.request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);
    await addToCartViaHttp(page.request, baseURL!, p.id, { quantity: 49 });
    await page.goto("/cart");
    await expect(page.getByRole("region", { name: "Need a better price?" })).toHaveCount(0);
    await addToCartViaHttp(page.request, baseURL!, p.id, { quantity: 1 });
    await page.goto("/cart");
    await page.getByRole("button", { name: "Request a quote" }).click();
    await expect(page.getByRole("main").getByRole("status")).toContainText("is sent.");
    const number = page.url().match(/QT-[0-9A-F]{8}/)![0];
    await page.getByRole("button", { name: "Withdraw request" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(`Quote ${number} is declined.`);
    expect(quoteRow(number).status).toBe("declined");
  });
});
