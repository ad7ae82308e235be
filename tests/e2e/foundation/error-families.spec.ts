/**
 * Each route family has its own error page inside the store's frame: it says what failed in that
 * family's words, offers Try again and the family's way back, and shows the request's reference
 * (the X-Request-Id the server logged the error under). No stack trace or error text reaches the page.
 */
import { expect, test } from "../support/fixtures.ts";
import { signInAsStaff } from "../admin/support.ts";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { NOT_FOUND_TEXT } from "../support/site.ts";
import { signInViaApi } from "../shopping/support.ts";

const FAMILIES = [
  {
    path: "/account/__test/error",
    says: /this part of your account/,
    back: { name: "Your account", href: "/account" },
  },
  { path: "/quick-order/__test/error", says: /this trade page/, back: { name: "Your account", href: "/account" } },
  {
    path: "/admin/__test/error",
    says: /back-office page failed/,
    back: { name: "Back to the dashboard", href: "/admin" },
  },
] as const;

for (const family of FAMILIES) {
  test(`${family.path} answers 500 with its family's error page and the request's reference`, async ({
    page,
    baseURL,
  }) => {
    if (family.path.startsWith("/admin")) await signInAsStaff(page.request, baseURL!, "error-family");
    const response = await page.goto(family.path);
    expect(response?.status()).toBe(500);
    const requestId = response!.headers()["x-request-id"];
    expect(requestId).toMatch(/^[A-Za-z0-9._-]{8,64}$/);

    // The store's frame stays: header navigation and footer are there.
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Something went wrong");
    await expect(main).toContainText(family.says);
    await expect(main).toContainText(`Reference: ${requestId}`);
    await expect(main.getByRole("link", { name: "Try again" })).toHaveAttribute("href", family.path);
    await expect(main.getByRole("link", { name: family.back.name })).toHaveAttribute("href", family.back.href);
    await expect(main.getByRole("link", { name: "Go Home" })).toHaveAttribute("href", "/");

    const html = await response!.text();
    expect(html).not.toContain("Deliberate failure");
    expect(html).not.toMatch(/\.(ts|js|tsx):\d+:\d+/);
  });
}

test("an order that isn't the shopper's is the spec's not-found page inside the account family", async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail("error-family-order");
  await registerViaApi(page.request, baseURL!, email);
  await signInViaApi(page.request, baseURL!, email);
  const response = await page.goto("/account/orders/TH-0000000000");
  expect(response?.status()).toBe(404);
  const main = page.getByRole("main");
  await expect(main.getByText(NOT_FOUND_TEXT, { exact: true })).toBeVisible();
  await expect(main.getByRole("link", { name: "Go Home" })).toBeVisible();
});
