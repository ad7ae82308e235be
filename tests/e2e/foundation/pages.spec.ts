import { expectNoAxeViolations } from "../support/axe.ts";
import { consoleErrorsOf, expect, test } from "../support/fixtures.ts";
import { CONTENT_PAGES, expectSeoHead, waitForHydration } from "../support/site.ts";

/** Every screen of the store: status, one h1, the SEO head and no axe violations. */
const PAGES: { path: string; name: string }[] = [
  { path: "/", name: "home" },
  { path: "/shop", name: "shop" },
  { path: "/shop/1", name: "product" },
  { path: "/cart", name: "cart" },
  { path: "/wishlist", name: "wishlist" },
  { path: "/login", name: "login" },
  { path: "/register", name: "register" },
  { path: "/about", name: "about" },
  { path: "/faq", name: "faq" },
  { path: "/contact", name: "contact" },
  { path: "/blogs", name: "blog index" },
  { path: "/blogs/how-to-choose-a-cordless-drill", name: "blog article" },
  ...CONTENT_PAGES.map((p) => ({ path: p.path, name: `content page ${p.title}` })),
  { path: "/account/orders", name: "order status" },
];

test.describe("every page at desktop size", () => {
  for (const { path, name } of PAGES) {
    test(`${name} (${path}) answers 200 with an h1, SEO head and no axe violations`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectSeoHead(page, path);
      await expectNoAxeViolations(page);
    });
  }

  test("the 404 page answers 404 with an h1, a noindex title and no axe violations", async ({ page }) => {
    const response = await page.goto("/this-page-does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page).toHaveTitle(/not found/i);
    await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expectNoAxeViolations(page);
  });

  test("the 404 page carries a meta description, canonical and Open Graph tags", async ({ page }) => {
    await page.goto("/this-page-does-not-exist");
    await expectSeoHead(page, "/this-page-does-not-exist");
  });
});

test.describe("a page served again", () => {
  // Regression: the anonymous page cache once replayed the first reply's CSP header (old nonce).
  test("runs its scripts on every view, not only the first (CSP nonce matches)", async ({ page }) => {
    for (const view of [1, 2, 3]) {
      await page.goto("/faq");
      await waitForHydration(page);
      const question = page.getByRole("main").getByRole("button").first();
      await question.click();
      await expect(question, `view ${view}`).toHaveAttribute("aria-expanded", "true");
    }
    expect(consoleErrorsOf(page).filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});

test.describe("home and shop on a 390×844 phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const path of ["/", "/shop"]) {
    test(`${path} answers 200 with an h1, SEO head and no axe violations`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectSeoHead(page, path);
      await expectNoAxeViolations(page);
    });
  }
});
