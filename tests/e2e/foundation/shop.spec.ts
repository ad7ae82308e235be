import type { Locator, Page } from "@playwright/test";
import { queryAll, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { urlIs, waitForHydration } from "../support/site.ts";

interface Row {
  id: number;
  title: string;
  price_cents: number;
  discount_percent: number | null;
  sale_price_cents: number;
}

/** The shop's default order: newest first. */
function pageOfProducts(page: number): Row[] {
  return queryAll<Row>(
    "SELECT id, title, price_cents, discount_percent, sale_price_cents FROM products ORDER BY created_at DESC, id LIMIT 15 OFFSET ?",
    (page - 1) * 15,
  );
}

const cardsOf = (page: Page) => page.getByRole("main").getByRole("article");
const cardTitleLink = (card: Locator) => card.getByRole("heading").getByRole("link");

/** Opacity as the shopper sees it: the product of the element's and its ancestors' opacity. */
function visibleOpacity(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    let opacity = 1;
    for (let node: Element | null = el; node; node = node.parentElement)
      opacity *= Number(getComputedStyle(node).opacity);
    return opacity;
  });
}

test.describe("shop listing", () => {
  test("page 1 shows 15 products from the database, each with image, title link, five stars and price", async ({
    page,
  }) => {
    const expected = pageOfProducts(1);
    await page.goto("/shop");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shop");
    const total = queryAll<{ n: number }>("SELECT COUNT(*) AS n FROM products")[0].n;
    await expect(page.getByRole("main")).toContainText(`Showing 1–15 of ${total.toLocaleString("en-US")} products`);
    const cards = cardsOf(page);
    await expect(cards).toHaveCount(15);
    const titles = cards.getByRole("heading").getByRole("link");
    await expect(titles).toHaveText(expected.map((r) => r.title));
    expect(
      await titles.evaluateAll((els) => els.map((el) => new URL((el as HTMLAnchorElement).href).pathname)),
    ).toEqual(expected.map((r) => `/shop/${r.id}`));
    // The picture, named by the product's title, and the five stars on each card.
    for (const [i, row] of expected.entries()) {
      await expect(cards.nth(i).getByRole("img", { name: row.title, exact: true })).toBeVisible();
    }
    await expect(cards.getByRole("img", { name: "Rated 5 out of 5" })).toHaveCount(15);
    for (const [i, row] of expected.entries()) await expect(cards.nth(i)).toContainText(usd(row.sale_price_cents));
  });

  test("discounted cards show the badge, the sale price and the struck-through original", async ({ page }) => {
    const rows = pageOfProducts(1);
    const discounted = rows.filter((r) => r.discount_percent != null);
    const full = rows.filter((r) => r.discount_percent == null);
    expect(discounted.length, "page 1 should hold a discounted product").toBeGreaterThan(0);
    expect(full.length, "page 1 should hold a full-price product").toBeGreaterThan(0);
    await page.goto("/shop");
    const cards = cardsOf(page);
    for (const row of discounted) {
      const card = cards.filter({ has: page.getByRole("link", { name: row.title, exact: true }) });
      await expect(card.getByText(`-${row.discount_percent}%`, { exact: true })).toBeVisible();
      await expect(card).toContainText(usd(row.sale_price_cents));
      const struck = card.locator("s, del");
      await expect(struck).toContainText(usd(row.price_cents));
      expect(row.sale_price_cents).toBeLessThan(row.price_cents);
    }
    for (const row of full) {
      const card = cards.filter({ has: page.getByRole("link", { name: row.title, exact: true }) });
      await expect(card).toContainText(usd(row.price_cents));
      await expect(card.locator("s, del")).toHaveCount(0);
      await expect(card.getByText(/^-\d+%$/)).toHaveCount(0);
    }
  });

  test("hovering or focusing a card reveals Add to cart and Add to wishlist", async ({ page }) => {
    await page.goto("/shop");
    await page.mouse.move(1, 1);
    const card = cardsOf(page).nth(2);
    const cart = card.getByRole("button", { name: "Add to cart", exact: true });
    const wish = card.getByRole("button", { name: "Add to wishlist", exact: true });
    await expect(cart).toBeAttached();
    await expect(wish).toBeAttached();
    await expect.poll(() => visibleOpacity(cart)).toBe(0);

    await card.hover();
    await expect.poll(() => visibleOpacity(cart)).toBe(1);
    await expect.poll(() => visibleOpacity(wish)).toBe(1);

    await page.mouse.move(1, 1);
    await expect.poll(() => visibleOpacity(cart)).toBe(0);
    await cardTitleLink(card).focus();
    await expect.poll(() => visibleOpacity(cart)).toBe(1);
    await cart.focus();
    await expect(cart).toBeFocused();
    await expect.poll(() => visibleOpacity(wish)).toBe(1);
  });

  test("clicking anywhere on a card opens that product", async ({ page }) => {
    const [, second] = pageOfProducts(1);
    await page.goto("/shop");
    await waitForHydration(page);
    // The whole card is the link's click target, picture included (away from the icon buttons).
    await cardsOf(page)
      .nth(1)
      .click({ position: { x: 30, y: 80 } });
    await expect(page).toHaveURL(new RegExp(`/shop/${second.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(second.title);
  });

  for (const facet of [
    { legend: "Categories", table: "categories" },
    { legend: "Brands", table: "brands" },
  ]) {
    test(`${facet.legend}: 5 shown, +View More shows all 15, -View Less hides them again`, async ({ page }) => {
      const names = queryAll<{ name: string }>(`SELECT name FROM ${facet.table} ORDER BY position`).map((r) => r.name);
      expect(names).toHaveLength(15);
      await page.goto("/shop");
      await waitForHydration(page);
      const group = page.getByRole("group", { name: facet.legend });
      const boxes = group.getByRole("checkbox");
      await expect(boxes).toHaveCount(5);
      for (const [i, name] of names.slice(0, 5).entries()) await expect(boxes.nth(i)).toHaveAccessibleName(name);

      const more = group.getByRole("button", { name: "+View More" });
      await expect(more).toHaveAttribute("aria-expanded", "false");
      await more.click();
      await expect(boxes).toHaveCount(15);
      for (const [i, name] of names.entries()) await expect(boxes.nth(i)).toHaveAccessibleName(name);
      const less = group.getByRole("button", { name: "-View Less" });
      await expect(less).toHaveAttribute("aria-expanded", "true");
      await less.click();
      await expect(boxes).toHaveCount(5);
      await expect(group.getByRole("button", { name: "+View More" })).toBeVisible();
    });
  }

  test("price filter has Min and Max number inputs and an Apply button", async ({ page }) => {
    await page.goto("/shop");
    const price = page.getByRole("group", { name: "Price" });
    for (const name of ["Min", "Max"]) {
      const input = price.getByRole("spinbutton", { name });
      await expect(input).toBeVisible();
      await expect(input).toHaveAttribute("type", "number");
    }
    await expect(page.getByRole("button", { name: "Apply", exact: true })).toBeVisible();
  });

  test("Next goes to page 2 with different products", async ({ page }) => {
    const first = pageOfProducts(1).map((r) => r.title);
    const second = pageOfProducts(2).map((r) => r.title);
    await page.goto("/shop");
    await waitForHydration(page);
    const pagination = page.getByRole("navigation", { name: "Pagination" });
    await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    await pagination.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(urlIs("/shop", { page: "2" }));
    await expect(page.getByRole("main")).toContainText("Showing 16–30 of");
    await expect(pagination.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    const titles = cardsOf(page).getByRole("heading").getByRole("link");
    await expect(titles).toHaveText(second);
    expect(second.filter((t) => first.includes(t))).toEqual([]);
  });
});
