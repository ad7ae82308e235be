import { expectNoAxeViolations } from "../support/axe.ts";
import { uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import {
  addFromProductPage,
  cartRows,
  confirmedOrderNumber,
  fillCheckout,
  placeOrderButton,
  setProduct,
  US_ADDRESS,
} from "./support.ts";

test.describe.configure({ timeout: 60_000 });

test.describe("accessibility (axe) of the shopping pages", () => {
  // Their axe scans are the /cart and /wishlist entries of tests/e2e/foundation/pages.spec.ts (a new guest's).
  test("empty cart and empty wishlist", async ({ page }) => {
    await page.goto("/cart");
    await expect(page.getByRole("main")).toContainText("Your cart is empty.");
    await page.goto("/wishlist");
    await expect(page.getByRole("main")).toContainText("Your wishlist is empty.");
  });

  test("cart, wishlist, checkout (also with errors) and the order page, with items", async ({ page }) => {
    const p = setProduct(270, { stock: 30, priceCents: 3_300, discountPercent: 10 });
    const q = setProduct(271, { stock: 30, priceCents: 1_000, discountPercent: null });
    await addFromProductPage(page, p.id, { quantity: 2 });
    await addFromProductPage(page, q.id);
    await page.getByRole("main").getByRole("button", { name: "Add to Wishlist" }).click();
    await expect(page.getByRole("main").getByRole("button", { name: "Add to Wishlist" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    setProduct(q.id, { priceCents: 1_100 }); // a flagged line is part of the page too

    await page.goto("/cart");
    await expect(cartRows(page)).toHaveCount(2);
    await expect(page.getByTestId("line-notice")).toHaveCount(1);
    await expectNoAxeViolations(page);

    await page.goto("/wishlist");
    await expect(page.getByRole("main").getByRole("table").locator("tbody tr")).toHaveCount(1);
    await expectNoAxeViolations(page);

    await page.goto("/checkout");
    await waitForHydration(page);
    await expectNoAxeViolations(page);
    await placeOrderButton(page).click();
    await expect(page.getByRole("main").getByText("Full name is required")).toBeVisible();
    await expectNoAxeViolations(page);

    await fillCheckout(page, { ...US_ADDRESS, email: uniqueEmail("axe") });
    await placeOrderButton(page).click();
    await confirmedOrderNumber(page);
    await expectNoAxeViolations(page);
  });
});
