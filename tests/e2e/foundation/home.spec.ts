import type { Locator, Page } from "@playwright/test";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { hrefOf, urlIs, waitForHydration } from "../support/site.ts";

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test.describe("home page sections", () => {
  test("the nine sections appear in the spec's order", async ({ page }) => {
    await page.goto("/");
    const sections = [
      region(page, "Featured offers"),
      region(page, "Why shop with us"),
      region(page, "Shop by Category"),
      region(page, "Offers of the Week"),
      region(page, "What Our Customers Say"),
      region(page, "Featured products"),
      region(page, "Best Products"),
      region(page, "Our Brands"),
      region(page, "Subscribe to our newsletter"),
    ];
    const tops: number[] = [];
    for (const section of sections) {
      await expect(section).toBeVisible();
      tops.push((await section.boundingBox())!.y);
    }
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    expect(new Set(tops).size).toBe(sections.length);
  });

  test("benefits strip states the four benefits", async ({ page }) => {
    await page.goto("/");
    const items = region(page, "Why shop with us").getByRole("listitem");
    await expect(items).toHaveCount(4);
    await expect(items.nth(0)).toContainText("Free shipping on all US orders");
    await expect(items.nth(1)).toContainText(/online support 24\/7/i);
    await expect(items.nth(2)).toContainText("Money back guarantee under 7 days");
    await expect(items.nth(3)).toContainText("Member discount on every order over $120.00");
  });

  test("six category tiles whose Browse links filter the shop", async ({ page }) => {
    await page.goto("/");
    const tiles = region(page, "Shop by Category");
    const names = ["Automotive", "Gardening", "Hand", "Electrical", "Safety", "Construction"];
    await expect(tiles.getByRole("heading", { level: 3 })).toHaveText(names);
    const browse = tiles.getByRole("link", { name: /^Browse/ });
    await expect(browse).toHaveCount(6);
    await expect(browse).toHaveText(Array(6).fill("Browse"));
    for (const [i, name] of names.entries()) {
      const slug = queryOne<{ slug: string }>("SELECT slug FROM categories WHERE name = ?", name).slug;
      expect(await hrefOf(browse.nth(i))).toBe(`/shop?category=${slug}`);
      await expect(tiles.getByRole("img").nth(i)).toHaveAttribute("alt", /\S/);
    }
    await waitForHydration(page);
    await tiles.getByRole("link", { name: "Browse Gardening" }).click();
    await expect(page).toHaveURL(urlIs("/shop", { category: "gardening" }));
    await expect(
      page.getByRole("group", { name: "Categories" }).getByRole("checkbox", { name: "Gardening" }),
    ).toBeChecked();
  });

  test("two promotional banners with Shop Now and four offer cards", async ({ page }) => {
    await page.goto("/");
    const offers = region(page, "Offers of the Week");
    await expect(offers).toContainText("25% flat off");
    await expect(offers).toContainText("10%-20% discount");
    const shopNow = offers.getByRole("link", { name: /^Shop Now/ });
    await expect(shopNow).toHaveCount(2);
    for (const link of await shopNow.all()) {
      await expect(link).toHaveText("Shop Now");
      expect(await hrefOf(link)).toBe("/shop");
    }
    const cards = offers.getByRole("listitem");
    await expect(cards).toHaveCount(4);
    await expect(cards.nth(0)).toContainText("15%");
    await expect(cards.nth(1)).toContainText(/up to 25%/i);
    await expect(cards.nth(2)).toContainText("From $50.00");
    await expect(cards.nth(3)).toContainText(/15% flat off/i);
    await expect(cards.nth(0)).toContainText(/drill/i);
    await expect(cards.nth(1)).toContainText(/batter/i);
    await expect(cards.nth(2)).toContainText(/jigsaw/i);
    await expect(cards.nth(3)).toContainText(/power tools/i);
  });

  test("testimonials carousel has 15 five-star slides", async ({ page }) => {
    await page.goto("/");
    const carousel = region(page, "Customer testimonials");
    const slides = carousel.getByRole("group", { includeHidden: true });
    await expect(slides).toHaveCount(15);
    await expect(slides.first()).toHaveAccessibleName("Testimonial 1 of 15");
    await expect(carousel.getByRole("img", { name: "Rated 5 out of 5" })).toHaveCount(1);
    await expect(carousel.getByRole("button", { name: /^Pause/ })).toBeVisible();
    await waitForHydration(page);
    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expect(carousel.getByRole("group")).toHaveAccessibleName("Testimonial 2 of 15");
  });

  test("featured carousel shows the four featured products from the database", async ({ page }) => {
    const featured = queryAll<{ id: number; title: string }>(
      "SELECT id, title FROM products WHERE featured = 1 ORDER BY id LIMIT 4",
    );
    expect(featured).toHaveLength(4);
    await page.goto("/");
    const carousel = region(page, "Featured products");
    const slides = carousel.getByRole("group", { includeHidden: true });
    await expect(slides).toHaveCount(4);
    for (const [i, product] of featured.entries()) {
      const link = slides.nth(i).getByRole("link", { name: product.title, includeHidden: true });
      expect(await hrefOf(link)).toBe(`/shop/${product.id}`);
    }
    // One at a time, with arrows, a price and the two buttons.
    const current = carousel.getByRole("group");
    await expect(current).toHaveCount(1);
    await expect(current).toContainText(featured[0].title);
    await expect(current).toContainText(/\$\d[\d,]*\.\d{2}/);
    await expect(current.getByRole("button", { name: "Add to cart" })).toBeVisible();
    await expect(current.getByRole("button", { name: "Add to Wishlist" })).toBeVisible();
    await waitForHydration(page);
    await carousel.getByRole("button", { name: "Next product" }).click();
    await expect(carousel.getByRole("group")).toContainText(featured[1].title);
    await carousel.getByRole("button", { name: "Previous product" }).click();
    await carousel.getByRole("button", { name: "Previous product" }).click();
    await expect(carousel.getByRole("group")).toContainText(featured[3].title);
  });

  test("best products are distinct discounted in-stock products, each linking to its own page", async ({ page }) => {
    await page.goto("/");
    const best = region(page, "Best Products");
    expect(await hrefOf(best.getByRole("link", { name: "Show All" }))).toBe("/shop");
    const cards = best.getByRole("article");
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(4);
    const ids = new Set<number>();
    for (const card of await cards.all()) {
      const link = card.getByRole("heading").getByRole("link");
      const href = await hrefOf(link);
      expect(href).toMatch(/^\/shop\/\d+$/);
      const id = Number(href.split("/").pop());
      ids.add(id);
      const row = queryOne<{ title: string; stock_quantity: number; discount_percent: number | null }>(
        "SELECT title, stock_quantity, discount_percent FROM products WHERE id = ?",
        id,
      );
      await expect(link).toHaveText(row.title);
      expect(row.stock_quantity).toBeGreaterThan(0);
      expect(row.discount_percent).not.toBeNull();
    }
    expect(ids.size).toBe(count);

    await waitForHydration(page);
    const second = cards.nth(1).getByRole("heading").getByRole("link");
    const title = (await second.textContent())!;
    const href = await hrefOf(second);
    await second.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  });

  test("brand strip links every brand to /shop?brand=<slug>", async ({ page }) => {
    const brands = queryAll<{ name: string; slug: string }>("SELECT name, slug FROM brands ORDER BY position");
    expect(brands).toHaveLength(15);
    await page.goto("/");
    const links = region(page, "Our Brands").getByRole("link");
    await expect(links).toHaveCount(15);
    for (const [i, brand] of brands.entries()) {
      await expect(links.nth(i)).toHaveAccessibleName(brand.name);
      expect(await hrefOf(links.nth(i))).toBe(`/shop?brand=${brand.slug}`);
    }
  });

  test("newsletter form has an email input named userEmail and a Subscribe button", async ({ page }) => {
    await page.goto("/");
    const newsletter = region(page, "Subscribe to our newsletter");
    const email = newsletter.getByRole("textbox", { name: /email/i });
    await expect(email).toHaveAttribute("name", "userEmail");
    await expect(email).toHaveAttribute("type", "email");
    await expect(newsletter.getByRole("button", { name: "Subscribe" })).toBeVisible();
  });
});

