import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { hrefOf, waitForHydration } from "../support/site.ts";
import { cardTitles, countText, expectTotal, matchCount, searchBox } from "./helpers.ts";

// The machine these run on may be busy: give each test room.
test.describe.configure({ timeout: 90_000 });

/** /shop, hydrated, with every suggestion request recorded from then on. */
async function openShopCountingSuggestions(page: Page) {
  const requests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/search/suggest")) requests.push(r.url());
  });
  await page.goto("/shop");
  await waitForHydration(page);
  return { box: searchBox(page), requests };
}

test.describe("header search box", () => {
  test("is a labelled search field in a search landmark that leads to /shop?q=…", async ({ page }) => {
    await page.goto("/about");
    await waitForHydration(page);
    const form = page.getByRole("banner").getByRole("search");
    await expect(form).toHaveCount(1);
    const box = form.getByRole("combobox", { name: "Search products" });
    await expect(box).toHaveAttribute("type", "search");
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await box.fill("drills");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\?q=drills$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “drills”");
    await expectTotal(page, matchCount('"drills"'));
    await expect(searchBox(page)).toHaveValue("drills");
  });

  test("asks for suggestions once for letters typed faster than the debounce, not once per letter", async ({
    page,
  }) => {
    const { box, requests } = await openShopCountingSuggestions(page);
    await box.focus();
    // Four keystrokes' input events in one task of the page, so a busy machine cannot space them out.
    await box.evaluate((input: HTMLInputElement) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      for (const text of ["h", "ha", "ham", "hamm"]) {
        setValue.call(input, text);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    await expect(page.getByRole("listbox", { name: "Search suggestions" })).toBeVisible();
    await page.waitForTimeout(500);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain("q=hamm");
  });

  test("suggests products, categories and brands as you type, and the keyboard drives the list", async ({ page }) => {
    const { box, requests } = await openShopCountingSuggestions(page);
    await box.pressSequentially("hamm", { delay: 20 });
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });
    await expect(listbox).toBeVisible();
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expect(box).toHaveAttribute("aria-controls", (await listbox.getAttribute("id"))!);
    // (How many requests the typing makes is the next test's: here the keys may come slower than the debounce.)
    expect(requests.at(-1)).toContain("q=hamm");

    const products = listbox.getByRole("group", { name: "Products" }).getByRole("option");
    await expect(products.first()).toBeVisible();
    for (const option of await products.all()) await expect(option).toContainText(/hamm/i);
    await expect(products.first().locator("mark")).toHaveText(/^hamm/i);

    await box.press("ArrowDown");
    const first = listbox.getByRole("option").first();
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
    await box.press("ArrowDown");
    const second = listbox.getByRole("option").nth(1);
    await expect(second).toHaveAttribute("aria-selected", "true");
    await expect(first).toHaveAttribute("aria-selected", "false");
    await box.press("ArrowUp");
    await expect(first).toHaveAttribute("aria-selected", "true");
    await box.press("ArrowUp");
    await expect(listbox.getByRole("option").last()).toHaveAttribute("aria-selected", "true");
    await box.press("ArrowDown");
    await expect(first).toHaveAttribute("aria-selected", "true");

    // The suggestion list passes axe while it is open.
    await expectNoAxeViolations(page);

    const title = (await first.textContent())!.trim();
    await box.press("Enter");
    const product = queryOne<{ id: number }>("SELECT id FROM products WHERE title = ? ORDER BY id DESC LIMIT 1", title);
    await expect(page).toHaveURL(new RegExp(`/shop/${product.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  });

  test("Escape closes the list, a second Escape clears the field, Enter with nothing chosen searches", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const box = searchBox(page);
    await box.pressSequentially("saw", { delay: 20 });
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });
    await expect(listbox).toBeVisible();
    await box.press("Escape");
    await expect(listbox).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await expect(box).toHaveValue("saw");
    await box.press("ArrowDown");
    await expect(listbox).toBeVisible();
    await expect(listbox.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await box.press("Escape");
    await expect(listbox).toBeHidden();
    await box.press("Escape");
    await expect(box).toHaveValue("");
    await box.pressSequentially("saw", { delay: 20 });
    await expect(listbox).toBeVisible();
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\?q=saw$/);
    await expect(page.getByRole("listbox", { name: "Search suggestions" })).toBeHidden();
  });

  test("category and brand suggestions open the filtered shop, also with the mouse", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const box = searchBox(page);
    await box.pressSequentially("garden", { delay: 20 });
    const category = page.getByRole("group", { name: "Categories" }).getByRole("option", { name: "Gardening" });
    await expect(category).toBeVisible();
    await box.press("ArrowUp");
    // The last option is the category (no brand matches "garden").
    await expect(category).toHaveAttribute("aria-selected", "true");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\?category=gardening$/);
    await expect(
      page.getByRole("form", { name: "Filters" }).getByRole("checkbox", { name: "Gardening" }),
    ).toBeChecked();
    // The shop is interactive before the next search is typed.
    await waitForHydration(page);

    await box.pressSequentially("tidwell", { delay: 20 });
    const brand = page
      .getByRole("listbox")
      .getByRole("group", { name: "Brands" })
      .getByRole("option", { name: "Tidewell" });
    await expect(brand).toBeVisible();
    await brand.click();
    await expect(page).toHaveURL(/\/shop\?brand=tidewell$/);
    await expect(page.getByRole("form", { name: "Filters" }).getByRole("checkbox", { name: "Tidewell" })).toBeChecked();
  });

  test("works on a phone too", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/");
    await waitForHydration(page);
    const box = page.getByRole("banner").getByRole("search").getByRole("combobox", { name: "Search products" });
    await expect(box).toBeVisible();
    await box.pressSequentially("drill", { delay: 20 });
    await expect(page.getByRole("listbox", { name: "Search suggestions" })).toBeVisible();
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\?q=drill$/);
    await context.close();
  });
});

test.describe("search results", () => {
  test("highlight the matching words, stemmed", async ({ page }) => {
    await page.goto("/shop?q=drills");
    const titles = cardTitles(page);
    await expect(titles.first()).toBeVisible();
    const marks = titles.first().locator("mark");
    await expect(marks.first()).toHaveText(/^drill/i);
    for (const mark of await page.getByRole("main").getByRole("article").getByRole("heading").locator("mark").all()) {
      await expect(mark).toHaveText(/^drill/i);
    }
  });

  test("forgive typos and offer the correction", async ({ page }) => {
    await page.goto("/shop?q=hamer");
    await expect(cardTitles(page).first()).toContainText(/hammer/i);
    const didYouMean = page.getByRole("main").getByRole("link", { name: "hammer", exact: true });
    await expect(didYouMean).toBeVisible();
    expect(await hrefOf(didYouMean)).toBe("/shop?q=hammer");
    await page.goto("/shop?q=Forgcrest");
    await expect(cardTitles(page).first()).toContainText("Forgecrest");
  });

  test("an empty result explains itself and offers a way on", async ({ page }) => {
    await page.goto("/shop?q=zzyzzx%20hamer");
    const main = page.getByRole("main");
    await expect(countText(page)).toHaveText("No products found");
    await expect(main).toContainText("No products found for “zzyzzx hamer”");
    await expect(main.getByRole("heading", { name: "Popular categories" })).toBeVisible();
    const gardening = main.getByRole("link", { name: "Gardening", exact: true });
    expect(await hrefOf(gardening)).toBe("/shop?category=gardening");
    await expectNoAxeViolations(page);
    await page.goto("/shop?q=hammer&category=gardening&onSale=1");
    await expect(main.getByRole("link", { name: "Search all products for “hammer”" })).toHaveAttribute(
      "href",
      "/shop?q=hammer",
    );
  });

  test("hostile queries get a page, never an error", async ({ request }) => {
    const hostile = [
      `"`,
      `'`,
      `drill"`,
      `NEAR(drill saw)`,
      `{title}: drill`,
      `drill:* & !saw | (`,
      `'; DROP TABLE products; --`,
      `1' OR '1'='1`,
      `a\u0000b`,
      `\u202Edrill\u202C`,
      `\u200F`,
      `x`.repeat(5000),
      `%`,
      `<script>alert(1)</script>`,
    ];
    for (const q of hostile) {
      const shop = await request.get(`/shop?q=${encodeURIComponent(q)}&page=2&sort=relevance`);
      expect(shop.status(), q).toBe(200);
      expect(await shop.text()).not.toContain("<script>alert(1)</script>");
      const suggest = await request.get(`/search/suggest?q=${encodeURIComponent(q)}`);
      expect(suggest.status(), q).toBe(200);
      expect(Array.isArray((await suggest.json()).options)).toBe(true);
    }
    const raw = await request.get("/shop?q=%E0%A4%A&page=%00");
    expect(raw.status()).toBe(200);
  });
});
