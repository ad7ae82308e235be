import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";
import { queryAll } from "../support/db.ts";
import { waitForHydration } from "../support/site.ts";
import { expectCartCount, headerWishlist, MONEY, readProduct, setProduct, usd, type ShopProduct } from "./support.ts";

test.describe.configure({ timeout: 60_000 });

const truncated = (title: string) => (title.length > 30 ? `${title.slice(0, 30)}...` : title);
const wishlistRows = (page: Page) => page.getByRole("main").getByRole("table").locator("tbody tr");

async function expectWishlistCount(page: Page, n: number) {
  await expect(headerWishlist(page)).toHaveAccessibleName(
    n === 0 ? "Wishlist" : `Wishlist (${n} item${n === 1 ? "" : "s"})`,
  );
}

async function toggle(button: Locator, pressed: boolean) {
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", String(pressed));
}

test.describe("wishlist", () => {
  test("toggles from a card, the product page and the featured carousel; the table; Add to cart and Remove", async ({
    page,
  }) => {
    // 1. A product card's hover button on /shop.
    await page.goto("/shop");
    await waitForHydration(page);
    // A card with a title long enough to be cut in the table (products made by the back-office
    // tests of the same run may come first on the page).
    const cards = page.getByRole("main").getByRole("article");
    let index = 0;
    const idOf = async (i: number) =>
      Number((await cards.nth(i).getByRole("heading").getByRole("link").getAttribute("href"))!.split("/").pop());
    while (readProduct(await idOf(index)).title.length <= 30) index++;
    const card = cards.nth(index);
    const fromCard = readProduct(await idOf(index));
    await card.hover();
    const heart = card.getByRole("button", { name: "Add to wishlist" });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await toggle(heart, true);
    await expect(page.getByRole("alert")).toHaveText("Added to your wishlist.");
    await expectWishlistCount(page, 1);
    await toggle(heart, false);
    await expectWishlistCount(page, 0);
    await toggle(heart, true);
    // The button turns at once; the store may still be saving: a reload shows it saved.
    await expect(async () => {
      await page.reload();
      await expect(
        page.getByRole("main").getByRole("article").nth(index).getByRole("button", { name: "Add to wishlist" }),
      ).toHaveAttribute("aria-pressed", "true", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });

    // 2. The product page: a title of exactly 30 characters is not cut.
    const exact = setProduct(246, { stock: 49, priceCents: 2_000, discountPercent: 10 });
    expect(exact.title).toHaveLength(30);
    await page.goto(`/shop/${exact.id}`);
    await waitForHydration(page);
    const pageButton = page.getByRole("main").getByRole("button", { name: "Add to Wishlist" });
    await expect(pageButton).toHaveAttribute("aria-pressed", "false");
    await toggle(pageButton, true);
    await expectWishlistCount(page, 2);

    // 3. The home page's featured carousel.
    await page.goto("/");
    await waitForHydration(page);
    const carousel = page.getByRole("region", { name: "Featured products" });
    await carousel.getByRole("button", { name: "Pause Featured products" }).click();
    const slide = carousel.getByRole("group", { name: "Product 1 of 4" });
    const featuredTitle = (await slide.getByRole("heading", { level: 3 }).textContent())!.trim();
    const featuredId = Number(
      (await slide.getByRole("heading", { level: 3 }).getByRole("link").getAttribute("href"))!.split("/").pop(),
    );
    const featured = readProduct(featuredId);
    expect(featured.title).toBe(featuredTitle);
    const featuredButton = slide.getByRole("button", { name: "Add to Wishlist" });
    await expect(featuredButton).toHaveAttribute("aria-pressed", "false");
    await toggle(featuredButton, true);
    await expectWishlistCount(page, 3);

    // 4. The table, in the spec's columns.
    await headerWishlist(page).click();
    await expect(page).toHaveURL(/\/wishlist$/);
    await waitForHydration(page);
    const table = page.getByRole("main").getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveText([
      "N/A",
      "Title Name",
      "Product Image",
      "Color",
      "Stock Limit",
      "Unit Price",
      "Total Price",
      "Action",
    ]);
    await expect(wishlistRows(page)).toHaveCount(3);
    const expected = [fromCard, exact, featured];
    for (const [i, p] of expected.entries()) {
      const cells = wishlistRows(page).nth(i).getByRole("cell");
      await expect(cells.nth(0)).toHaveText(String(i + 1));
      await expect(cells.nth(1).getByRole("link")).toHaveText(truncated(p.title));
      await expect(cells.nth(1).getByRole("link")).toHaveAttribute("href", `/shop/${p.id}`);
      await expect(cells.nth(2).getByRole("img")).toHaveAttribute("alt", p.title);
      await expect(cells.nth(3)).toHaveText(p.colors[0]);
      await expect(cells.nth(4)).toHaveText(String(p.stock_quantity));
      await expect(cells.nth(5)).toHaveText(usd(p.price_cents));
      await expect(cells.nth(6)).toHaveText(usd(p.sale_price_cents));
      await expect(cells.nth(5)).toHaveText(MONEY);
      await expect(cells.nth(6)).toHaveText(MONEY);
    }
    expect(fromCard.title.length).toBeGreaterThan(30);
    await expect(wishlistRows(page).nth(0).getByRole("cell").nth(1)).toHaveText(`${fromCard.title.slice(0, 30)}...`);
    await expect(wishlistRows(page).nth(1).getByRole("cell").nth(1)).toHaveText(exact.title);
    await expect(wishlistRows(page).nth(1).getByRole("cell").nth(6)).toHaveText("$18.00");

    // 5. Action: Add to cart puts one in the cart and keeps the wishlist row.
    const exactRow = wishlistRows(page).nth(1);
    await exactRow.getByRole("button", { name: `Add ${exact.title} to cart` }).click();
    await expect(exactRow.getByRole("status")).toHaveText(`${exact.title} added to your cart.`);
    await expectCartCount(page, 1);
    await expect(wishlistRows(page)).toHaveCount(3);

    // 6. Action: Remove, down to the empty message.
    await wishlistRows(page)
      .nth(0)
      .getByRole("button", { name: `Remove ${fromCard.title} from wishlist` })
      .click();
    await expect(wishlistRows(page)).toHaveCount(2);
    await expectWishlistCount(page, 2);
    await expect(wishlistRows(page).nth(0).getByRole("cell").nth(0)).toHaveText("1");
    await page.reload();
    await expect(wishlistRows(page)).toHaveCount(2);
    await waitForHydration(page);
    await wishlistRows(page)
      .nth(0)
      .getByRole("button", { name: /^Remove .* from wishlist$/ })
      .click();
    await expect(wishlistRows(page)).toHaveCount(1);
    await wishlistRows(page)
      .nth(0)
      .getByRole("button", { name: /^Remove .* from wishlist$/ })
      .click();
    await expect(page.getByRole("main")).toContainText("Your wishlist is empty.");
    await expectWishlistCount(page, 0);

    // The cart still holds what was moved there.
    await page.goto("/cart");
    await expect(page.getByRole("main").getByRole("link", { name: exact.title, exact: true })).toBeVisible();
  });

  test("an out-of-stock product shows 'Stock out' and cannot be moved to the cart", async ({ page }) => {
    const gone = setProduct(241, { stock: 0, priceCents: 5_000, discountPercent: null });
    await page.goto(`/shop/${gone.id}`);
    await waitForHydration(page);
    await expect(page.getByTestId("stock")).toHaveText("Stock out");
    await expect(page.getByRole("main").getByRole("button", { name: "Add to cart" })).toBeDisabled();
    await toggle(page.getByRole("main").getByRole("button", { name: "Add to Wishlist" }), true);
    await expectWishlistCount(page, 1); // the server has it (the pressed state shows at once)
    await page.goto("/wishlist");
    const row = wishlistRows(page).first();
    await expect(row.getByRole("cell").nth(4)).toHaveText("Stock out");
    await expect(row.getByRole("button", { name: `Add ${gone.title} to cart` })).toBeDisabled();
  });

  test("an empty wishlist says so", async ({ page }) => {
    await page.goto("/wishlist");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wishlist");
    await expect(wishlistRows(page)).toHaveCount(1);
    await expect(page.getByRole("main")).toContainText(
      "Your wishlist is empty. Tap the heart on any product to save it here.",
    );
  });
});

/** A product of the 280–299 range (owned by these tests) with at least two colors. */
function productWithColors(nth: number): ShopProduct {
  const row = queryAll<{ id: number }>(
    "SELECT id FROM products WHERE id BETWEEN 280 AND 299 AND json_array_length(colors) >= 2 ORDER BY id",
  )[nth];
  if (!row) throw new Error("no product with two colors in 280–299");
  return setProduct(row.id, { stock: 30 });
}

test.describe("wishlist: the chosen color, and a toggle that outlives the page", () => {
  test("Add to Wishlist on the product page keeps the color the shopper chose", async ({ page }) => {
    const p = productWithColors(0);
    const chosen = p.colors[1];
    await page.goto(`/shop/${p.id}`);
    await waitForHydration(page);
    const main = page.getByRole("main");
    await main.getByRole("radio", { name: chosen, exact: true }).check();
    const button = main.getByRole("button", { name: "Add to Wishlist" });
    await toggle(button, true);
    await expect(page.getByRole("alert")).toHaveText("Added to your wishlist.");
    await expectWishlistCount(page, 1);
    await page.goto("/wishlist");
    await expect(wishlistRows(page)).toHaveCount(1);
    await expect(wishlistRows(page).first().getByRole("cell").nth(3)).toHaveText(chosen);
  });

  test("a heart toggled just before leaving the page still lands in the wishlist", async ({ page }) => {
    await page.goto("/shop");
    await waitForHydration(page);
    const card = page.getByRole("main").getByRole("article").nth(2);
    const title = (await card.getByRole("heading").textContent())!.trim();
    await card.hover();
    // The store answers slowly, so the page is surely gone before the answer comes back.
    await page.route(
      (url) => url.pathname.startsWith("/wishlist"),
      async (route) => {
        if (route.request().method() !== "POST") return route.fallback();
        await new Promise((resolve) => setTimeout(resolve, 750));
        await route.continue().catch(() => undefined); // the page that sent it may be gone
      },
    );
    await card.getByRole("button", { name: "Add to wishlist" }).click();
    // Straight away, a full page load elsewhere (typed address, bookmark, reload): no waiting for the answer.
    await page.goto("/about");
    await expect(async () => {
      await page.goto("/wishlist");
      await expect(wishlistRows(page)).toHaveCount(1, { timeout: 500 });
      await expect(wishlistRows(page).first().getByRole("link")).toHaveText(truncated(title), { timeout: 500 });
    }).toPass({ timeout: 10_000 });
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("Add to Wishlist posts the chosen color too", async ({ page }) => {
      const p = productWithColors(1);
      const chosen = p.colors[1];
      await page.goto(`/shop/${p.id}`);
      await page.getByRole("main").getByRole("radio", { name: chosen, exact: true }).check();
      await page.getByRole("main").getByRole("button", { name: "Add to Wishlist" }).click();
      await expect(page).toHaveURL(/\/wishlist$/);
      await expect(wishlistRows(page)).toHaveCount(1);
      await expect(wishlistRows(page).first().getByRole("cell").nth(3)).toHaveText(chosen);
      // The cart's own button in the same form still adds to the cart.
      await page.goto(`/shop/${p.id}`);
      await page.getByRole("main").getByRole("radio", { name: chosen, exact: true }).check();
      await page.getByRole("main").getByRole("button", { name: "Add to cart", exact: true }).click();
      await expect(page).toHaveURL(/\/cart$/);
      await expect(page.getByRole("main").getByRole("table").locator("tbody tr")).toHaveCount(1);
      await expect(page.getByRole("main").getByRole("table").locator("tbody tr").first()).toContainText(chosen);
    });
  });
});
