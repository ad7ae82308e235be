import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { hrefOf, waitForHydration } from "../support/site.ts";
import {
  brandNames,
  cards,
  cardTitles,
  categoryNames,
  count,
  countText,
  expectTotal,
  filters,
  group,
  matchCount,
  paramsOf,
  productsOnPage,
  type CardProduct,
  sortSelect,
} from "./helpers.ts";

// The machine these run on may be busy: give each test room.
test.describe.configure({ timeout: 90_000 });

test.describe("shop filters", () => {
  test("categories and brands show a count for the current query, 5 then +View More / -View Less", async ({ page }) => {
    await page.goto("/shop?q=drill");
    await waitForHydration(page);
    const categories = group(page, "Categories");
    const boxes = categories.getByRole("checkbox");
    await expect(boxes).toHaveCount(5);
    await categories.getByRole("button", { name: "+View More" }).click();
    await expect(boxes).toHaveCount(15);
    for (const [i, c] of categoryNames().entries()) {
      const box = boxes.nth(i);
      await expect(box).toHaveAccessibleName(c.name);
      const n = matchCount('"drill"', "c.slug = ?", c.slug);
      await expect(box).toHaveAccessibleDescription(`${n} product${n === 1 ? "" : "s"}`);
    }
    await categories.getByRole("button", { name: "-View Less" }).click();
    await expect(boxes).toHaveCount(5);
    const brands = group(page, "Brands");
    await expect(brands.getByRole("checkbox")).toHaveCount(5);
    const first = brandNames()[0];
    await expect(brands.getByRole("checkbox", { name: first.name })).toHaveAccessibleDescription(
      new RegExp(`^${matchCount('"drill"', "b.slug = ?", first.slug)} product`),
    );
  });

  test("each filter narrows the results, and they combine", async ({ page }) => {
    await page.goto("/shop?q=drill");
    await waitForHydration(page);
    await expectTotal(page, matchCount('"drill"'));

    // One category.
    await group(page, "Categories").getByRole("checkbox", { name: "Power Tools" }).check();
    await expect(page).toHaveURL(/category=power-tools/);
    await expectTotal(page, matchCount('"drill"', "c.slug = 'power-tools'"));
    for (const p of await productsOnPage(page)) expect(p.category).toBe("power-tools");

    // A second category (one of those behind +View More): either one.
    await group(page, "Categories").getByRole("button", { name: "+View More" }).click();
    await group(page, "Categories").getByRole("checkbox", { name: "Construction" }).check();
    await expect(page).toHaveURL(/category=power-tools&category=construction/);
    await expectTotal(page, matchCount('"drill"', "c.slug IN ('power-tools', 'construction')"));

    // Brands, two of them.
    await group(page, "Brands").getByRole("checkbox", { name: "Forgecrest" }).check();
    await expect(page).toHaveURL(/brand=forgecrest/);
    await group(page, "Brands").getByRole("checkbox", { name: "Tidewell" }).check();
    await expect(page).toHaveURL(/brand=forgecrest&brand=tidewell/);
    const where = "c.slug IN ('power-tools', 'construction') AND b.slug IN ('forgecrest', 'tidewell')";
    await expectTotal(page, matchCount('"drill"', where));
    // Brand counts ignore the brand choice but follow the categories.
    await expect(group(page, "Brands").getByRole("checkbox", { name: "Saltmere" })).toHaveAccessibleDescription(
      new RegExp(
        `^${matchCount('"drill"', "c.slug IN ('power-tools', 'construction') AND b.slug = 'saltmere'")} product`,
      ),
    );

    // Price, on the discounted price.
    const price = group(page, "Price");
    await price.getByRole("spinbutton", { name: "Min" }).fill("40");
    await price.getByRole("spinbutton", { name: "Max" }).fill("150");
    await price.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/min=40&max=150/);
    const priced = `${where} AND p.sale_price_cents BETWEEN 4000 AND 15000`;
    await expectTotal(page, matchCount('"drill"', priced));
    for (const p of await productsOnPage(page)) {
      expect(p.sale_price_cents).toBeGreaterThanOrEqual(4000);
      expect(p.sale_price_cents).toBeLessThanOrEqual(15000);
    }

    // Availability.
    await filters(page).getByRole("checkbox", { name: "In stock only" }).check();
    await expect(page).toHaveURL(/inStock=1/);
    await expectTotal(page, matchCount('"drill"', `${priced} AND p.stock_quantity > 0`));
    await filters(page).getByRole("checkbox", { name: "On sale only" }).check();
    await expect(page).toHaveURL(/onSale=1/);
    const all = `${priced} AND p.stock_quantity > 0 AND p.discount_percent IS NOT NULL`;
    await expectTotal(page, matchCount('"drill"', all));
    expect(paramsOf(page)).toEqual(
      [
        ["brand", "forgecrest"],
        ["brand", "tidewell"],
        ["category", "construction"],
        ["category", "power-tools"],
        ["inStock", "1"],
        ["max", "150"],
        ["min", "40"],
        ["onSale", "1"],
        ["q", "drill"],
      ].sort(),
    );
    await expectNoAxeViolations(page);

    // Unchecking one filter widens again; Clear all filters keeps the words.
    await filters(page).getByRole("checkbox", { name: "On sale only" }).uncheck();
    await expect(page).not.toHaveURL(/onSale=1/);
    await expectTotal(page, matchCount('"drill"', `${priced} AND p.stock_quantity > 0`));
    await filters(page).getByRole("link", { name: "Clear all filters" }).click();
    await expect(page).toHaveURL(/\/shop\?q=drill$/);
    await expect(filters(page).getByRole("checkbox", { checked: true })).toHaveCount(0);
  });

  test("each filter on its own, browsing without words", async ({ page }) => {
    const cases: [string, string][] = [
      ["category=hand", "c.slug = 'hand'"],
      ["brand=saltmere", "b.slug = 'saltmere'"],
      ["min=100", "p.sale_price_cents >= 10000"],
      ["max=20", "p.sale_price_cents <= 2000"],
      ["inStock=1", "p.stock_quantity > 0"],
      ["onSale=1", "p.discount_percent IS NOT NULL"],
    ];
    for (const [qs, where] of cases) {
      await page.goto(`/shop?${qs}`);
      await expectTotal(page, count(where));
    }
    await page.goto("/shop?onSale=1");
    for (const card of await cards(page).all()) await expect(card.getByText(/^-\d+%$/)).toBeVisible();
  });

  test("price inputs are checked: not negative, Min not above Max", async ({ page }) => {
    await page.goto("/shop?q=saw");
    await waitForHydration(page);
    const price = group(page, "Price");
    const min = price.getByRole("spinbutton", { name: "Min" });
    const max = price.getByRole("spinbutton", { name: "Max" });
    await min.fill("-5");
    await price.getByRole("button", { name: "Apply" }).click();
    await expect(price.getByRole("alert")).toHaveText("Min price can't be negative.");
    await expect(min).toHaveAttribute("aria-invalid", "true");
    await expect(min).toBeFocused();
    await expect(page).toHaveURL(/\/shop\?q=saw$/);
    await min.fill("90");
    await max.fill("10");
    await price.getByRole("button", { name: "Apply" }).click();
    await expect(price.getByRole("alert")).toHaveText("Min price can't be more than Max price.");
    await expect(page).toHaveURL(/\/shop\?q=saw$/);
    await max.fill("100");
    await price.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/\/shop\?q=saw&min=90&max=100$/);
    await expect(price.getByRole("alert")).toHaveCount(0);
    // A hand-made URL gets the same messages from the server.
    await page.goto("/shop?q=saw&min=-1&max=abc");
    await expect(group(page, "Price").getByRole("alert")).toContainText(
      ["Min price can't be negative.", "Max price must be a number."].join(""),
    );
  });
});

