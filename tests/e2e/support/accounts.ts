import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { waitForHydration } from "./site.ts";

export const uniqueEmail = (tag: string) => `${tag}.${randomBytes(4).toString("hex")}@example.com`;
export const GOOD_PASSWORD = "Sturdy-Hammer-42";

/** Creates an account through the auth HTTP handler, as the browser would. */
export async function registerViaApi(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password = GOOD_PASSWORD,
  name = "Test Shopper",
) {
  const response = await request.post("/api/auth/sign-up/email", {
    data: { email, password, name },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function logInThroughForm(page: Page, email: string, password = GOOD_PASSWORD) {
  await page.goto("/login");
  // A click before hydration would take the no-JavaScript path, which has no toast.
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Login Successfully" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("button", { name: "Logout" }).first()).toBeVisible();
}
