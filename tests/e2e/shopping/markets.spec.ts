/**
 * Which market a shopper shops in (issue 51): a first visit is offered the market of its browser's
 * language and never switched to it by itself; choosing the UK prices the shop, the cart, the
 * checkout and the order in pounds; the header's picker changes market and a cart that changes
 * market is repriced and says so; catalog pages are cached per market and name each market's URL
 * (hreflang, canonical, sitemap); a US-market cart can't be sent to a UK address by a hand-made post.
 * The picker without JavaScript is in no-js.spec.ts.
 */
import { uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { addToCartViaHttp, checkoutTokenViaHttp } from "../support/orders.ts";
import { waitForHydration } from "../support/site.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  ordersFor,
  placeOrderButton,
  setProduct,
  summary,
  UK_ADDRESS,
} from "./support.ts";

const marketPicker = (page: import("@playwright/test").Page) => page.getByLabel("Market", { exact: true });
const price = (page: import("@playwright/test").Page, text: string) =>
  page.getByRole("main").getByText(text, { exact: true }).first();

test.describe("a first visit from a browser in British English", () => {
  test.use({ locale: "en-GB" });

  test("is offered the UK market and not switched to it; choosing it prices the shop, cart, checkout and order in pounds", async ({
    page,
  }) => {
    const p = setProduct(486, { stock: 40, priceCents: 6_000, discountPercent: null, ukPricePence: 4_800 });
    const email = uniqueEmail("market-uk");
    await page.goto(`/shop/${p.id}`);
    await waitForHydration(page);
    const offer = page.getByRole("region", { name: "Market suggestion" });
    await expect(offer).toContainText("Shopping from the United Kingdom? See prices in pounds sterling (GBP).");
    // Offered, not switched: the page stays in the US market until the shopper answers.
    await expect(price(page, "$60.00")).toBeVisible();
    await expect(marketPicker(page)).toHaveValue("us");
    await expectNoAxeViolations(page);

    await offer.getByRole("button", { name: "Shop in the United Kingdom" }).click();
    await expect(price(page, "£48.00")).toBeVisible();
    await expect(marketPicker(page)).toHaveValue("uk");
    await expect(offer).toHaveCount(0);

    await addFromProductPage(page, p.id, { quantity: 3 });
    await page.goto("/cart");
    await expect(page.getByTestId("total-price")).toHaveText("£144.00");
    await expect(page.getByTestId("cart-market")).toContainText(
      "Prices in pounds sterling (GBP) for delivery to the United Kingdom.",
    );
    await page.getByRole("link", { name: "Checkout" }).click();
    await expect(page.getByRole("main").getByLabel("Country").getByRole("option")).toHaveText(["United Kingdom"]);
    await fillCheckout(page, { ...UK_ADDRESS, email });
    await expect(summary(page, "total")).toHaveText("£153.99");
    await placeOrderButton(page).click();
    const number = await confirmedOrderNumber(page);
    await expect(summary(page, "total")).toHaveText("£153.99");
    expect(ordersFor(email)).toMatchObject([
      { number, currency: "gbp", subtotal_cents: 14_400, shipping_cents: 999, total_cents: 15_399 },
    ]);
  });

  test("staying in the US market is an answer too: the offer is not made again", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const offer = page.getByRole("region", { name: "Market suggestion" });
    await offer.getByRole("button", { name: "Stay in the United States" }).click();
    await expect(offer).toHaveCount(0);
    await page.goto("/shop");
    await waitForHydration(page);
    await expect(marketPicker(page)).toHaveValue("us");
    await expect(page.getByRole("region", { name: "Market suggestion" })).toHaveCount(0);
  });
});

