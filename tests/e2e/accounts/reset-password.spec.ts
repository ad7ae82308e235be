import { expect, test } from "@playwright/test";
import { GOOD_PASSWORD, logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { linkIn, waitForMail } from "../support/mail.ts";

const NEW_PASSWORD = "Fresh-Chisel-77";

test("forgot password: the mailed link sets a new password and ends the other sessions", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const email = uniqueEmail("reset");
  await registerViaApi(request, baseURL!, email);
  const elsewhere = await browser.newPage();
  await logInThroughForm(elsewhere, email);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  const answer = page.getByRole("alert");
  await expect(answer).toContainText("If an account uses that email");

  const mail = await waitForMail(email, /Reset your/i);
  await page.goto(linkIn(mail, "/api/auth/reset-password/"));
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await page.getByLabel("New password").fill("123456");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("alert")).toContainText("too common");
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("alert")).toContainText("Your password has been changed");

  await elsewhere.goto("/account");
  await expect(elsewhere).toHaveURL(/\/login$/);
  await elsewhere.close();
  await logInThroughForm(page, email, NEW_PASSWORD);
});

test("the answer is the same for an unknown email", async ({ page }) => {
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(uniqueEmail("ghost"));
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("alert")).toContainText("If an account uses that email");
});

test("account page: change password needs the current one; other sessions can be signed out", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const email = uniqueEmail("account");
  await registerViaApi(request, baseURL!, email, GOOD_PASSWORD, "Ada Account");
  await logInThroughForm(page, email);
  await page.goto("/account");
  await expect(page.getByText("Ada Account")).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole("link", { name: "Your orders" })).toHaveAttribute("href", "/account/orders");

  const elsewhere = await browser.newPage();
  await logInThroughForm(elsewhere, email);
  await page.reload();
  await page.getByRole("button", { name: "End all other sessions" }).click();
  await expect(page.getByText("Every other session has ended. Those devices are signed out.")).toBeVisible();
  await elsewhere.goto("/account");
  await expect(elsewhere).toHaveURL(/\/login$/);
  await elsewhere.close();

  await page.getByLabel("Current password").fill("Wrong-Password-1");
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toContainText("current password is incorrect");
  await page.getByLabel("Current password").fill(GOOD_PASSWORD);
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toContainText("Your password has been changed");
});
