import { expect, test } from "@playwright/test";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { linkIn, waitForMail } from "../support/mail.ts";

test("'Email me a sign-in link' signs in once; the link cannot be used again", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const email = uniqueEmail("link");
  await registerViaApi(request, baseURL!, email, "Sturdy-Hammer-42", "Lina Link");
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("sign-in link is on its way");

  const mail = await waitForMail(email, /sign-in link/i);
  expect(mail.body).toContain("expires in 15 minutes");
  const link = linkIn(mail, "/api/auth/magic-link/verify");
  await page.goto(link);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: /Your account \(Lina Link\)/ }).first()).toBeVisible();

  const other = await browser.newPage();
  await other.goto(link);
  await expect(other).toHaveURL(/\/login\?error=/);
  await expect(other.getByText("expired or was already used").first()).toBeVisible();
  await expect(other.getByRole("link", { name: "Login" }).first()).toBeVisible();
  await other.close();
});

test("an unknown email gets the same answer and no account is created", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(uniqueEmail("stranger"));
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("sign-in link is on its way");
});
