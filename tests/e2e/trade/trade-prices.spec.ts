import { discountedPriceCents } from "../../../app/lib/pricing.ts";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { queryOne, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { addToCartViaHttp } from "../support/orders.ts";
import { signInViaApi } from "../shopping/support.ts";
import { tradeBuyerOnPriceList } from "./support.ts";

test("a trade buyer sees their price on the grid, the product page and in the cart; an anonymous shopper never does", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("trade-grid");
  await registerViaApi(page.request, baseURL!, email);
  tradeBuyerOnPriceList(email, 12);
  await signInViaApi(page.request, baseURL!, email);

  await page.goto("/shop?sort=name");
  const firstCard = page
    .getByRole("listitem")
    .filter({ has: page.getByTestId("your-price") })
    .first();
  const title = (await firstCard.getByRole("heading", { level: 3 }).textContent())!.trim();
  const product = queryOne<{ id: number; sale_price_cents: number }>(
    "SELECT id, sale_price_cents FROM products WHERE title = ?",
    title,
  );
  const yours = discountedPriceCents(product.sale_price_cents, 12);
  await expect(firstCard.getByTestId("your-price")).toHaveText(`Your price ${usd(yours)}`);
  expect(await page.getByTestId("your-price").count()).toBe(15);

  await page.goto(`/shop/${product.id}`);
  await expect(page.getByTestId("price-for-quantity")).toContainText(`Your trade price for 1: ${usd(yours)} each`);
  await addToCartViaHttp(page.request, baseURL!, product.id, { quantity: 1 });
  await page.goto("/cart");
  const line = page.getByRole("row").filter({ hasText: title });
  await expect(line.getByTestId("unit-price")).toContainText(usd(yours));
  await expect(line.getByTestId("unit-price")).toContainText("Your trade price");

  // Someone without a session gets the shared page, without anyone's trade price.
  const anonymous = await browser.newContext({ baseURL });
  const guest = await anonymous.newPage();
  await guest.goto("/shop?sort=name");
  await expect(guest.getByRole("heading", { level: 3 }).first()).toBeVisible();
  await expect(guest.getByTestId("your-price")).toHaveCount(0);
  await guest.goto(`/shop/${product.id}`);
  await expect(guest.getByText("Your trade price")).toHaveCount(0);
  await anonymous.close();
});
