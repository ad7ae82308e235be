import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { NOT_FOUND_TEXT } from "../support/site.ts";
import { orderThroughCheckout, ordersFor, setProduct, signInViaApi, summary, US_ADDRESS, usd } from "./support.ts";

test.describe.configure({ timeout: 90_000 });

function orderOne(page: Page, productId: number, quantity = 1): Promise<string> {
  return orderThroughCheckout(page, productId, US_ADDRESS, quantity);
}

test.describe("order history", () => {
  test("lists the shopper's orders with their status; each has a detail page that only its owner sees", async ({
    page,
    request,
    baseURL,
    browser,
  }) => {
    const p = setProduct(250, { stock: 50, priceCents: 2_400, discountPercent: null });
    const q = setProduct(251, { stock: 50, priceCents: 700, discountPercent: null });
    const email = uniqueEmail("history");
    await registerViaApi(request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);

    const first = await orderOne(page, p.id, 2);
    await expect(page).toHaveURL(new RegExp(`/account/orders/${first}\\?placed=1$`));
    const second = await orderOne(page, q.id, 3);

    // The footer's Order Status link leads to the list.
    const footerLink = page.getByRole("contentinfo").getByRole("link", { name: "Order Status" });
    await expect(footerLink).toHaveAttribute("href", "/account/orders");
    await footerLink.click();
    await expect(page).toHaveURL(/\/account\/orders$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Order Status");
    const table = page.getByRole("main").getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveText(["Order", "Date", "Status", "Total"]);
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByRole("cell").nth(0)).toHaveText(second);
    await expect(rows.nth(0).getByRole("cell").nth(2)).toHaveText("Placed");
    await expect(rows.nth(0).getByRole("cell").nth(3)).toHaveText(usd(2_100));
    await expect(rows.nth(1).getByRole("cell").nth(0)).toHaveText(first);
    await expect(rows.nth(1).getByRole("cell").nth(2)).toHaveText("Placed");
    await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText(usd(4_800));

    await rows.nth(1).getByRole("link", { name: first }).click();
    await expect(page).toHaveURL(new RegExp(`/account/orders/${first}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${first}`);
    await expect(page.getByRole("main")).toContainText("Status: Placed");
    await expect(page.getByRole("main").getByRole("table").locator("tbody tr").getByRole("cell")).toHaveText([
      p.title + `Color: ${p.colors[0]}`,
      "2",
      "$24.00",
      "$48.00",
    ]);
    await expect(summary(page, "total")).toHaveText("$48.00");
    await expect(page.getByRole("main")).toContainText(US_ADDRESS.line1);
    expect(ordersFor(email).map((o) => o.number)).toEqual([first, second]);

    // Another signed-in shopper gets 404, and sees none of these orders in their own list.
    const other = await browser.newContext({ baseURL });
    try {
      const otherPage = await other.newPage();
      const otherEmail = uniqueEmail("other");
      await registerViaApi(other.request, baseURL!, otherEmail);
      await signInViaApi(otherPage.request, baseURL!, otherEmail);
      const response = await otherPage.goto(`/account/orders/${first}`);
      expect(response?.status()).toBe(404);
      await expect(otherPage.getByRole("main")).toContainText(NOT_FOUND_TEXT);
      await expect(otherPage.getByRole("main")).not.toContainText(p.title);
      await otherPage.goto("/account/orders");
      await expect(otherPage.getByRole("main")).toContainText("You haven't placed any orders yet.");
      await expect(otherPage.getByRole("main")).not.toContainText(first);
    } finally {
      await other.close();
    }

    // A signed-out visitor gets 404 too.
    const anonymous = await browser.newContext({ baseURL });
    try {
      const anonPage = await anonymous.newPage();
      const response = await anonPage.goto(`/account/orders/${first}`);
      expect(response?.status()).toBe(404);
      await expect(anonPage.getByRole("main")).toContainText(NOT_FOUND_TEXT);
      await anonPage.goto("/account/orders");
      await expect(anonPage.getByRole("main")).toContainText("Log in to see your orders.");
      // The order's number is not a key to the guest link either.
      expect((await anonymous.request.get(`/orders/${first}`)).status()).toBe(404);
    } finally {
      await anonymous.close();
    }
  });

  test("a guest order is reached only through its unguessable link", async ({ page }) => {
    const p = setProduct(252, { stock: 50, priceCents: 1_300, discountPercent: null });
    const email = uniqueEmail("guest-link");
    const number = await orderThroughCheckout(page, p.id, { ...US_ADDRESS, email });
    const [order] = ordersFor(email);
    expect(order.number).toBe(number);
    expect(order.access_token).toMatch(/^[A-Za-z0-9_-]{32}$/);

    for (const path of [
      `/orders/${randomBytes(24).toString("base64url")}`,
      `/orders/${order.access_token.slice(0, 31)}`,
      `/account/orders/${number}`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("main")).toContainText(NOT_FOUND_TEXT);
    }
    const response = await page.goto(`/orders/${order.access_token}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
  });
});
