import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForMail } from "../support/mail.ts";
import { placeOrderViaHttp } from "../support/orders.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { readProduct, setProduct, signInViaApi, US_ADDRESS } from "../shopping/support.ts";

/**
 * The back office's orders (issue 12, item 4). Each test owns products 440–459 and sets them to
 * a known state first. A customer orders in their own browser context, with the form posts the
 * store's pages make (the checkout screens themselves are tests/e2e/shopping/'s subject); staff
 * work in another, signed in as this worker's staff member (tests/e2e/support/staff.ts).
 */
test.describe.configure({ timeout: 120_000 });

interface Customer {
  email: string;
  /** The customer's session (the context's cookies), for the posts their pages make. */
  request: APIRequestContext;
  /** A tab in the customer's browser context, for what they see. */
  openPage(): Promise<Page>;
  close(): Promise<void>;
}

/** A signed-in customer in a browser context of their own. */
async function customer(browser: Browser, baseURL: string, tag: string): Promise<Customer> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
  const email = uniqueEmail(tag);
  await registerViaApi(context.request, baseURL, email);
  await signInViaApi(context.request, baseURL, email);
  return { email, request: context.request, openPage: () => context.newPage(), close: () => context.close() };
}

/**
 * The customer orders (to US_ADDRESS, pay on delivery) with the posts of the product page's "Add
 * to cart" and of the checkout form, on their own session. Returns the order number.
 */
async function placeOrder(c: Customer, baseURL: string, productId: number, quantity: number): Promise<string> {
  return placeOrderViaHttp(c.request, baseURL, productId, quantity);
}

const main = (page: Page) => page.getByRole("main");
const badge = (page: Page) => page.getByTestId("order-status");

async function openOrder(page: Page, number: string) {
  await page.goto(`/admin/orders/${number}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
}

async function act(page: Page, button: string, expected: RegExp) {
  await main(page).getByRole("button", { name: button, exact: true }).click();
  await expect(main(page).getByRole("status").filter({ hasText: expected })).toBeVisible();
}

async function ship(page: Page, carrier: string, tracking: string) {
  await main(page).getByLabel("Carrier").selectOption(carrier);
  await main(page).getByLabel("Tracking number").fill(tracking);
  await act(page, "Mark as shipped", /marked as shipped/);
}

test("a customer's order: staff find it by filter, pack it and ship it; the customer's page and mail show the tracking number", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(440, { stock: 40, priceCents: 3_000, discountPercent: null });
  const buyer = await customer(browser, baseURL!, "orders-buyer");
  try {
    const number = await placeOrder(buyer, baseURL!, p.id, 2);
    await useSharedStaffSession(page.context(), baseURL!);

    await page.goto("/admin/orders");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Orders");
    await main(page).getByLabel("Customer email").fill(buyer.email.toUpperCase());
    await main(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/email=/);
    const rows = main(page).getByRole("table").locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Placed");
    await expect(rows.first()).toContainText("$60.00");
    await rows.first().getByRole("link", { name: number }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${number}$`));
    await waitForHydration(page);
    await expect(badge(page)).toHaveText("Placed");
    await expect(main(page)).toContainText(buyer.email);
    await expect(main(page).getByRole("link", { name: "Customer account" })).toHaveAttribute(
      "href",
      /^\/admin\/customers\/.+/,
    );

    await act(page, "Mark as packed", new RegExp(`Order ${number} is marked as packed`));
    await expect(badge(page)).toHaveText("Packed");
    await ship(page, "DPD", "1550 1234 5678");
    await expect(badge(page)).toHaveText("Shipped");
    await expect(main(page).getByTestId("shipment")).toHaveText("DPD, tracking number 155012345678");
    const history = main(page).getByRole("list", { name: "Order history, oldest first" }).getByRole("listitem");
    await expect(history).toHaveCount(3);
    await expect(history.nth(1)).toContainText("Placed → Packed");
    await expect(history.nth(2)).toContainText("Packed → Shipped");
    await expect(history.nth(2)).toContainText("DPD, tracking number 155012345678");

    const buyerPage = await buyer.openPage();
    await buyerPage.goto(`/account/orders/${number}`);
    await expect(main(buyerPage)).toContainText("Status: Shipped");
    await expect(buyerPage.getByTestId("shipment")).toHaveText("Shipped with DPD. Tracking number: 155012345678");
    const steps = main(buyerPage).getByRole("list", { name: "Order history" }).getByRole("listitem");
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(0)).toContainText("Order placed");
    await expect(steps.nth(1)).toContainText("Packed");
    await expect(steps.nth(2)).toContainText("Shipped with DPD");
    await expectNoAxeViolations(buyerPage);

    const mail = await waitForMail(buyer.email, new RegExp(`Your order ${number} has shipped`));
    expect(mail.body).toContain("Tracking number: 155012345678");
    expect(mail.body).toContain(`/account/orders/${number}`);
    await waitForMail(buyer.email, new RegExp(`Your order ${number} is packed`));
  } finally {
    await buyer.close();
  }
});

