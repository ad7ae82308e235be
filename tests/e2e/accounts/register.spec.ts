import { expect, test } from "@playwright/test";
import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { linkIn, waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";

test.describe("Register", () => {
  test("shows the spec's fields, Google button, show/hide toggle and link to login", async ({ page }) => {
    await page.goto("/register");
    // The show/hide toggle works once the page has hydrated (a click before that does nothing).
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Register" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expect(page.locator('input[name="fullName"]')).toBeVisible();
    await expect(page.locator('input[name="email"]')).toBeVisible();
    const password = page.locator('input[name="password"]');
    await password.fill("secret-value");
    await expect(password).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password).toHaveAttribute("type", "password");
    await expect(page.getByRole("link", { name: "Login" }).last()).toHaveAttribute("href", "/login");
  });

  test("missing email or password shows the spec's alert for 1.5 s, not the browser's popup", async ({ page }) => {
    await page.goto("/register");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Register" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Email and password are required" });
    await expect(alert).toBeVisible();
    await expect(alert).toBeHidden({ timeout: 2500 });
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Email and password are required" })).toBeVisible();
  });

  test("a short password shows 'Password must be at least 6 characters'", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByLabel("Password", { exact: true }).fill("abc");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Password must be at least 6 characters" })).toBeVisible();
  });

  test("a common password is refused", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Email").fill(uniqueEmail("common"));
    await page.getByLabel("Password", { exact: true }).fill("qwerty123");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "too common" }).first()).toBeVisible();
  });

  test("success shows 'User Create Successfully', then login is prefilled and the password leaves history", async ({
    page,
  }) => {
    const email = uniqueEmail("new");
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Nora Newcomer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
    const button = page.getByRole("button", { name: "Register" });
    await button.click();
    await expect(button).toBeDisabled();
    await expect(page.getByRole("alert").filter({ hasText: "User Create Successfully" })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue(GOOD_PASSWORD);
    const state = await page.evaluate(() => JSON.stringify(window.history.state));
    expect(state).not.toContain(GOOD_PASSWORD);
    expect(state).toContain(email);
  });

  test("sign-up mails a link that confirms the address; the shopper can sign in before confirming", async ({
    page,
  }) => {
    const email = uniqueEmail("confirm");
    await page.goto("/register");
    await waitForHydration(page);
    await page.getByLabel("Full name").fill("Connie Confirm");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByRole("status").filter({ hasText: "We've emailed you a link to confirm your address" }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Login Successfully" })).toBeVisible();

    const mail = await waitForMail(email, /Confirm your ToolHub Wholesale email address/);
    await page.goto(linkIn(mail, "/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/login\?verified=1$/);
    await expect(page.getByRole("status").filter({ hasText: "your email address is confirmed" })).toBeVisible();
  });

  test("an email that is already registered gets a clear message", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("taken");
    await registerViaApi(request, baseURL!, email);
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "already exists" }).first()).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the server enforces the same rules and registration still works", async ({ page }) => {
      await page.goto("/register");
      await page.getByLabel("Email").fill("x@example.com");
      await page.getByRole("button", { name: "Register" }).click();
      await expect(page.getByRole("alert")).toHaveText("Email and password are required");
      await page.getByLabel("Password", { exact: true }).fill("abc");
      await page.getByRole("button", { name: "Register" }).click();
      await expect(page.getByRole("alert")).toHaveText("Password must be at least 6 characters");
      const email = uniqueEmail("nojs");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
      await page.getByRole("button", { name: "Register" }).click();
      await expect(page).toHaveURL(/\/login\?registered=1/);
      await expect(page.getByRole("alert").filter({ hasText: "User Create Successfully" })).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveValue(email);
    });
  });
});
