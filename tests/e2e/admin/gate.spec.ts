import { expect, test } from "../support/fixtures.ts";
import { accountWithRole, signInAsStaff, signInViaApi } from "./support.ts";

test("a guest asking for /admin is sent to /login", async ({ page }) => {
  const response = await page.request.get("/admin", { maxRedirects: 0 });
  expect([302, 303]).toContain(response.status());
  expect(response.headers().location).toBe("/login");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login$/);
});

test("a signed-in customer gets the store's ordinary 404 page", async ({ page, baseURL }) => {
  const email = await accountWithRole(page.request, baseURL!, "admin-customer");
  await signInViaApi(page.request, baseURL!, email);

  const ordinary = await page.goto("/no-such-page-here");
  expect(ordinary?.status()).toBe(404);
  const ordinaryMain = await page.getByRole("main").innerText();
  const ordinaryTitle = await page.title();

  const response = await page.goto("/admin");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveURL(/\/admin$/);
  expect(await page.getByRole("main").innerText()).toBe(ordinaryMain);
  expect(await page.title()).toBe(ordinaryTitle);
  await expect(page.getByText("Dashboard")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Back office" })).toHaveCount(0);
});

// The dashboard's axe scan is in tests/e2e/admin/dashboard.spec.ts (the same page for any staff member).
test("staff see the dashboard, which is not indexed", async ({ page, baseURL }) => {
  await signInAsStaff(page.request, baseURL!, "admin-staff");

  const response = await page.goto("/admin");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cache-control"]).toContain("no-store");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Back office" });
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  for (const label of ["Orders today", "Orders waiting to ship", "Unanswered contact messages"]) {
    await expect(page.getByRole("main").getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
});
