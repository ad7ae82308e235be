import { gzipSync } from "node:zlib";
import { expectCartCount } from "../shopping/support.ts";
import { consoleErrorsOf, expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";

// The home page (decision 0019), product pages (decision 0027) and the shop with its search results
// (decision 0035) are islands (app/islands/island-scripts.tsx): React DOM, their components and a
// stand-in for React Router, without React Router's client. Issue 15: ≤ 90 KiB gzip in ≤ 8 files.
const ISLAND_JS_BUDGET = { files: 8, gzipKiB: 90 };

for (const { name, path } of [
  { name: "the home page", path: "/" },
  { name: "a product page", path: "/shop/1" },
  { name: "the shop", path: "/shop" },
  { name: "a search results page", path: "/shop?q=drill" },
]) {
  test(`${name} hydrates from a small bundle, without React Router's client, and logs no errors`, async ({ page }) => {
    const scripts: { url: string; gzip: number }[] = [];
    const pending: Promise<void>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      pending.push(response.body().then((body) => void scripts.push({ url: response.url(), gzip: gzipSync(body).length })));
    });
    await page.goto(path, { waitUntil: "load" });
    await waitForHydration(page);
    await Promise.all(pending);

    expect(scripts.length).toBeGreaterThanOrEqual(1);
    expect(scripts.length).toBeLessThanOrEqual(ISLAND_JS_BUDGET.files);
    expect(scripts.reduce((sum, s) => sum + s.gzip, 0)).toBeLessThanOrEqual(ISLAND_JS_BUDGET.gzipKiB * 1024);
    expect(scripts.map((s) => new URL(s.url).pathname).filter((p) => p.includes("/manifest-") || p.includes("entry.client"))).toEqual([]);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    expect(consoleErrorsOf(page)).toEqual([]);
  });
}

test.describe("a product page as an island", () => {
  test("Add to cart and Add to Wishlist work without a page load, and the header follows", async ({ page }) => {
    await page.goto("/shop/1");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const main = page.getByRole("main");
    const title = (await main.getByRole("heading", { level: 1 }).textContent())!.trim();

    await main.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("alert")).toHaveText(`${title} added to your cart.`);
    await expectCartCount(page, 1);

    await main.getByRole("button", { name: "Add to Wishlist" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Wishlist (1 item)" })).toBeVisible();

    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(consoleErrorsOf(page)).toEqual([]);
  });
});

test.describe("an island page's data", () => {
  test("a product page's own data is only in the island's block; React Router's client navigating to it gets it whole, whatever header a client sends", async ({ page, request }) => {
    await page.goto("/shop/1");
    const title = (await page.getByRole("main").getByRole("heading", { level: 1 }).textContent())!.trim();
    const html = await (await request.get("/shop/1")).text();
    const islandData = html.slice(html.indexOf('id="island-data"'));
    expect(islandData).toContain(JSON.stringify(title).slice(1, -1));
    // The document carries no encoded copy of the loader data for React Router's client.
    expect(html).not.toContain("__reactRouterContext");
    for (const headers of [{}, { "x-document-request": "1" }] as Record<string, string>[]) {
      const data = await request.get("/shop/1.data", { headers });
      expect(data.status()).toBe(200);
      expect(await data.text()).toContain(title);
    }
    // From a page under React Router's client (the cart), a product chosen in the header's search opens in place.
    await page.goto("/cart");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const box = page.getByRole("banner").getByRole("search").first().getByRole("combobox", { name: "Search products" });
    await box.pressSequentially("drill", { delay: 20 });
    const option = page.getByRole("listbox", { name: "Search suggestions" }).getByRole("group", { name: "Products" }).getByRole("option").first();
    const optionTitle = (await option.getByText(/drill/i).first().textContent())!.trim();
    await box.press("ArrowDown");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\/\d+$/);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toContainText(optionTitle);
    await expect(page.getByRole("main").getByTestId("stock")).toBeVisible();
    await expect(page.getByRole("main").getByRole("table")).toContainText("Manufacturer");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(consoleErrorsOf(page)).toEqual([]);
  });
});

test.describe("the home page as an island", () => {
  test("a best product goes into the cart and the wishlist without a page load, and the header follows", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const card = page.getByRole("region", { name: "Best Products" }).getByRole("article").first();
    const title = (await card.getByRole("heading").textContent())!.trim();

    await card.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("alert")).toHaveText(`${title} added to your cart.`);
    await expectCartCount(page, 1);

    const heart = card.getByRole("button", { name: "Add to wishlist" });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("banner").getByRole("link", { name: "Wishlist (1 item)" })).toBeVisible();

    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(consoleErrorsOf(page)).toEqual([]);
  });

  test("a header search suggestion chosen with the keyboard opens the product", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const box = page.getByRole("banner").getByRole("search").first().getByRole("combobox", { name: "Search products" });
    await box.pressSequentially("drill", { delay: 20 });
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });
    const first = listbox.getByRole("group", { name: "Products" }).getByRole("option").first();
    await expect(first).toBeVisible();
    await box.press("ArrowDown");
    await expect(first).toHaveAttribute("aria-selected", "true");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\/\d+$/);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test.describe("the shop as an island", () => {
  const marked = async (page: import("@playwright/test").Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

  test("filters, sort and a new search load their results in place; back and forward walk them; a card opens its product", async ({ page }) => {
    await page.goto("/shop?q=drill");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const count = page.getByRole("main").locator("#results-heading");
    const all = (await count.textContent())!;
    await expect(page).toHaveTitle("Search results for “drill” | ToolHub Wholesale");

    const powerTools = page.getByRole("group", { name: "Categories" }).getByRole("checkbox", { name: "Power Tools" });
    await powerTools.check();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools$/);
    await expect(count).not.toHaveText(all);
    const narrowed = (await count.textContent())!;
    // The box the shopper used keeps the focus: the page was not replaced.
    await expect(powerTools).toBeFocused();
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("price-asc");
    await expect(page).toHaveURL(/sort=price-asc$/);

    await page.goBack();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools$/);
    await expect(page.getByRole("combobox", { name: "Sort by" })).toHaveValue("relevance");
    await page.goBack();
    await expect(page).toHaveURL(/\/shop\?q=drill$/);
    await expect(count).toHaveText(all);
    await expect(powerTools).not.toBeChecked();
    await page.goForward();
    await expect(count).toHaveText(narrowed);
    await expect(powerTools).toBeChecked();

    const box = page.getByRole("banner").getByRole("search").first().getByRole("combobox", { name: "Search products" });
    await box.fill("hammer");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\?q=hammer$/);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText("Results for “hammer”");
    await expect(page).toHaveTitle("Search results for “hammer” | ToolHub Wholesale");
    expect(await marked(page)).toBe(true);

    const card = page.getByRole("main").getByRole("article").first();
    const cardTitle = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("link").first().click();
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(cardTitle);
    expect(consoleErrorsOf(page)).toEqual([]);
  });

  test("a result goes into the cart and the wishlist without a page load, and the header follows", async ({ page }) => {
    await page.goto("/shop?q=saw");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const card = page.getByRole("main").getByRole("article").first();
    const title = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("alert")).toHaveText(`${title} added to your cart.`);
    await expectCartCount(page, 1);
    await card.getByRole("button", { name: "Add to wishlist" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Wishlist (1 item)" })).toBeVisible();
    expect(await marked(page)).toBe(true);
    expect(consoleErrorsOf(page)).toEqual([]);
  });
});
