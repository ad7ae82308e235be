import { statSync } from "node:fs";
import path from "node:path";
import { GOOD_PASSWORD, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  placeOrderButton,
  US_ADDRESS,
} from "../shopping/support.ts";

// A second store runs with nothing configured, as `npm start` does for a newcomer (playwright.config.ts).
const port = Number(process.env.E2E_PORT ?? 3100) + 50;
const dataDir = path.resolve(".tmp", `e2e-${port}`);

test.describe.configure({ timeout: 60_000 });

for (const host of ["127.0.0.1", "localhost"]) {
  test.describe(`the default store at http://${host}:${port}`, () => {
    test.use({ baseURL: `http://${host}:${port}` });

    test("register, log in, add to the cart and check out, without an unauthorized-domain refusal", async ({
      page,
    }) => {
      const email = uniqueEmail(`defaults-${host.replace(/\W/g, "")}`);
      await page.goto("/register");
      await waitForHydration(page);
      await page.getByLabel("Full name").fill("Newcomer Shopper");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
      await page.getByRole("button", { name: "Register" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "User Create Successfully" })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Login Successfully" })).toBeVisible();
      await expect(page.getByText("unauthorized domain")).toHaveCount(0);

      await addFromProductPage(page, 7, { quantity: 1 });
      await page.goto("/checkout");
      await waitForHydration(page);
      await fillCheckout(page, US_ADDRESS);
      await placeOrderButton(page).click();
      expect(await confirmedOrderNumber(page)).toMatch(/^TH-/);
      await expectNoAxeViolations(page);
    });
  });
}

test("a loopback origin posting to another loopback host is refused", async ({ request }) => {
  const response = await request.post(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
    data: { email: uniqueEmail("cross"), password: GOOD_PASSWORD, name: "Cross Site" },
    headers: { origin: `http://localhost:${port}` },
  });
  expect(response.status()).toBe(403);
});

test("with no AUTH_SECRET, the store generated its own secret in the data folder, readable by its owner only", () => {
  expect(statSync(path.join(dataDir, "auth-secret")).mode & 0o777).toBe(0o600);
});
