/**
 * The back office with the keyboard only: the navigation, a search, a row's link, and an order
 * action, reached by Tab and used with Enter, with a visible focus ring on the way.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";

/** Presses Tab until the focused element matches, failing after `max` presses. */
async function tabTo(
  page: Page,
  matches: (el: { tag: string; text: string; label: string | null; name: string | null }) => boolean,
  max = 80,
) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return {
        tag: a?.tagName ?? "",
        text: (a?.textContent ?? "").trim(),
        label: a?.getAttribute("aria-label") ?? null,
        name: a?.getAttribute("name") ?? null,
      };
    });
    if (matches(el)) return;
  }
  throw new Error("never reached the element by Tab");
}

test("staff reach Products, search by keyboard, and open a product, all with Tab and Enter", async ({
  page,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto("/admin");
  await waitForHydration(page);

  await tabTo(page, (el) => el.tag === "A" && el.text === "Products");
  const focused = page.locator(":focus");
  // A visible focus indicator: an outline or a ring (box-shadow).
  const ring = await focused.evaluate((el) => {
    const s = getComputedStyle(el);
    return s.outlineStyle !== "none" && s.outlineWidth !== "0px"
      ? "outline"
      : s.boxShadow !== "none"
        ? "shadow"
        : "none";
  });
  expect(ring).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();

  await tabTo(page, (el) => el.tag === "INPUT" && el.name === "q");
  const count = page
    .getByRole("main")
    .getByRole("status")
    .filter({ hasText: /^\d+ products?\b/ });
  const everyProduct = await count.innerText();
  await page.keyboard.type("drill");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/products\?.*q=drill/);
  // The address changes before the new rows are drawn: wait for the search's own count.
  await expect(count).not.toHaveText(everyProduct);
  const firstRow = page.getByRole("main").getByRole("table").locator("tbody tr").first();
  await expect(firstRow).toBeVisible();
  const title = (await firstRow.getByRole("link").first().innerText()).trim();

  await tabTo(page, (el) => el.tag === "A" && el.text === title);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/products\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
