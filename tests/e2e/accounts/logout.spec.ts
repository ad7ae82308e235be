import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { waitForHydration } from "../support/site.ts";
import { GOOD_PASSWORD, logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";

const CONFIRM = "Are you sure you want to Logout?";

test("logout asks first; Escape and Cancel keep the session; Yes ends it with the 3 s notice", async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail("logout");
  await registerViaApi(request, baseURL!, email);
  await logInThroughForm(page, email);

  // A button, not a link: a screen reader announces what it does.
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Logout" })).toHaveCount(0);
  const logout = header.getByRole("button", { name: "Logout" }).first();
  await logout.click();
  const dialog = page.getByRole("dialog", { name: CONFIRM });
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

test("the Logout button works from the keyboard: Enter opens the dialog, Escape cancels, Yes logs out", async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail("logout-keys");
  await registerViaApi(request, baseURL!, email);
  await logInThroughForm(page, email);
  const logout = page.getByRole("banner").getByRole("button", { name: "Logout" }).first();
  const dialog = page.getByRole("dialog", { name: CONFIRM });

  await logout.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(logout).toBeFocused();
  await expect(page).toHaveURL(/\/$/);

  await page.keyboard.press("Space");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Yes" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "You successfully Logout." })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);
});

test("the no-JavaScript confirmation page passes axe", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("logout-axe");
  await registerViaApi(request, baseURL!, email);
  await logInThroughForm(page, email);
  await page.goto("/logout");
  await expect(page.getByRole("heading", { name: CONFIRM })).toBeVisible();
  await expectNoAxeViolations(page);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("the menu's Logout is a button that opens the same dialog", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("logout-mobile");
    await registerViaApi(request, baseURL!, email);
    // Signed in through the page's own cookie jar (the desktop header, which logInThroughForm checks, is hidden here).
    const signIn = await page.request.post("/api/auth/sign-in/email", {
      data: { email, password: GOOD_PASSWORD },
      headers: { origin: baseURL! },
    });
    expect(signIn.status()).toBe(200);
    await page.goto("/");
    await waitForHydration(page); // the Menu button works once the page has hydrated
    await page.getByRole("button", { name: "Menu" }).click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    const logout = menu.getByRole("button", { name: "Logout" });
    await expect(logout).toBeVisible();
    await expect(menu.getByRole("link", { name: "Logout" })).toHaveCount(0);
    await logout.click();
    const dialog = page.getByRole("dialog", { name: CONFIRM });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "You successfully Logout." })).toBeVisible();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  async function logIn(page: import("@playwright/test").Page, email: string) {
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
  }

  test("the Logout button leads to the confirmation page, and Yes logs out", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("logout-nojs");
    await registerViaApi(request, baseURL!, email);
    await logIn(page, email);
    await page.getByRole("banner").getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL(/\/logout\??$/);
    await expect(page.getByRole("heading", { name: CONFIRM })).toBeVisible();
    // Only asked so far: the session is still there.
    await expect(page.getByRole("banner").getByRole("button", { name: "Logout" }).first()).toBeAttached();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("heading", { name: "Logout!" })).toBeVisible();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a GET of /logout still asks first", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("logout-get");
    await registerViaApi(request, baseURL!, email);
    await logIn(page, email);
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: CONFIRM })).toBeVisible();
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/account$/);
    await page.goto("/logout");
    await page.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("heading", { name: "Logout!" })).toBeVisible();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/);
  });
});
