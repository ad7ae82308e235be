import type { Page } from "@playwright/test";
import { DEFAULTS_PORT } from "../../../playwright.config.ts";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, stripeOrigin, test } from "../support/fixtures.ts";
import { waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import {
  addFromProductPage,
  expectCartCount,
  fillCheckout,
  ordersFor,
  readProduct,
  setProduct,
  signInViaApi,
  shopInMarket,
  storeDb,
  UK_ADDRESS,
  US_ADDRESS,
  usd,
} from "../shopping/support.ts";

/**
 * Card payments through Stripe Checkout (issue 13), against the local Stripe stand-in that
 * scripts/e2e-server.mjs runs beside the store (tests/support/fake-stripe.mjs): its hosted page
 * sends the shopper back exactly as Stripe does, and its webhooks are signed like Stripe's.
 * Each test owns a product in the 450–459 range.
 */
test.describe.configure({ timeout: 60_000 });

const PAY_PAGE = /\/pay\/cs_test_[A-Za-z0-9_-]+$/;

function orderRow(number: string) {
  return storeDb()
    .prepare(
      "SELECT status, payment_status, paid_cents, refunded_cents, payment_session_id, payment_attempts FROM orders WHERE number = ?",
    )
    .get(number) as {
    status: string;
    payment_status: string;
    paid_cents: number | null;
    refunded_cents: number;
    payment_session_id: string | null;
    payment_attempts: number;
  };
}

async function checkoutByCard(page: Page, address: Parameters<typeof fillCheckout>[1]) {
  await page.goto("/checkout");
  await waitForHydration(page);
  const main = page.getByRole("main");
  await fillCheckout(page, address);
  await main.getByRole("radio", { name: "Card, Apple Pay or Google Pay" }).check();
  await expect(
    main.getByText("you pay on Stripe's secure payment page. We hold your items for 30 minutes"),
  ).toBeVisible();
  await main.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(PAY_PAGE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay ToolHub Wholesale");
}

async function signedInShopper(page: Page, baseURL: string, tag: string) {
  const email = uniqueEmail(tag);
  await registerViaApi(page.request, baseURL, email);
  await signInViaApi(page.request, baseURL, email);
  return email;
}

test("pay by card: stock held while paying, the order placed and mailed only once Stripe confirms, the cart emptied then", async ({
  page,
  baseURL,
}) => {
  const p = setProduct(450, { stock: 20, priceCents: 4_000, discountPercent: null });
  const email = await signedInShopper(page, baseURL!, "card-pay");
  await addFromProductPage(page, p.id, { quantity: 2 });
  await checkoutByCard(page, US_ADDRESS);

  // On Stripe's page: the order exists, waits for payment, holds its stock, and the cart is kept.
  const [order] = ordersFor(email);
  expect(order).toMatchObject({
    status: "awaiting_payment",
    payment_method: "card",
    payment_status: "pending",
    total_cents: 8_000,
  });
  expect(readProduct(p.id).stock_quantity).toBe(18);
  await expect(page.getByRole("main")).toContainText("Total due: $80.00");
  // Back at the checkout in another tab, the shopper is reminded of the order waiting for payment.
  const other = await page.context().newPage();
  await other.goto("/checkout");
  await expect(other.getByRole("main")).toContainText(
    `Your order ${order.number} from this cart is still waiting for payment.`,
  );
  await expect(other.getByRole("main").getByRole("link", { name: `Pay for order ${order.number}` })).toHaveAttribute(
    "href",
    `/account/orders/${order.number}`,
  );
  await other.close();
  const sentAt = Date.now();

  await page.getByRole("button", { name: "Pay $80.00" }).click();
  await expect(page).toHaveURL(new RegExp(`/account/orders/${order.number}\\?payment=return$`));
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(
    `We received your payment of $80.00, and order ${order.number} is placed`,
  );
  await expect(page.getByRole("main")).toContainText("Status: Placed");
  await expect(page.getByRole("main")).toContainText("Payment: Card, Apple Pay or Google Pay — paid");
  expect(orderRow(order.number)).toMatchObject({ status: "placed", payment_status: "paid", paid_cents: 8_000 });
  expect(readProduct(p.id).stock_quantity).toBe(18);
  const mail = await waitForMail(email, new RegExp(`order ${order.number}`), { after: sentAt });
  expect(mail.body).toContain("Card, Apple Pay or Google Pay (paid)");
  await expectCartCount(page, 0);
  await expectNoAxeViolations(page);
});

test("a UK shopper pays by card in pounds: Stripe is asked for pounds, and the order records what was paid", async ({
  page,
  baseURL,
}) => {
  const p = setProduct(459, { stock: 20, priceCents: 5_000, discountPercent: null, ukPricePence: 3_500 });
  const email = await signedInShopper(page, baseURL!, "card-uk");
  await shopInMarket(page, baseURL!, "uk");
  await addFromProductPage(page, p.id, { quantity: 2 });
  await checkoutByCard(page, UK_ADDRESS);
  // £70.00 of goods and £9.99 delivery; under £100, so no member discount.
  const [order] = ordersFor(email);
  expect(order).toMatchObject({ status: "awaiting_payment", currency: "gbp", total_cents: 7_999 });
  await expect(page.getByRole("main")).toContainText("Total due: £79.99");
  await page.getByRole("button", { name: "Pay £79.99" }).click();
  await expect(page).toHaveURL(new RegExp(`/account/orders/${order.number}\\?payment=return$`));
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(
    `We received your payment of £79.99, and order ${order.number} is placed`,
  );
  expect(orderRow(order.number)).toMatchObject({ status: "placed", payment_status: "paid", paid_cents: 7_999 });
});

test("cancel on the payment page releases the items; Try again pays the same order (never a second one)", async ({
  page,
  baseURL,
}) => {
  const p = setProduct(451, { stock: 5, priceCents: 2_500, discountPercent: null });
  const email = await signedInShopper(page, baseURL!, "card-cancel");
  await addFromProductPage(page, p.id, { quantity: 1 });
  await checkoutByCard(page, US_ADDRESS);
  expect(readProduct(p.id).stock_quantity).toBe(4);

  await page.getByRole("button", { name: "Cancel and return to the store" }).click();
  const [order] = ordersFor(email);
  await expect(page).toHaveURL(new RegExp(`/account/orders/${order.number}\\?payment=cancelled$`));
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(
    "You cancelled the payment, so this order was not placed.",
  );
  await expect(page.getByRole("main")).toContainText("Status: Expired (not paid)");
  expect(orderRow(order.number)).toMatchObject({ status: "expired", payment_status: "pending" });
  expect(readProduct(p.id).stock_quantity).toBe(5);
  await expectCartCount(page, 1);
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page).toHaveURL(PAY_PAGE);
  expect(readProduct(p.id).stock_quantity).toBe(4);
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(`order ${order.number} is placed`);
  expect(ordersFor(email)).toHaveLength(1);
  expect(orderRow(order.number)).toMatchObject({ status: "placed", payment_status: "paid", payment_attempts: 2 });
});

test("a guest's payment page that expires releases the items; the order page says so and offers Try again", async ({
  page,
  request,
  baseURL,
}) => {
  const p = setProduct(452, { stock: 3, priceCents: 1_000, discountPercent: null });
  const email = uniqueEmail("card-expire");
  await addFromProductPage(page, p.id, { quantity: 3 });
  await checkoutByCard(page, { ...US_ADDRESS, email });
  expect(readProduct(p.id).stock_quantity).toBe(0);
  const [order] = ordersFor(email);
  const session = orderRow(order.number).payment_session_id!;
  // Stripe expires the session (the shopper walked away): its webhook releases the stock.
  expect((await request.post(`${stripeOrigin(baseURL!)}/_test/checkout/sessions/${session}/expire_now`)).ok()).toBe(
    true,
  );
  await expect.poll(() => orderRow(order.number).status).toBe("expired");
  expect(readProduct(p.id).stock_quantity).toBe(3);

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment page has expired");
  await page.getByRole("link", { name: "Return to the store" }).click();
  await expect(page.getByRole("main").getByRole("status").first()).toContainText("so this order was not placed");
  await expect(page.getByRole("main").getByRole("button", { name: "Try again" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a delayed payment shows Payment processing until it settles; a failed one offers Try again", async ({
  page,
  request,
  baseURL,
}) => {
  const p = setProduct(453, { stock: 10, priceCents: 1_500, discountPercent: null });
  const email = await signedInShopper(page, baseURL!, "card-async");
  await addFromProductPage(page, p.id, { quantity: 2 });
  await checkoutByCard(page, US_ADDRESS);
  await page.getByRole("button", { name: "Pay by bank transfer" }).click();
  const [order] = ordersFor(email);
  const status = page.getByRole("main").getByRole("status").first();
  await expect(status).toContainText("Payment processing.");
  await expect.poll(() => orderRow(order.number).payment_status).toBe("processing");
  expect(readProduct(p.id).stock_quantity).toBe(8);

  const session = orderRow(order.number).payment_session_id!;
  expect(
    (await request.post(`${stripeOrigin(baseURL!)}/_test/checkout/sessions/${session}/async_payment_failed`)).ok(),
  ).toBe(true);
  // The page asks again by itself while it says "processing".
  await expect(status).toContainText("Your payment didn't go through, so this order was not placed.", {
    timeout: 15_000,
  });
  await expect(page.getByRole("main")).toContainText("Status: Payment failed");
  expect(readProduct(p.id).stock_quantity).toBe(10);
  await expectCartCount(page, 2);
});

test("staff refund part, then the rest, of a card payment from the back office; the customer is mailed each time", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(454, { stock: 10, priceCents: 3_000, discountPercent: null });
  const email = await signedInShopper(page, baseURL!, "card-refund");
  await addFromProductPage(page, p.id, { quantity: 2 });
  await checkoutByCard(page, US_ADDRESS);
  await page.getByRole("button", { name: "Pay $60.00" }).click();
  const [order] = ordersFor(email);
  await expect(page.getByRole("main").getByRole("status").first()).toContainText("is placed");

  const staff = await browser.newContext({ baseURL });
  await useSharedStaffSession(staff, baseURL!, "staff");
  const admin = await staff.newPage();
  await admin.goto(`/admin/orders/${order.number}`);
  await waitForHydration(admin);
  await expect(admin.getByTestId("payment-status")).toHaveText("Paid · received $60.00");
  const form = admin.getByRole("form", { name: "Refund the card payment" });
  await expect(form).toContainText("Up to $60.00 can be refunded.");

  await form.getByLabel("Amount to refund in US dollars (optional)").fill("70");
  await form.getByRole("button", { name: "Refund" }).click();
  await expect(admin.getByRole("main").getByRole("alert")).toHaveText("You can refund at most $60.00 on this order.");

  let sentAt = Date.now();
  await form.getByLabel("Amount to refund in US dollars (optional)").fill("15.50");
  await form.getByLabel("Reason (optional, told to the customer)").fill("One unit arrived scratched");
  await form.getByRole("button", { name: "Refund" }).click();
  await expect(admin.getByRole("main").getByRole("status").filter({ hasText: "Refunded $15.50" })).toHaveText(
    `Refunded $15.50 on order ${order.number}. The customer has been emailed.`,
  );
  await expect(admin.getByTestId("payment-status")).toHaveText("Paid · received $60.00 · refunded $15.50");
  let mail = await waitForMail(email, /Part of your payment for order/, { after: sentAt });
  expect(mail.body).toContain("We've refunded $15.50");
  expect(mail.body).toContain("One unit arrived scratched");

  sentAt = Date.now();
  await form.getByLabel("Amount to refund in US dollars (optional)").fill("");
  await form.getByRole("button", { name: "Refund" }).click();
  await expect(admin.getByRole("main").getByRole("status").filter({ hasText: "Refunded $44.50" })).toHaveText(
    `Refunded $44.50 on order ${order.number}. The customer has been emailed.`,
  );
  await expect(admin.getByTestId("payment-status")).toHaveText("Refunded · received $60.00 · refunded $60.00");
  await expect(admin.getByRole("form", { name: "Refund the card payment" })).toHaveCount(0);
  mail = await waitForMail(email, /Your payment for order .* was refunded/, { after: sentAt });
  expect(mail.body).toContain("That is the whole of the $60.00 you paid.");
  expect(orderRow(order.number)).toMatchObject({ payment_status: "refunded", refunded_cents: 6_000 });
  await expectNoAxeViolations(admin);

  await page.goto(`/account/orders/${order.number}`);
  await expect(page.getByRole("main")).toContainText(
    `Payment: Card, Apple Pay or Google Pay — refunded (${usd(6_000)})`,
  );
  await staff.close();
});

test("a payment that doesn't match the order is flagged for staff, never marked paid; staff refund it and cancel the order", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const p = setProduct(457, { stock: 6, priceCents: 2_000, discountPercent: null });
  const email = await signedInShopper(page, baseURL!, "card-mismatch");
  await addFromProductPage(page, p.id, { quantity: 1 });
  await checkoutByCard(page, US_ADDRESS);
  const [order] = ordersFor(email);
  const session = orderRow(order.number).payment_session_id!;
  const paid = await request.post(`${stripeOrigin(baseURL!)}/_test/checkout/sessions/${session}/complete`, {
    form: { outcome: "paid", amount_total: "1500" },
  });
  expect(paid.ok()).toBe(true);
  await expect
    .poll(() => storeDb().prepare("SELECT payment_flag FROM orders WHERE number = ?").get(order.number)?.payment_flag)
    .toContain("differs from the order total");
  expect(orderRow(order.number)).toMatchObject({
    status: "awaiting_payment",
    payment_status: "pending",
    paid_cents: 1_500,
  });
  expect(readProduct(p.id).stock_quantity).toBe(5);
  await page.goto(`/account/orders/${order.number}`);
  await expect(page.getByRole("main").getByRole("status").first()).toContainText("We're checking your payment.");

  const staff = await browser.newContext({ baseURL });
  await useSharedStaffSession(staff, baseURL!, "staff");
  const admin = await staff.newPage();
  await admin.goto("/admin");
  await expect(admin.getByRole("main").getByText("Payments needing attention")).toBeVisible();
  await admin.goto("/admin/orders?attention=payment");
  await expect(admin.getByRole("main").getByRole("link", { name: order.number })).toBeVisible();
  await admin.goto(`/admin/orders/${order.number}`);
  await waitForHydration(admin);
  await expect(admin.getByTestId("payment-flag")).toContainText(
    "Payment needs attention: Amount paid $15.00 USD differs from the order total $20.00 USD.",
  );
  const cancel = admin.getByRole("form", { name: "Cancel the order" });
  await cancel.getByRole("button", { name: "Cancel order" }).click();
  await expect(admin.getByRole("main").getByRole("alert")).toHaveText(
    "This order was paid by card. Refund the payment first (Refund, below), then cancel the order.",
  );
  await admin.getByRole("form", { name: "Refund the card payment" }).getByRole("button", { name: "Refund" }).click();
  await expect(admin.getByRole("main").getByRole("status").filter({ hasText: "Refunded $15.00" })).toBeVisible();
  await cancel.getByRole("button", { name: "Cancel order" }).click();
  await expect(admin.getByTestId("order-status")).toHaveText("Cancelled");
  expect(readProduct(p.id).stock_quantity).toBe(6);
  await admin.goto("/admin/orders?attention=payment");
  await expect(admin.getByRole("main").getByRole("link", { name: order.number })).toHaveCount(0);
  await staff.close();
});

test("without JavaScript: card checkout goes to the payment page and back", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  const p = setProduct(455, { stock: 4, priceCents: 1_200, discountPercent: null });
  const email = uniqueEmail("card-nojs");
  await page.goto(`/shop/${p.id}`);
  await page.getByRole("main").getByRole("button", { name: "Add to cart", exact: true }).click();
  await page.goto("/checkout");
  await fillCheckout(page, { ...US_ADDRESS, email });
  await page.getByRole("main").getByRole("radio", { name: "Card, Apple Pay or Google Pay" }).check();
  await page.getByRole("main").getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(PAY_PAGE);
  await page.getByRole("button", { name: "Pay $12.00" }).click();
  const [order] = ordersFor(email);
  await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{32}\?payment=return$/);
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(`order ${order.number} is placed`);
  await context.close();
});

test("with Stripe not configured, the card option isn't offered and a posted card order is refused", async ({
  browser,
}) => {
  const baseURL = `http://127.0.0.1:${DEFAULTS_PORT}`;
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/shop/456");
  await waitForHydration(page);
  await page.getByRole("main").getByRole("button", { name: "Add to cart", exact: true }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: /^Cart \(1 item\)/ })).toBeVisible();
  await page.goto("/checkout");
  await expect(page.getByRole("main").getByRole("radio", { name: "Pay on delivery" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("radio", { name: "Card, Apple Pay or Google Pay" })).toHaveCount(0);
  const html = await page.content();
  const token = /name="checkoutToken" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const response = await page.request.post("/checkout", {
    form: {
      checkoutToken: token,
      email: uniqueEmail("card-off"),
      country: "US",
      name: "A B",
      line1: "1 Main St",
      city: "Town",
      postcode: "10001",
      paymentMethod: "card",
    },
    headers: { origin: baseURL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("Card payment isn't available on this store. Choose another way to pay.");
  await context.close();
});