test.describe("sort and pages", () => {
  test("a labelled select sorts; relevance is offered only with words", async ({ page }) => {
    await page.goto("/shop");
    await waitForHydration(page);
    const select = sortSelect(page);
    await expect(select).toHaveValue("newest");
    await expect(select.locator("option")).toHaveText([
      "Price: low to high",
      "Price: high to low",
      "Newest",
      "Biggest discount",
      "Name",
    ]);
    await page.goto("/shop?q=saw");
    await waitForHydration(page);
    await expect(select).toHaveValue("relevance");
    await expect(select.locator("option")).toHaveText([
      "Relevance",
      "Price: low to high",
      "Price: high to low",
      "Newest",
      "Biggest discount",
      "Name",
    ]);

    const checks: [string, (a: CardProduct, b: CardProduct) => boolean][] = [
      ["price-asc", (a, b) => a.sale_price_cents <= b.sale_price_cents],
      ["price-desc", (a, b) => a.sale_price_cents >= b.sale_price_cents],
      ["newest", (a, b) => a.created_at >= b.created_at],
      ["discount", (a, b) => (a.discount_percent ?? 0) >= (b.discount_percent ?? 0)],
    ];
    for (const [value, inOrder] of checks) {
      await select.selectOption(value);
      await expect(page).toHaveURL(new RegExp(`sort=${value}`));
      await expect(select).toHaveValue(value);
      // The URL changes as the new page is committed; React may paint it a moment later.
      await expect
        .poll(
          async () => {
            const rows = await productsOnPage(page);
            return rows.length === 15 && rows.every((row, i) => i === 0 || inOrder(rows[i - 1], row));
          },
          { message: value },
        )
        .toBe(true);
    }
    await select.selectOption("name");
    await expect(page).toHaveURL(/sort=name/);
    await expect
      .poll(async () => {
        const titles = await cardTitles(page).allTextContents();
        return JSON.stringify(titles) === JSON.stringify([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      })
      .toBe(true);
  });

  test("numbered pages with Previous and Next, and a page past the end shows the last page", async ({ page }) => {
    const total = matchCount('"blade"');
    const pages = Math.ceil(total / 15);
    expect(pages).toBeGreaterThan(2);
    await page.goto("/shop?q=blade");
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Pagination" });
    await expect(nav.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByText("Previous")).toHaveAttribute("aria-disabled", "true");
    await nav.getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL(/\/shop\?q=blade&page=2$/);
    await expect(countText(page)).toHaveText(`Showing 16–30 of ${total} products`);
    await nav.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=3$/);
    // The address changes before React draws page 3, whose Previous link is the one to follow.
    await expect(countText(page)).toHaveText(`Showing 31–${Math.min(45, total)} of ${total} products`);
    await nav.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/page=2$/);
    await expect(countText(page)).toHaveText(`Showing 16–30 of ${total} products`);
    expect(await hrefOf(nav.getByRole("link", { name: `Page ${pages}` }))).toBe(`/shop?q=blade&page=${pages}`);

    await page.goto("/shop?q=blade&page=999");
    await expect(nav.getByRole("link", { name: `Page ${pages}` })).toHaveAttribute("aria-current", "page");
    const onLast = total - (pages - 1) * 15;
    await expect(cards(page)).toHaveCount(onLast);
    await expect(countText(page)).toHaveText(`Showing ${(pages - 1) * 15 + 1}–${total} of ${total} products`);
    await expect(nav.getByText("Next")).toHaveAttribute("aria-disabled", "true");
  });

  test("back and forward walk through the filter history", async ({ page }) => {
    await page.goto("/shop?q=drill");
    await waitForHydration(page);
    const powerTools = group(page, "Categories").getByRole("checkbox", { name: "Power Tools" });
    const forgecrest = group(page, "Brands").getByRole("checkbox", { name: "Forgecrest" });
    await powerTools.check();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools$/);
    await forgecrest.check();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools&brand=forgecrest$/);
    await sortSelect(page).selectOption("price-asc");
    await expect(page).toHaveURL(/sort=price-asc$/);
    const both = matchCount('"drill"', "c.slug = 'power-tools' AND b.slug = 'forgecrest'");
    await page.goBack();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools&brand=forgecrest$/);
    await expect(sortSelect(page)).toHaveValue("relevance");
    await expect(forgecrest).toBeChecked();
    await expectTotal(page, both);
    await page.goBack();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools$/);
    await expect(forgecrest).not.toBeChecked();
    await expect(powerTools).toBeChecked();
    await expectTotal(page, matchCount('"drill"', "c.slug = 'power-tools'"));
    await page.goBack();
    await expect(page).toHaveURL(/\/shop\?q=drill$/);
    await expect(powerTools).not.toBeChecked();
    await page.goForward();
    await expect(powerTools).toBeChecked();
    await expect(forgecrest).not.toBeChecked();
    await page.goForward();
    await expect(forgecrest).toBeChecked();
    await expectTotal(page, both);
  });

  test("a filtered page can be shared: the URL alone rebuilds it", async ({ browser }) => {
    const url = "/shop?q=drill&category=power-tools&brand=forgecrest&min=50&onSale=1&sort=price-desc";
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await expect(group(page, "Categories").getByRole("checkbox", { name: "Power Tools" })).toBeChecked();
    await expect(group(page, "Brands").getByRole("checkbox", { name: "Forgecrest" })).toBeChecked();
    await expect(group(page, "Price").getByRole("spinbutton", { name: "Min" })).toHaveValue("50");
    await expect(filters(page).getByRole("checkbox", { name: "On sale only" })).toBeChecked();
    await expect(sortSelect(page)).toHaveValue("price-desc");
    await expectTotal(
      page,
      matchCount(
        '"drill"',
        "c.slug = 'power-tools' AND b.slug = 'forgecrest' AND p.sale_price_cents >= 5000 AND p.discount_percent IS NOT NULL",
      ),
    );
    await context.close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filters work as a plain GET form", async ({ page }) => {
    await page.goto("/shop?q=drill");
    const categories = group(page, "Categories");
    // No toggle without JavaScript: every option is listed.
    await expect(categories.getByRole("checkbox")).toHaveCount(15);
    await expect(categories.getByRole("button", { name: "+View More" })).toBeHidden();
    await categories.getByRole("checkbox", { name: "Power Tools" }).check();
    await group(page, "Brands").getByRole("checkbox", { name: "Fellgate" }).check();
    await filters(page).getByRole("checkbox", { name: "In stock only" }).check();
    await sortSelect(page).selectOption("price-asc");
    await filters(page).getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/\/shop\?q=drill&category=power-tools&brand=fellgate&inStock=1&sort=price-asc$/);
    const where = "c.slug = 'power-tools' AND b.slug = 'fellgate' AND p.stock_quantity > 0";
    await expectTotal(page, matchCount('"drill"', where));
    const prices = (await productsOnPage(page)).map((p) => p.sale_price_cents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    const price = group(page, "Price");
    await price.getByRole("spinbutton", { name: "Min" }).fill("300");
    await price.getByRole("spinbutton", { name: "Max" }).fill("20");
    await price.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/min=300&max=20/);
    await expect(price.getByRole("alert")).toHaveText("Min price can't be more than Max price.");
    await expectTotal(page, matchCount('"drill"', where));
  });

  test("the header search and the pages work", async ({ page }) => {
    await page.goto("/about");
    const box = page.getByRole("banner").getByRole("search").getByRole("combobox", { name: "Search products" });
    await box.fill("hamer");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/shop\?q=hamer$/);
    await expect(cardTitles(page).first()).toContainText(/hammer/i);
    await page.goto("/shop");
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/shop\?page=2$/);
    const newest = queryAll<{ title: string; sale_price_cents: number }>(
      "SELECT title, sale_price_cents FROM products ORDER BY created_at DESC, id LIMIT 15 OFFSET 15",
    );
    await expect(cardTitles(page)).toHaveText(newest.map((r) => r.title));
    await expect(cards(page).first()).toContainText(usd(newest[0].sale_price_cents));
  });
});
