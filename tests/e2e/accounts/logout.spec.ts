import { expect, test } from "@playwright/test";
import { logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";

test("logout asks first; Escape and Cancel keep the session; Yes ends it with the 3 s notice", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("logout");
  await registerViaApi(request, baseURL!, email);
  await logInThroughForm(page, email);

  const logout = page.getByRole("link", { name: "Logout" }).first();
  await logout.click();
  const dialog = page.getByRole("dialog", { name: "Are you sure you want to Logout?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Yes" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await logout.click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(logout).toBeVisible();

  await logout.click();
  await dialog.getByRole("button", { name: "Yes" }).click();
  const notice = page.getByRole("alert").filter({ hasText: "You successfully Logout." });
  await expect(notice).toContainText("Logout!");
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem("user"))).toBeNull();
  await expect(notice).toBeVisible();
  await expect(notice).toBeHidden({ timeout: 4000 });

  // The server session is gone too.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the Logout link confirms on its own page", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("logout-nojs");
    await registerViaApi(request, baseURL!, email);
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Sturdy-Hammer-42");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Are you sure you want to Logout?" })).toBeVisible();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("heading", { name: "Logout!" })).toBeVisible();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/);
  });
});
