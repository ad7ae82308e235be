/**
 * Tax at checkout (issue 51): a US shopper delivering to a state where the store collects sees the
 * sales tax and the new total before the order is placed, and the order keeps its tax lines; a UK
 * shopper's summary and order show the VAT inside the prices, without JavaScript too. Washington is
 * a state no other test touches.
 */
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { uniqueEmail } from "../support/accounts.ts";
import { waitForHydration } from "../support/site.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  ordersFor,
  placeOrderButton,
  SEATTLE,
  setProduct,
  shopInMarket,
  storeDb,
  summary,
  UK_ADDRESS,
  usd,
} from "./support.ts";

const taxLines = (page: Page) => page.getByRole("main").getByTestId("summary-tax-line");

async function checkoutWith(page: Page, productId: number, quantity: number) {
  if (quantity > 1) await addFromProductPage(page, productId, { quantity });
  else {
    // Without JavaScript too: the product page's own form.
    await page.goto(`/shop/${productId}`);
    await page.getByRole("main").getByRole("button", { name: "Add to cart" }).click();
    await expect(page).toHaveURL(/\/cart$/);
  }
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");
}

test("a US shopper sees Washington's sales tax and the new total before placing the order, which keeps them", async ({
  page,
}) => {
  // The store collects in Washington at 6.5%, which taxes delivery too (US delivery is free).
  storeDb()
    .prepare("UPDATE tax_us_states SET rate_ppm = 65000, collect = 1, version = version + 1 WHERE code = 'WA'")
    .run();
  const p = setProduct(480, { stock: 30, priceCents: 4_999, discountPercent: null });
  const email = uniqueEmail("tax-us");
  await checkoutWith(page, p.id, 2);
  await waitForHydration(page);
  await expect(summary(page, "tax")).toHaveText("By ZIP code, shown before you place the order");
  await fillCheckout(page, { ...SEATTLE, email });
  await placeOrderButton(page).click();

  // $99.98 at 6.5% is $6.4987: $6.50 of tax, rounded once.
  const main = page.getByRole("main");
  await expect(main.getByRole("alert")).toHaveText(
    "Sales tax of $6.50 applies to delivery to ZIP code 98109 (Washington), so your total is $106.48. Check the order summary, then place your order again.",
  );
  await expect(taxLines(page)).toHaveText(["Washington sales tax 6.5%$6.50"]);
  await expect(summary(page, "total")).toHaveText("$106.48");
  await expect(main.getByLabel("ZIP code")).toHaveValue("98109");
  expect(ordersFor(email)).toHaveLength(0);
  await expectNoAxeViolations(page);

  await placeOrderButton(page).click();
  const number = await confirmedOrderNumber(page);
  const [order] = ordersFor(email);
  expect(order).toMatchObject({ number, subtotal_cents: 9_998, tax_cents: 650, total_cents: 10_648 });
  await expect(taxLines(page)).toHaveText(["Washington sales tax 6.5%$6.50"]);
  await expect(page.getByTestId("summary-total")).toHaveText(usd(10_648));
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a UK shopper's summary and order show the VAT inside the prices; a US ZIP code outside the states is refused", async ({
    page,
    baseURL,
  }) => {
    const p = setProduct(481, { stock: 30, priceCents: 15_000, discountPercent: null, ukPricePence: 12_000 });
    const email = uniqueEmail("tax-uk");
    await shopInMarket(page, baseURL!, "uk");
    await checkoutWith(page, p.id, 1);
    await fillCheckout(page, { ...UK_ADDRESS, email });
    await placeOrderButton(page).click();
    const number = await confirmedOrderNumber(page);
    // £120.00 and £9.99 delivery: the VAT inside £129.99 is £21.67 (21.665 rounded half-up once).
    await expect(taxLines(page)).toHaveText(["VAT 20% (included)£21.67"]);
    await expect(page.getByTestId("summary-total")).toHaveText("£129.99");
    expect(ordersFor(email)).toMatchObject([{ number, currency: "gbp", tax_cents: 0, total_cents: 12_999 }]);

    await shopInMarket(page, baseURL!, "us");
    await checkoutWith(page, p.id, 1);
    await fillCheckout(page, { ...SEATTLE, email, postcode: "00901" });
    await placeOrderButton(page).click();
    await expect(
      page
        .getByRole("main")
        .getByText("We deliver in the 50 states and Washington, DC: enter a ZIP code of one of them"),
    ).toBeVisible();
    expect(ordersFor(email)).toHaveLength(1);
  });
});