test.describe("hero carousel", () => {
  const hero = (page: Page) => region(page, "Featured offers");
  const current = (carousel: Locator) => carousel.getByRole("group");

  /**
   * Opens / with the clock frozen from before the first script runs, so the autoplay timer starts
   * at a known instant and the test moves time by hand. (React schedules on a message channel,
   * which the fake clock leaves alone, so hydration is not held back.)
   */
  async function openWithClock(page: Page) {
    await page.clock.install({ time: new Date("2026-01-05T09:00:00Z") });
    await page.clock.pauseAt(new Date("2026-01-05T09:00:01Z"));
    await page.goto("/");
    await waitForHydration(page);
  }

  test("three slides with the spec's discounts; Shop By Category goes to /shop", async ({ page }) => {
    await page.goto("/");
    const carousel = hero(page);
    const slides = carousel.getByRole("group", { includeHidden: true });
    await expect(slides).toHaveCount(3);
    await expect(slides.nth(0)).toContainText("20%");
    await expect(slides.nth(1)).toContainText("22%");
    await expect(slides.nth(2)).toContainText("25%");
    await expect(slides.nth(0)).toContainText(/drill/i);
    await expect(slides.nth(1)).toContainText(/tools kit/i);
    await expect(slides.nth(2)).toContainText(/chainsaw/i);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await waitForHydration(page);
    await current(carousel).getByRole("link", { name: "Shop By Category" }).click();
    await expect(page).toHaveURL(/\/shop$/);
  });

  test("autoplays every 5 s and loops", async ({ page }) => {
    await openWithClock(page);
    const carousel = hero(page);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await page.clock.runFor(4_900);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await page.clock.runFor(100);
    await expect(current(carousel)).toHaveAccessibleName("Slide 2 of 3");
    await page.clock.runFor(5_000);
    await expect(current(carousel)).toHaveAccessibleName("Slide 3 of 3");
    await page.clock.runFor(5_000);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
  });

  test("the Pause button stops autoplay and Play resumes it", async ({ page }) => {
    await openWithClock(page);
    const carousel = hero(page);
    await carousel.getByRole("button", { name: /^Pause/ }).click();
    await expect(carousel.getByRole("button", { name: /^Play/ })).toBeVisible();
    // Move the pointer away so only the button's state matters.
    await page.mouse.move(5, 5);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(15_000);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await carousel.getByRole("button", { name: /^Play/ }).click();
    await page.mouse.move(5, 5);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(5_100);
    await expect(current(carousel)).toHaveAccessibleName("Slide 2 of 3");
  });

  test("hovering stops autoplay", async ({ page }) => {
    await openWithClock(page);
    const carousel = hero(page);
    await current(carousel).getByRole("heading").hover();
    await page.clock.runFor(15_000);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await page.mouse.move(5, 5);
    await page.clock.runFor(5_100);
    await expect(current(carousel)).toHaveAccessibleName("Slide 2 of 3");
  });

  test("focus inside stops autoplay", async ({ page }) => {
    await openWithClock(page);
    const carousel = hero(page);
    await current(carousel).getByRole("link", { name: "Shop By Category" }).focus();
    await page.clock.runFor(15_000);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await page.getByRole("banner").getByRole("link", { name: "Shop", exact: true }).focus();
    await page.clock.runFor(5_100);
    await expect(current(carousel)).toHaveAccessibleName("Slide 2 of 3");
  });

  test("does not autoplay under prefers-reduced-motion, but arrows still work", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openWithClock(page);
    const carousel = hero(page);
    await page.clock.runFor(20_000);
    await expect(current(carousel)).toHaveAccessibleName("Slide 1 of 3");
    await carousel.getByRole("button", { name: "Next slide" }).click();
    await expect(current(carousel)).toHaveAccessibleName("Slide 2 of 3");
    await carousel.getByRole("button", { name: "Previous slide" }).click();
    await carousel.getByRole("button", { name: "Previous slide" }).click();
    await expect(current(carousel)).toHaveAccessibleName("Slide 3 of 3");
  });
});

test("every moving part of the home page can be paused (WCAG 2.2.2)", async ({ page }) => {
  await page.goto("/");
  for (const name of ["Featured offers", "Customer testimonials", "Featured products"]) {
    await expect(region(page, name).getByRole("button", { name: `Pause ${name}` })).toBeVisible();
  }
  await expect(region(page, "Our Brands").getByRole("checkbox", { name: /pause/i })).toBeAttached();
});
