import { discountedPriceCents } from "../../../app/lib/pricing.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryOne, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";

/** A product with the seeded volume breaks (10+ −5%, 50+ −10%) and stock for 50. */
function productWithBreaks() {
  return queryOne<{ id: number; sale_price_cents: number }>(
    "SELECT p.id, p.sale_price_cents FROM products p WHERE p.archived_at IS NULL AND p.stock_quantity >= 60 AND EXISTS (SELECT 1 FROM volume_breaks v WHERE v.product_id = p.id) ORDER BY p.id DESC LIMIT 1",
  );
}
const off = discountedPriceCents;

test("the product page shows its volume breaks and the price for the quantity typed; the cart charges the break", async ({
  page,
}) => {
  const p = productWithBreaks();
  await page.goto(`/shop/${p.id}`);
  const table = page.getByRole("table", { name: "Buy more, pay less" });
  await expect(table.getByRole("row")).toHaveText([
    /Quantity\s*Price each\s*Saving/,
    new RegExp(`1–9\\s*\\${usd(p.sale_price_cents)}`),
    new RegExp(`10–49\\s*\\${usd(off(p.sale_price_cents, 5))}\\s*5%`),
    new RegExp(`50\\+\\s*\\${usd(off(p.sale_price_cents, 10))}\\s*10%`),
  ]);
  await expectNoAxeViolations(page);

  await waitForHydration(page);
  await page.getByLabel("Quantity").fill("12");
  await expect(page.getByTestId("price-for-quantity")).toHaveText(
    `Price for 12: ${usd(off(p.sale_price_cents, 5))} each, ${usd(off(p.sale_price_cents, 5) * 12)} in all`,
  );
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /added to your cart/i })).toBeVisible();

  await page.goto("/cart");
  const row = page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: /./ }) })
    .first();
  await expect(row.getByTestId("unit-price")).toContainText(usd(off(p.sale_price_cents, 5)));
  await expect(row.getByTestId("unit-price")).toContainText("Volume price");
  await expect(row.getByTestId("line-total")).toHaveText(usd(off(p.sale_price_cents, 5) * 12));
  // Down to 9: back to list, at once and after the server answers.
  await waitForHydration(page);
  for (let i = 0; i < 3; i++) {
    await row.getByRole("button", { name: "Decrease quantity" }).click();
    await expect(row.getByTestId("line-quantity")).toHaveText(String(11 - i));
  }
  await expect(row.getByTestId("line-total")).toHaveText(usd(p.sale_price_cents * 9));
  await expect(row.getByTestId("unit-price")).not.toContainText("Volume price");
});