test("cancelling an order puts its stock back through the ledger, and the customer sees why", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(441, { stock: 20, priceCents: 1_500, discountPercent: null });
  const buyer = await customer(browser, baseURL!, "orders-cancel");
  try {
    const number = await placeOrder(buyer, baseURL!, p.id, 3);
    expect(readProduct(p.id).stock_quantity).toBe(17);
    await useSharedStaffSession(page.context(), baseURL!);
    await openOrder(page, number);
    await main(page).getByLabel("Reason (optional, told to the customer)").fill("Out of stock at our supplier");
    await act(page, "Cancel order", /cancelled and its items are back in stock/);
    await expect(badge(page)).toHaveText("Cancelled");
    await expect(main(page)).toContainText("Nothing more can be done with this order.");
    expect(readProduct(p.id).stock_quantity).toBe(20);
    const ledger = queryAll<{ delta: number; reason: string; actor: string }>(
      "SELECT m.delta, m.reason, m.actor FROM stock_movements m JOIN orders o ON o.id = m.order_id WHERE o.number = ? ORDER BY m.id",
      number,
    );
    expect(ledger.map((l) => [l.delta, l.reason])).toEqual([
      [-3, "order"],
      [3, "cancellation"],
    ]);
    expect(ledger[1].actor).toMatch(/^staff:/);

    const buyerPage = await buyer.openPage();
    await buyerPage.goto(`/account/orders/${number}`);
    await expect(main(buyerPage)).toContainText("Status: Cancelled");
    await expect(buyerPage.getByTestId("cancellation")).toContainText("Reason: Out of stock at our supplier");
    await waitForMail(buyer.email, new RegExp(`Your order ${number} was cancelled`));
  } finally {
    await buyer.close();
  }
});

