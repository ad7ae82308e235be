import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";
import { urlIs, waitForHydration } from "../support/site.ts";

interface Stop {
  tag: string;
  name: string;
  href: string | null;
  type: string | null;
  region: string | null;
}

/** Records every element that receives focus: tag, accessible-ish name, link target, enclosing region. */
function recordFocus(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { focusStops: unknown[] };
    w.focusStops = [];
    document.addEventListener("focusin", (event) => {
      const el = event.target as HTMLElement;
      const labelledBy = el.getAttribute("aria-labelledby");
      const label = (el as HTMLInputElement).labels?.[0]?.textContent;
      const name =
        el.getAttribute("aria-label") ??
        (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
        label ??
        el.textContent ??
        "";
      const section = el.closest("section[aria-labelledby], section[aria-label]");
      const region = section
        ? (section.getAttribute("aria-label") ??
          document.getElementById(section.getAttribute("aria-labelledby")!)?.textContent ??
          null)
        : null;
      w.focusStops.push({
        tag: el.tagName.toLowerCase(),
        name: name.trim(),
        href: el.getAttribute("href"),
        type: el.getAttribute("type"),
        region,
      });
    });
  });
}

const focusStops = (page: Page) => page.evaluate(() => (window as unknown as { focusStops: Stop[] }).focusStops);

test("tabbing from the top of / reaches the header, the hero pause button and a product card", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  // The Login link takes its place once the page has read the visitor (/visitor): tab after that.
  await expect(page.getByRole("banner").getByRole("link", { name: "Login", exact: true }).first()).toBeVisible();
  await recordFocus(page);
  const isProductCard = (s: Stop) => s.region === "Best Products" && /^\/shop\/\d+$/.test(s.href ?? "");
  let stops: Stop[] = [];
  for (let presses = 0; presses < 120 && !stops.some(isProductCard); presses++) {
    await page.keyboard.press("Tab");
    stops = await focusStops(page);
  }
  expect(stops.some(isProductCard), "a Best Products card link gets focus").toBe(true);

  const has = (pred: (s: Stop) => boolean) => stops.findIndex(pred);
  const navIndexes = ["Home", "Shop", "About Us", "FAQ", "Contact Us"].map((name) =>
    has((s) => s.tag === "a" && s.name === name && s.region === null),
  );
  for (const index of navIndexes) expect(index).toBeGreaterThanOrEqual(0);
  expect([...navIndexes].sort((a, b) => a - b)).toEqual(navIndexes);

  expect(has((s) => s.tag === "input" && s.type === "search")).toBeGreaterThan(navIndexes[4]);
  expect(has((s) => s.href === "/cart")).toBeGreaterThanOrEqual(0);
  expect(has((s) => s.href === "/wishlist")).toBeGreaterThanOrEqual(0);
  expect(has((s) => s.href === "/login" && s.name === "Login")).toBeGreaterThanOrEqual(0);
  expect(
    has((s) => s.tag === "button" && /^Pause/.test(s.name) && s.region === "Featured offers"),
  ).toBeGreaterThanOrEqual(0);
  const card = stops.at(-1)!;

  // Enter on the focused product card opens it.
  await expect(
    page
      .getByRole("link", { name: card.name, exact: true })
      .and(page.locator(`[href="${card.href}"]`))
      .first(),
  ).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${card.href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(card.name);
});

test("the first Tab reaches a skip link that moves focus to the content", async ({ page }) => {
  await page.goto("/about");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: /skip to content/i });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

test("the FAQ accordion opens and closes with Enter and Space", async ({ page }) => {
  await page.goto("/faq");
  await waitForHydration(page);
  const question = page.getByRole("main").getByRole("button").first();
  await question.focus();
  await page.keyboard.press("Enter");
  await expect(question).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Space");
  await expect(question).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Space");
  await expect(question).toHaveAttribute("aria-expanded", "true");
  // Tab moves on to the next question, which Enter opens while the first one closes.
  await page.keyboard.press("Tab");
  const next = page.getByRole("main").getByRole("button").nth(1);
  await expect(next).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(next).toHaveAttribute("aria-expanded", "true");
  await expect(question).toHaveAttribute("aria-expanded", "false");
});

test("shop filters and pagination can be operated from the keyboard", async ({ page }) => {
  await page.goto("/shop");
  await waitForHydration(page);
  const categories = page.getByRole("group", { name: "Categories" });
  const more = categories.getByRole("button", { name: "+View More" });
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(categories.getByRole("checkbox")).toHaveCount(15);
  const next = page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" });
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(urlIs("/shop", { page: "2" }));
});
