import type { Page } from "@playwright/test";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { orderThroughCheckout, ordersFor, setProduct, signInViaApi, summary, US_ADDRESS } from "./support.ts";

test.describe.configure({ timeout: 90_000 });

interface StoredOrder {
  number: string;
  access_token: string;
  checkout_token: string;
  user_id: string | null;
}

function storedOrder(number: string): StoredOrder {
  return queryOne<StoredOrder>(
    "SELECT number, access_token, checkout_token, user_id FROM orders WHERE number = ?",
    number,
  );
}

function placeOrder(page: Page, productId: number, email?: string): Promise<string> {
  return orderThroughCheckout(page, productId, email ? { ...US_ADDRESS, email } : US_ADDRESS, 2);
}

/** The page's HTML and its single-fetch loader data (what the browser gets on a client navigation). */
async function htmlAndData(page: Page, path: string): Promise<{ html: string; data: string }> {
  const html = await page.request.get(path);
  const data = await page.request.get(`${path}.data`);
  expect(html.status(), path).toBe(200);
  expect(data.status(), `${path}.data`).toBe(200);
  return { html: await html.text(), data: await data.text() };
}

function expectNothingSecret(body: string, secrets: (string | null)[]) {
  for (const secret of secrets) if (secret) expect(body).not.toContain(secret);
  expect(body).not.toMatch(/access_token|checkout_token|user_?[iI]d|product_id|order_id/);
}

test.describe("order pages send only what they show", () => {
  test("a member's order page and the order list carry no token and no account id", async ({
    page,
    request,
    baseURL,
  }) => {
    const p = setProduct(383, { stock: 50, priceCents: 1_900, discountPercent: null });
    const email = uniqueEmail("private-order");
    await registerViaApi(request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);
    const number = await placeOrder(page, p.id);
    const order = storedOrder(number);
    const { id: userId } = queryOne<{ id: string }>('SELECT id FROM "user" WHERE email = ?', email);
    expect(order.user_id).toBe(userId);

    for (const path of [`/account/orders/${number}`, "/account/orders"]) {
      const { html, data } = await htmlAndData(page, path);
      expect(html).toContain(number);
      expect(data).toContain(number);
      expectNothingSecret(html, [order.access_token, order.checkout_token, userId]);
      expectNothingSecret(data, [order.access_token, order.checkout_token, userId]);
    }

    // The page still shows the order in full.
    await page.goto(`/account/orders/${number}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
    await expect(page.getByRole("main").getByRole("table").locator("tbody tr").getByRole("cell")).toHaveText([
      p.title + `Color: ${p.colors[0]}`,
      "2",
      "$19.00",
      "$38.00",
    ]);
    await expect(summary(page, "total")).toHaveText("$38.00");
    await expect(page.getByRole("main")).toContainText(US_ADDRESS.line1);
    await expect(page.getByRole("main")).toContainText("Payment: Pay on delivery");
  });

  test("a guest's order page carries neither the checkout token nor anything beyond what it shows", async ({
    page,
  }) => {
    const p = setProduct(384, { stock: 50, priceCents: 2_300, discountPercent: null });
    const email = uniqueEmail("private-guest");
    const number = await placeOrder(page, p.id, email);
    const [row] = ordersFor(email);
    const order = storedOrder(row.number);
    expect(order.number).toBe(number);
    const path = `/orders/${order.access_token}`;
    const { html, data } = await htmlAndData(page, path);
    expect(data).toContain(number);
    // The page's own address holds the link token (canonical URL); the loader data never does.
    expectNothingSecret(data, [order.access_token, order.checkout_token]);
    expectNothingSecret(html.replaceAll(path, "/orders/LINK"), [order.access_token, order.checkout_token]);

    await page.goto(`${path}?placed=1`);
    await expect(page.getByRole("main").getByRole("status")).toContainText(
      `Your order ${number} is reserved for you. Check your email to confirm your order`,
    );
    await expect(page.getByRole("main").getByRole("table").locator("tbody tr").getByRole("cell")).toHaveText([
      p.title + `Color: ${p.colors[0]}`,
      "2",
      "$23.00",
      "$46.00",
    ]);
  });
});