test("a return of part of a delivered order restocks what came back and shows on both sides", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(442, { stock: 30, priceCents: 2_000, discountPercent: null });
  const buyer = await customer(browser, baseURL!, "orders-return");
  try {
    const number = await placeOrder(buyer, baseURL!, p.id, 3);
    await useSharedStaffSession(page.context(), baseURL!);
    await openOrder(page, number);
    await act(page, "Mark as packed", /marked as packed/);
    await ship(page, "Royal Mail", "RM123456789GB");
    await act(page, "Mark as delivered", /marked as delivered/);
    await expect(badge(page)).toHaveText("Delivered");
    expect(readProduct(p.id).stock_quantity).toBe(27);

    const form = main(page).getByRole("form", { name: "Record a return" });
    await form.getByLabel(new RegExp(`^${p.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)).fill("2");
    await form.getByLabel("Reason (told to the customer)").selectOption("Faulty");
    await form.getByLabel("Yes, they can be sold again").check();
    await form.getByRole("button", { name: "Record return" }).click();
    await expect(
      main(page).getByRole("status").filter({ hasText: "Return recorded: 2 units, back in stock." }),
    ).toBeVisible();
    await expect(badge(page)).toHaveText("Delivered (partly returned)");
    expect(readProduct(p.id).stock_quantity).toBe(29);
    await expect(main(page).getByRole("region", { name: "Returns" })).toContainText("Reason: Faulty. Back in stock.");

    const buyerPage = await buyer.openPage();
    await buyerPage.goto(`/account/orders/${number}`);
    await expect(buyerPage.getByTestId("partial-return")).toBeVisible();
    const last = main(buyerPage).getByRole("list", { name: "Order history" }).getByRole("listitem").last();
    await expect(last).toContainText("Return received");
    await expect(last).toContainText(`2 × ${p.title}`);
    await expect(last).toContainText("Faulty");
    await waitForMail(buyer.email, new RegExp(`We received a return from your order ${number}`));
  } finally {
    await buyer.close();
  }
});

test("two staff acting on one order at once: the second is told it changed and sees where it stands", async ({
  page,
  context,
  baseURL,
  browser,
}) => {
  const p = setProduct(443, { stock: 30, priceCents: 1_000, discountPercent: null });
  const buyer = await customer(browser, baseURL!, "orders-race");
  try {
    const number = await placeOrder(buyer, baseURL!, p.id, 1);
    await useSharedStaffSession(page.context(), baseURL!);
    const other = await context.newPage();
    await openOrder(page, number);
    await openOrder(other, number);

    await act(page, "Mark as packed", /marked as packed/);
    // The second page still shows the order as placed; its cancel loses.
    await expect(badge(other)).toHaveText("Placed");
    await main(other).getByRole("button", { name: "Cancel order" }).click();
    await expect(main(other).getByRole("alert")).toHaveText(
      /Someone else changed this order while you had it open: it is now packed\. Nothing was changed/,
    );
    await expect(badge(other)).toHaveText("Packed");
    await expect(main(other).getByRole("button", { name: "Mark as shipped" })).toBeVisible();
    const events = queryAll(
      "SELECT e.to_status FROM order_events e JOIN orders o ON o.id = e.order_id WHERE o.number = ?",
      number,
    );
    expect(events).toEqual([{ to_status: "packed" }]);
    expect(readProduct(p.id).stock_quantity).toBe(29);
  } finally {
    await buyer.close();
  }
});

test("the packing slip prints the address and the items with a tick column and no prices", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(444, { stock: 30, priceCents: 4_200, discountPercent: null });
  const buyer = await customer(browser, baseURL!, "orders-slip");
  try {
    const number = await placeOrder(buyer, baseURL!, p.id, 4);
    await useSharedStaffSession(page.context(), baseURL!);
    await openOrder(page, number);
    await main(page).getByRole("link", { name: "Packing slip" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${number}/packing-slip$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Packing slip");
    await expect(page.getByTestId("slip-number")).toHaveText(number);
    await expect(main(page)).toContainText(US_ADDRESS.line1);
    await expect(main(page)).toContainText(US_ADDRESS.name);
    const sku = queryAll<{ sku: string }>("SELECT sku FROM products WHERE id = ?", p.id)[0].sku;
    const table = main(page).getByRole("table", { name: `Items to pack for order ${number}` });
    await expect(table.getByRole("columnheader")).toHaveText(["Packed", "SKU", "Item", "Colour", "Quantity"]);
    await expect(table.locator("tbody tr").getByRole("cell")).toHaveText([
      "Not ticked",
      sku,
      p.title,
      p.colors[0],
      "4",
    ]);
    await expect(page.getByTestId("slip-units")).toHaveText("4");
    expect(await main(page).innerText()).not.toContain("$");
    await expectNoAxeViolations(page);

    await page.emulateMedia({ media: "print" });
    await expect(main(page).getByRole("button", { name: "Print packing slip" })).toBeHidden();
    await expect(page.getByTestId("slip-number")).toBeVisible();
  } finally {
    await buyer.close();
  }
});

test("the order list and the order page pass axe; sorting is by links with aria-sort; bad filters are explained", async ({
  page,
  baseURL,
  browser,
}) => {
  const p = setProduct(445, { stock: 30, priceCents: 900, discountPercent: null });
  const buyer = await customer(browser, baseURL!, "orders-axe");
  try {
    const number = await placeOrder(buyer, baseURL!, p.id, 1);
    await useSharedStaffSession(page.context(), baseURL!);
    await page.goto("/admin/orders");
    await expect(main(page).getByRole("table").locator("tbody tr").first()).toBeVisible();
    const placedHeader = main(page).getByRole("columnheader", { name: /Placed/ });
    await expect(placedHeader).toHaveAttribute("aria-sort", "descending");
    await expect(main(page).getByRole("columnheader", { name: /Total/ })).toHaveAttribute("aria-sort", "none");
    await expectNoAxeViolations(page);
    await main(page)
      .getByRole("link", { name: /^Total/ })
      .click();
    await expect(page).toHaveURL(/sort=total/);
    await expect(main(page).getByRole("columnheader", { name: /Total/ })).toHaveAttribute("aria-sort", "descending");

    // A bad filter is reported beside its field.
    await page.goto("/admin/orders?number=nope&from=2024-02-31");
    await expect(main(page).getByLabel("Order number")).toHaveAttribute("aria-invalid", "true");
    await expect(main(page).getByText("An order number looks like TH-1A2B3C4D5E.")).toBeVisible();
    await expect(main(page).getByText("That date doesn't exist.")).toBeVisible();
    await expectNoAxeViolations(page);

    await openOrder(page, number);
    await expectNoAxeViolations(page);
    expect((await page.goto(`/admin/orders/TH-0000000000`))?.status()).toBe(404);
  } finally {
    await buyer.close();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff filter, pack, ship (a bad tracking number first) and are told when the page was stale", async ({
    page,
    baseURL,
    browser,
  }) => {
    const p = setProduct(446, { stock: 30, priceCents: 1_200, discountPercent: null });
    const buyer = await customer(browser, baseURL!, "orders-nojs");
    try {
      const number = await placeOrder(buyer, baseURL!, p.id, 1);
      await useSharedStaffSession(page.context(), baseURL!);
      await page.goto("/admin/orders");
      await main(page).getByLabel("Order number").fill(number.slice(3).toLowerCase());
      await main(page).getByRole("button", { name: "Filter" }).click();
      await expect(main(page).getByRole("table").locator("tbody tr")).toHaveCount(1);
      await main(page).getByRole("link", { name: number }).click();
      await expect(badge(page)).toHaveText("Placed");

      await main(page).getByRole("button", { name: "Mark as packed" }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/orders/${number}\\?done=pack$`));
      await expect(main(page).getByRole("status")).toHaveText("Marked as packed. The customer has been emailed.");
      await expect(badge(page)).toHaveText("Packed");

      await main(page).getByLabel("Carrier").selectOption("UPS");
      await main(page).getByLabel("Tracking number").fill("<nope>");
      await main(page).getByRole("button", { name: "Mark as shipped" }).click();
      await expect(main(page).getByLabel("Tracking number")).toHaveAttribute("aria-invalid", "true");
      await expect(
        main(page).getByText("A tracking number has 4 to 40 letters, digits or dashes.").first(),
      ).toBeVisible();
      await expect(badge(page)).toHaveText("Packed");

      // Someone else ships it meanwhile (in another tab); this page's form is now stale.
      const other = await page.context().newPage();
      await other.goto(`/admin/orders/${number}`);
      await other.getByLabel("Carrier").selectOption("DHL");
      await other.getByLabel("Tracking number").fill("JD014600003828");
      await other.getByRole("button", { name: "Mark as shipped" }).click();
      await expect(badge(other)).toHaveText("Shipped");

      await main(page).getByLabel("Tracking number").fill("1Z999AA10123456784");
      await main(page).getByRole("button", { name: "Mark as shipped" }).click();
      await expect(main(page).getByRole("alert")).toContainText("it is now shipped");
      await expect(badge(page)).toHaveText("Shipped");
      await expect(main(page).getByTestId("shipment")).toHaveText("DHL, tracking number JD014600003828");
    } finally {
      await buyer.close();
    }
  });
});