test("changing market reprices the cart and says so once; each market's page is cached apart and names both markets' URLs", async ({
  page,
  browser,
  baseURL,
}) => {
  const p = setProduct(487, { stock: 40, priceCents: 2_500, discountPercent: null, ukPricePence: 1_999 });
  await addFromProductPage(page, p.id, { quantity: 2 });
  await page.goto("/cart");
  await waitForHydration(page);
  await expect(page.getByTestId("total-price")).toHaveText("$50.00");
  await marketPicker(page).selectOption({ label: "United Kingdom (GBP £)" });
  await page.getByRole("button", { name: "Change market" }).click();
  const notice = page.getByRole("main").getByRole("status").filter({
    hasText: "Your cart was repriced in pounds sterling (GBP) when you changed market to the United Kingdom.",
  });
  await expect(notice).toBeVisible();
  await expect(page.getByTestId("total-price")).toHaveText("£39.98");
  await expect(page.getByRole("main").getByText(/Price changed/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.reload();
  await expect(page.getByTestId("total-price")).toHaveText("£39.98");
  await expect(page.getByText("Your cart was repriced")).toHaveCount(0);

  // One visitor in each market asks for the same product page twice (the second from the store's
  // page cache): neither is ever shown the other's currency.
  const other = await browser.newContext({ baseURL });
  const usPage = await other.newPage();
  for (let round = 0; round < 2; round++) {
    await usPage.goto(`/shop/${p.id}`);
    await expect(price(usPage, "$25.00")).toBeVisible();
    await expect(usPage.getByRole("main")).not.toContainText("£");
    await page.goto(`/shop/${p.id}`);
    await expect(price(page, "£19.99")).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText("$");
  }
  const alternates = await usPage
    .locator('link[rel="alternate"][hreflang]')
    .evaluateAll((links) =>
      links.map(
        (l) =>
          `${l.getAttribute("hreflang")} ${new URL(l.getAttribute("href")!).pathname}${new URL(l.getAttribute("href")!).search}`,
      ),
    );
  expect(alternates).toEqual([`en-GB /shop/${p.id}?market=uk`, `en-US /shop/${p.id}`, `x-default /shop/${p.id}`]);
  await expect(usPage.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/shop/${p.id}$`));
  // The UK page's own URL shows pounds to anyone, and is its canonical URL.
  await usPage.goto(`/shop/${p.id}?market=uk`);
  await expect(price(usPage, "£19.99")).toBeVisible();
  // The picker stays on the visitor's own market (their cart's) and the page says whose prices these are.
  await expect(usPage.getByText("This page shows United Kingdom prices.")).toBeVisible();
  await expect(marketPicker(usPage)).toHaveValue("us");
  await expect(usPage.locator('link[rel="canonical"]')).toHaveAttribute(
    "href",
    new RegExp(`/shop/${p.id}\\?market=uk$`),
  );
  const sitemap = await (await usPage.request.get("/sitemap.xml")).text();
  expect(sitemap).toContain(`/shop/${p.id}?market=uk</loc>`);
  expect(sitemap).toMatch(new RegExp(`hreflang="en-GB" href="[^"]*/shop/${p.id}\\?market=uk"`));
  await other.close();
});

test("a US-market cart sent to a UK address by a hand-made post is refused and nothing is written", async ({
  page,
  baseURL,
}) => {
  const p = setProduct(488, { stock: 40, priceCents: 1_000, discountPercent: null, ukPricePence: 800 });
  await addToCartViaHttp(page.request, baseURL!, p.id);
  const email = uniqueEmail("market-mismatch");
  const response = await page.request.post("/checkout", {
    form: {
      checkoutToken: await checkoutTokenViaHttp(page.request),
      email,
      country: "GB",
      name: UK_ADDRESS.name,
      line1: UK_ADDRESS.line1,
      line2: "",
      city: UK_ADDRESS.city,
      region: "",
      postcode: UK_ADDRESS.postcode,
      paymentMethod: "pay-on-delivery",
    },
    headers: { origin: new URL(baseURL!).origin },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(409);
  expect(await response.text()).toContain(
    "Your cart is priced in US dollars (USD) for the United States. To deliver to the United Kingdom, change market at the top of the page: your cart will be repriced in pounds sterling (GBP).",
  );
  expect(ordersFor(email)).toHaveLength(0);
});
