import type { APIRequestContext, Page } from "@playwright/test";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { addToCartViaHttp, placeOrderViaHttp } from "../support/orders.ts";
import { waitForHydration } from "../support/site.ts";
import { cartRow, expectCartCount, setProduct, setStock, signInViaApi, storeDb, usd } from "./support.ts";

/**
 * "Order again" on a member's order page: the order's lines into the cart at today's prices, the
 * changed and missing lines named. Products 320–324 belong to this file.
 */

test.describe.configure({ timeout: 90_000 });

async function signedInCustomer(request: APIRequestContext, baseURL: string, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await registerViaApi(request, baseURL, email);
  await signInViaApi(request, baseURL, email);
  return queryOne<{ id: string }>('SELECT id FROM "user" WHERE email = ?', email).id;
}

function cartUnits(userId: string): number {
  const row = storeDb()
    .prepare("SELECT COALESCE(SUM(quantity), 0) AS n FROM cart_items WHERE owner = ?")
    .get(`u:${userId}`) as { n: number };
  return Number(row.n);
}

const orderAgainButton = (page: Page) =>
  page.getByRole("main").getByRole("button", { name: "Order again", exact: true });
const outcome = (page: Page) =>
  page.getByRole("main").getByRole("status").filter({ hasText: "in your cart at today's prices" });

test("a member orders a past order again: the cart fills at today's price, the changed and sold-out lines named", async ({
  page,
  baseURL,
}) => {
  const repriced = setProduct(320, { stock: 45, priceCents: 1_000, discountPercent: null });
  const soldOut = setProduct(321, { stock: 45, priceCents: 2_000, discountPercent: null });
  await signedInCustomer(page.request, baseURL!, "order-again");
  await addToCartViaHttp(page.request, baseURL!, soldOut.id, { quantity: 1 });
  const number = await placeOrderViaHttp(page.request, baseURL!, repriced.id, 2);
  setProduct(repriced.id, { priceCents: 1_250 });
  setStock(soldOut.id, 0);

  await page.goto(`/account/orders/${number}`);
  await waitForHydration(page);
  await expectCartCount(page, 0);
  await orderAgainButton(page).click();

  const status = outcome(page);
  await expect(status).toContainText("1 of 2 lines are in your cart at today's prices.");
  const lines = status
    .getByRole("list", { name: "These lines changed price or couldn't be added in full:" })
    .getByRole("listitem");
  await expect(lines).toHaveText([
    `${soldOut.title}, ${soldOut.colors[0]} (1 ordered): out of stock`,
    `${repriced.title}, ${repriced.colors[0]} (2 ordered): price changed from $10.00 to $12.50`,
  ]);
  await expectCartCount(page, 2);
  await expectNoAxeViolations(page);

  await status.getByRole("link", { name: "View your cart" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(cartRow(page, repriced.title).getByTestId("line-quantity")).toHaveText("2");
  await expect(cartRow(page, repriced.title)).toContainText(usd(2_500));
  await expect(cartRow(page, soldOut.title)).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the button is a plain form post; the page comes back with the outcome", async ({ page, baseURL }) => {
    const p = setProduct(322, { stock: 45, priceCents: 1_500, discountPercent: null });
    await signedInCustomer(page.request, baseURL!, "order-again-nojs");
    const number = await placeOrderViaHttp(page.request, baseURL!, p.id, 3);
    setProduct(p.id, { priceCents: 1_400 });

    await page.goto(`/account/orders/${number}?placed=1`);
    await orderAgainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/account/orders/${number}$`));
    await expect(outcome(page)).toContainText("1 of 1 line is in your cart at today's prices.");
    await expect(outcome(page).getByRole("listitem")).toHaveText([
      `${p.title}, ${p.colors[0]} (3 ordered): price changed from $15.00 to $14.00`,
    ]);
    await expectCartCount(page, 3);
  });
});

test.describe("refused posts write nothing", () => {
  test("from another site, signed out, or for another member's order", async ({ page, playwright, baseURL }) => {
    const p = setProduct(324, { stock: 45, priceCents: 900, discountPercent: null });
    const owner = await signedInCustomer(page.request, baseURL!, "order-again-owner");
    const number = await placeOrderViaHttp(page.request, baseURL!, p.id, 1);
    const path = `/account/orders/${number}`;
    const form = { intent: "order-again" };

    const forged = await page.request.post(path, {
      form,
      headers: { origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect([400, 403]).toContain(forged.status());
    expect(cartUnits(owner)).toBe(0);

    const signedOut = await playwright.request.newContext({ baseURL });
    try {
      const response = await signedOut.post(path, { form, headers: { origin: baseURL! }, maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers()["location"]).toBe("/login");
    } finally {
      await signedOut.dispose();
    }

    const other = await playwright.request.newContext({ baseURL });
    try {
      const stranger = await signedInCustomer(other, baseURL!, "order-again-stranger");
      expect((await other.post(path, { form, headers: { origin: baseURL! }, maxRedirects: 0 })).status()).toBe(404);
      expect((await other.get(path)).status()).toBe(404);
      expect(cartUnits(stranger)).toBe(0);
    } finally {
      await other.dispose();
    }
    expect(cartUnits(owner)).toBe(0);

    // The owner's own post from the store goes through.
    const own = await page.request.post(path, { form, headers: { origin: baseURL! }, maxRedirects: 0 });
    expect(own.status()).toBe(200);
    expect(cartUnits(owner)).toBe(1);
  });
});
