import { expect, test } from "../support/fixtures.ts";
import { NOT_FOUND_TEXT, waitForHydration } from "../support/site.ts";

test.describe("404 page", () => {
  for (const path of ["/no-such-page", "/shop/999999", "/shop/abc"]) {
    test(`${path} answers 404 with the spec's text`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      const main = page.getByRole("main");
      await expect(main.getByText(NOT_FOUND_TEXT, { exact: true })).toBeVisible();
      await expect(main.getByRole("link", { name: "Go Home" })).toBeVisible();
    });
  }

  test("Go Home navigates to the home page", async ({ page }) => {
    await page.goto("/shop/999999");
    await waitForHydration(page);
    await page.getByRole("main").getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("region", { name: "Featured offers", exact: true })).toBeVisible();
    await expect(page.getByText(NOT_FOUND_TEXT)).toHaveCount(0);
  });

  test("Go Home works without JavaScript too", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/no-such-page");
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await context.close();
  });
});

test.describe("route error page", () => {
  test("answers 500 with a friendly message, Try again and Go Home, and no stack trace", async ({ page }) => {
    const response = await page.goto("/__test/error");
    expect(response?.status()).toBe(500);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(/went wrong/i);
    await expect(main).toContainText(/try again/i);

    const retry = main.getByRole("link", { name: "Try again" });
    await expect(retry).toHaveAttribute("href", "/__test/error");
    await expect(main.getByRole("link", { name: "Go Home" })).toHaveAttribute("href", "/");

    const text = await page.locator("body").innerText();
    expect(text).not.toContain("Deliberate failure");
    expect(text).not.toMatch(/\bat .+:\d+:\d+/);
    expect(text).not.toMatch(/\bError: /);
    // Nor in the HTML sent to the browser (hydration data included).
    const html = await response!.text();
    expect(html).not.toContain("Deliberate failure");
    expect(html).not.toMatch(/\.(ts|js|tsx):\d+:\d+/);

    await waitForHydration(page);
    await main.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("region", { name: "Featured offers", exact: true })).toBeVisible();
  });
});
