import type { Page } from "@playwright/test";
import { firstProductWhere, product, usd, type ProductRow } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { jsonLdIn, waitForHydration } from "../support/site.ts";

async function expectProductPage(page: Page, p: ProductRow) {
  const response = await page.goto(`/shop/${p.id}`);
  expect(response?.status()).toBe(200);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(p.title);
  await expect(main).toContainText(usd(p.sale_price_cents));
  if (p.discount_percent != null) {
    await expect(main.locator("s, del").first()).toContainText(usd(p.price_cents));
  }
  await expect(main.getByText("Tax included", { exact: true })).toBeVisible();
  await expect(
    main.getByText(p.stock_quantity > 0 ? `In Stock (${p.stock_quantity})` : "Stock out", { exact: true }),
  ).toBeVisible();

  const colors = JSON.parse(p.colors) as string[];
  const radios = main.getByRole("group", { name: "Color" }).getByRole("radio");
  await expect(radios).toHaveCount(colors.length);
  for (const [i, color] of colors.entries()) await expect(radios.nth(i)).toHaveAccessibleName(color);
  await expect(radios.first()).toBeChecked();

  await expect(main.getByRole("heading", { name: "Description" })).toBeVisible();
  await expect(main.getByText(p.description, { exact: true })).toBeVisible();

  const specs: [string, string][] = [
    ["Brand", p.brand_name],
    ["Model", p.model],
    ["Material", p.material],
    ["Weight (gm)", String(p.weight_grams)],
    ["Country of origin", p.country_of_origin],
    ["Manufacturer", p.manufacturer],
  ];
  const table = main.getByRole("table");
  for (const [label, value] of specs) {
    const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
    await expect(row.getByRole("cell")).toHaveText(value);
  }

  await expect(main.getByRole("button", { name: "Add to cart", exact: true })).toBeVisible();
  await expect(main.getByRole("button", { name: "Add to Wishlist", exact: true })).toBeVisible();
  await expect(main).toContainText(/return policy/i);
  await expect(main).toContainText("14 days");
}

test.describe("product details", () => {
  test("an in-stock product shows everything from the database", async ({ page }) => {
    await expectProductPage(
      page,
      firstProductWhere("p.stock_quantity > 0 AND p.discount_percent IS NOT NULL AND p.image_count > 1"),
    );
  });

  test("a full-price product shows its price without a struck-through original", async ({ page }) => {
    const p = firstProductWhere("p.stock_quantity > 0 AND p.discount_percent IS NULL");
    await expectProductPage(page, p);
    await expect(page.getByRole("main").locator("s, del")).toHaveCount(0);
  });

  test("an out-of-stock product says Stock out", async ({ page }) => {
    const p = firstProductWhere("p.stock_quantity = 0");
    await expectProductPage(page, p);
    await expect(page.getByRole("main").getByText(/In Stock/)).toHaveCount(0);
  });

  test("different ids show different products", async ({ page }) => {
    const [a, b] = [product(1), product(2)];
    expect(a.title).not.toBe(b.title);
    await page.goto("/shop/1");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(a.title);
    await page.goto("/shop/2");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(b.title);
    await expect(page.getByRole("main")).toContainText(b.model);
  });

  test("JSON-LD Product carries name, image, brand, sku and the offer", async ({ request, baseURL }) => {
    for (const p of [firstProductWhere("p.stock_quantity > 0"), firstProductWhere("p.stock_quantity = 0")]) {
      const response = await request.get(`/shop/${p.id}`);
      expect(response.status()).toBe(200);
      const origin = new URL(baseURL!).origin;
      const ld = jsonLdIn(await response.text()).find((d) => d["@type"] === "Product");
      expect(ld, `Product JSON-LD on /shop/${p.id}`).toBeTruthy();
      expect(ld!["@context"]).toBe("https://schema.org");
      expect(ld!.name).toBe(p.title);
      const images = ([] as string[]).concat(ld!.image);
      expect(images.length).toBe(p.image_count);
      for (const src of images) expect(src).toMatch(new RegExp(`^${origin}/`));
      expect(ld!.brand?.name ?? ld!.brand).toBe(p.brand_name);
      expect(ld!.sku).toBe(p.sku);
      expect(ld!.offers.price).toBe((p.sale_price_cents / 100).toFixed(2));
      expect(ld!.offers.priceCurrency).toBe("USD");
      expect(ld!.offers.availability).toBe(
        p.stock_quantity > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      );
    }
  });

  test("the image slideshow autoplays every 3 s and can be paused", async ({ page }) => {
    const p = firstProductWhere("p.image_count >= 3");
    await page.clock.install({ time: new Date("2026-01-05T09:00:00Z") });
    await page.clock.pauseAt(new Date("2026-01-05T09:00:01Z"));
    await page.goto(`/shop/${p.id}`);
    await waitForHydration(page);
    const show = page.getByRole("region", { name: "Product images" });
    await expect(show.getByRole("group", { includeHidden: true })).toHaveCount(p.image_count);
    const current = show.getByRole("group");
    await expect(current).toHaveAccessibleName(`Image 1 of ${p.image_count}`);
    await expect(current.getByRole("img")).toHaveAttribute(
      "alt",
      new RegExp(p.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
    );
    await page.clock.runFor(3_000);
    await expect(current).toHaveAccessibleName(`Image 2 of ${p.image_count}`);

    await show.getByRole("button", { name: /^Pause/ }).click();
    await page.mouse.move(1, 1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(9_000);
    await expect(current).toHaveAccessibleName(`Image 2 of ${p.image_count}`);
    await expect(show.getByRole("button", { name: /^Play/ })).toBeVisible();
  });
});

test("a product page has one stylesheet and hydrates", async ({ page, request }) => {
  const response = await request.get("/shop/1");
  const html = await response.text();
  const head = html.slice(0, html.indexOf("</head>"));
  expect(head.match(/<link[^>]+rel="stylesheet"/g)).toHaveLength(1);

  await page.goto("/shop/1");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
