import { expect, test } from "../support/fixtures.ts";
import {
  cartRow,
  cartRows,
  confirmedOrderNumber,
  expectCartCount,
  expectCartTotals,
  fillCheckout,
  ordersFor,
  placeOrderButton,
  readProduct,
  setProduct,
  summary,
  UK_ADDRESS,
  US_ADDRESS,
} from "./support.ts";
import { uniqueEmail } from "../support/accounts.ts";

test.describe.configure({ timeout: 60_000 });
test.use({ javaScriptEnabled: false });

test.describe("without JavaScript", () => {
  test("add from the product page, plus, minus and remove on /cart, with the totals", async ({ page }) => {
    const p = setProduct(260, { stock: 30, priceCents: 1_250, discountPercent: null });
    const q = setProduct(261, { stock: 30, priceCents: 900, discountPercent: null });
    await page.goto(`/shop/${p.id}`);
    const main = page.getByRole("main");
    await main.getByRole("radio", { name: p.colors[1] }).check();
    await main.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    await main.getByRole("button", { name: "Add to cart" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(cartRows(page)).toHaveCount(1);
    await expect(cartRow(page, p.title)).toContainText(`Color: ${p.colors[1]}`);
    await expectCartTotals(page, 2, 2_500);
    await expectCartCount(page, 2);

    await page.goto(`/shop/${q.id}`);
    await page.getByRole("main").getByRole("button", { name: "Add to cart" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expectCartTotals(page, 3, 3_400);

    const rowP = cartRow(page, p.title);
    const rowQ = cartRow(page, q.title);
    await expect(rowQ.getByRole("button", { name: "Decrease quantity" })).toBeDisabled();
    await rowP.getByRole("button", { name: "Increase quantity" }).click();
    await expect(rowP.getByTestId("line-quantity")).toHaveText("3");
    await expect(rowP.getByTestId("line-total")).toHaveText("$37.50");
    await expectCartTotals(page, 4, 4_650);
    await rowP.getByRole("button", { name: "Decrease quantity" }).click();
    await rowP.getByRole("button", { name: "Decrease quantity" }).click();
    await expect(rowP.getByTestId("line-quantity")).toHaveText("1");
    await expect(rowP.getByRole("button", { name: "Decrease quantity" })).toBeDisabled();
    await expectCartTotals(page, 2, 2_150);
    await rowQ.getByRole("button", { name: `Remove ${q.title}` }).click();
    await expect(cartRows(page)).toHaveCount(1);
    await expectCartTotals(page, 1, 1_250);
    await rowP.getByRole("button", { name: `Remove ${p.title}` }).click();
    await expect(page.getByRole("main")).toContainText("Your cart is empty.");
    await expectCartTotals(page, 0, 0);
  });

  test("a refused change shows its message on the page", async ({ page }) => {
    const p = setProduct(262, { stock: 5, priceCents: 1_000, discountPercent: null });
    await page.goto(`/shop/${p.id}`);
    await page.getByRole("main").getByRole("spinbutton", { name: "Quantity" }).fill("2");
    await page.getByRole("main").getByRole("button", { name: "Add to cart" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    // The page offers 3 (rendered with a stock of 5); the stock drops to 2 before the click.
    setProduct(p.id, { stock: 2 });
    await cartRow(page, p.title).getByRole("button", { name: "Increase quantity" }).click();
    await expect(page.getByRole("alert")).toHaveText(`Only 2 of ${p.title} in stock.`);
    await expect(cartRow(page, p.title).getByTestId("line-quantity")).toHaveText("2");
    await expect(cartRow(page, p.title).getByRole("button", { name: "Increase quantity" })).toBeDisabled();
  });

  test("wishlist toggle from the product page", async ({ page }) => {
    const p = setProduct(263, { stock: 30 });
    await page.goto(`/shop/${p.id}`);
    await expect(page.getByRole("main").getByRole("button", { name: "Add to Wishlist" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    await page.getByRole("main").getByRole("button", { name: "Add to Wishlist" }).click();
    await expect(page).toHaveURL(/\/wishlist$/);
    await expect(page.getByRole("main").locator(`tbody a[href="/shop/${p.id}"]`)).toBeVisible();
    await page
      .getByRole("main")
      .getByRole("button", { name: `Add ${p.title} to cart` })
      .click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(cartRows(page)).toHaveCount(1);
    await page.goto("/wishlist");
    await page
      .getByRole("main")
      .getByRole("button", { name: `Remove ${p.title} from wishlist` })
      .click();
    await expect(page).toHaveURL(/\/wishlist$/);
    await expect(page.getByRole("main")).toContainText("Your wishlist is empty.");
  });

  test("checkout: the market picker, validation messages, then the order in pounds and its confirmation page", async ({
    page,
  }) => {
    const p = setProduct(264, { stock: 30, priceCents: 5_000, discountPercent: null, ukPricePence: 4_000 });
    const email = uniqueEmail("nojs");
    await page.goto(`/shop/${p.id}`);
    await expect(page.getByRole("main").getByText("$50.00", { exact: true })).toBeVisible();
    // The header's market picker is a form: it works without JavaScript and comes back to this page.
    await page.getByLabel("Market", { exact: true }).selectOption({ label: "United Kingdom (GBP £)" });
    await page.getByRole("button", { name: "Change market" }).click();
    await expect(page).toHaveURL(new RegExp(`/shop/${p.id}$`));
    await expect(page.getByRole("main").getByText("£40.00", { exact: true })).toBeVisible();
    await page.getByRole("main").getByRole("button", { name: "Add to cart" }).click();
    await page.getByRole("link", { name: "Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(summary(page, "shipping")).toHaveText("£9.99");
    await expect(page.getByRole("main")).toContainText("UK orders ship at a flat £9.99");

    // A UK address with a US ZIP: the page comes back with the message and the UK summary.
    await fillCheckout(page, { ...UK_ADDRESS, email, postcode: "10001" });
    await placeOrderButton(page).click();
    await expect(page.getByRole("main").getByText("Enter a valid UK postcode, like SW1A 1AA")).toBeVisible();
    await expect(page.getByRole("main").getByLabel("Country")).toHaveValue("GB");
    await expect(summary(page, "shipping")).toHaveText("£9.99");
    await expect(summary(page, "total")).toHaveText("£49.99");
    await expect(page.getByRole("main").getByLabel("Full name")).toHaveValue(UK_ADDRESS.name);
    expect(ordersFor(email)).toHaveLength(0);

    await page
      .getByRole("main")
      .getByLabel(/^(ZIP code|Postcode)$/)
      .fill("EC1A 1BB");
    await placeOrderButton(page).click();
    const number = await confirmedOrderNumber(page);
    await expect(summary(page, "total")).toHaveText("£49.99");
    expect(ordersFor(email)).toMatchObject([{ number, currency: "gbp", ship_country: "GB", total_cents: 4_999 }]);
  });

  test("a double click on Place order makes exactly one order and shows it", async ({ page }) => {
    const p = setProduct(265, { stock: 30, priceCents: 1_500, discountPercent: null });
    const email = uniqueEmail("nojs-double");
    await page.goto(`/shop/${p.id}`);
    await page.getByRole("main").getByRole("button", { name: "Add to cart" }).click();
    await page.goto("/checkout");
    await fillCheckout(page, { ...US_ADDRESS, email });
    await placeOrderButton(page).dblclick();
    const number = await confirmedOrderNumber(page);
    await page.waitForTimeout(500);
    expect(ordersFor(email).map((o) => o.number)).toEqual([number]);
    expect(readProduct(p.id).stock_quantity).toBe(29);
  });
});
