import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { sessionsOf } from "../admin/support.ts";
import { storeDb } from "../shopping/support.ts";

const identityFile = () => path.resolve(".tmp", `e2e-${process.env.E2E_PORT ?? 3100}`, "oidc-identity.json");
function googleSays(identity: Record<string, unknown>) {
  writeFileSync(identityFile(), JSON.stringify(identity));
}

/** The popup flow is the hydrated page's; before hydration the button posts the no-JS form. */
async function clickGoogle(page: Page) {
  await waitForHydration(page);
  await page.getByRole("button", { name: /Continue with Google|Waiting for Google/ }).click();
}

// The identity file is shared by the whole server, so these run one after another.
test.describe.configure({ mode: "serial" });

test("the popup signs in through OpenID Connect and closes; the page has the user", async ({ page }) => {
  const email = uniqueEmail("google");
  googleSays({ sub: `sub-${email}`, email, email_verified: true, name: "Gina Google", picture: "" });
  await page.goto("/login");
  const popupPromise = page.waitForEvent("popup");
  await clickGoogle(page);
  const popup = await popupPromise;
  expect(popup.viewportSize()).toEqual({ width: 500, height: 600 });
  await popup.waitForEvent("close");
  await expect(page.getByRole("alert").filter({ hasText: "Login Successful" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: /Your account \(Gina Google\)/ }).first()).toBeVisible();
  const stored = JSON.parse((await page.evaluate(() => window.localStorage.getItem("user")))!);
  expect(stored).toEqual({ fullName: "Gina Google", email, profilePhoto: null });
});

test("Google joins an existing email account only when it says the email is verified", async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail("link");
  await registerViaApi(request, baseURL!, email);
  googleSays({ sub: `sub-unverified-${email}`, email, email_verified: false, name: "Una Verified" });
  await page.goto("/login");
  let popupPromise = page.waitForEvent("popup");
  await clickGoogle(page);
  await (await popupPromise).waitForEvent("close");
  await expect(page.getByRole("alert")).toContainText("already exists");

  googleSays({ sub: `sub-verified-${email}`, email, email_verified: true, name: "Vera Verified" });
  popupPromise = page.waitForEvent("popup");
  await clickGoogle(page);
  await (await popupPromise).waitForEvent("close");
  await expect(page.getByRole("alert").filter({ hasText: "Login Successful" })).toBeVisible();
});

test("pre-account takeover: a password set before the address was confirmed stops working once the owner continues with Google", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const email = uniqueEmail("victim");
  const attackerPassword = "Attacker-Chosen-99";
  // Someone registers the owner's address with a password of their own, and stays signed in.
  await registerViaApi(request, baseURL!, email, attackerPassword, "Not The Owner");
  const attacker = await browser.newContext();
  const attackerPage = await attacker.newPage();
  await logInThroughForm(attackerPage, email, attackerPassword);

  // The real owner continues with Google, which says the address is verified.
  googleSays({ sub: `sub-owner-${email}`, email, email_verified: true, name: "Real Owner" });
  await page.goto("/login");
  const popupPromise = page.waitForEvent("popup");
  await clickGoogle(page);
  await (await popupPromise).waitForEvent("close");
  await expect(page.getByRole("alert").filter({ hasText: "Login Successful" })).toBeVisible();

  // The intruder's session is over and the password no longer opens the account.
  await attackerPage.reload();
  await expect(attackerPage.getByRole("banner").getByRole("link", { name: "Login" }).first()).toBeVisible();
  const retry = await request.post("/api/auth/sign-in/email", {
    data: { email, password: attackerPassword },
    headers: { origin: baseURL! },
  });
  expect(retry.status()).toBe(401);
  // The owner is still signed in, and was told what happened.
  await page.reload();
  await expect(
    page.getByRole("link", { name: /Your account \(Real Owner|Your account \(Not The Owner/ }).first(),
  ).toBeVisible();
  const mail = await waitForMail(email, /Password removed from your ToolHub Wholesale account/);
  expect(mail.body).toContain("signed out every other device");
  await attacker.close();
});

test("a blocked popup gets a message", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto("/login");
  await clickGoogle(page);
  await expect(page.getByRole("alert")).toContainText("blocked the Google sign-in window");
});

test("closing the popup is noticed, and a second click focuses the open popup", async ({ page, context }) => {
  // Hold the provider's authorize page so the popup stays open until the test closes it.
  await context.route("**/authorize?**", () => {});
  await page.goto("/login");
  const popupPromise = page.waitForEvent("popup");
  await clickGoogle(page);
  const popup = await popupPromise;
  let popups = 1;
  page.on("popup", () => popups++);
  await clickGoogle(page);
  await expect(page.getByRole("alert")).toContainText("already open");
  expect(popups).toBe(1);
  await popup.close();
  await expect(page.getByRole("alert")).toContainText("closed before you finished", { timeout: 8000 });
});

test("network failure and server failure get their own messages", async ({ page }) => {
  await page.goto("/login");
  await page.route("**/api/auth/sign-in/social", (route) => route.abort("internetdisconnected"));
  await clickGoogle(page);
  await expect(page.getByRole("alert")).toContainText("couldn't reach Google");
  await page.unroute("**/api/auth/sign-in/social");
  await page.route("**/api/auth/sign-in/social", (route) => route.fulfill({ status: 500, body: "{}" }));
  await clickGoogle(page);
  await expect(page.getByRole("alert")).toContainText("problem on our side");
});

test("an origin outside the authorized domains is refused", async ({ page, baseURL }) => {
  const other = baseURL!.replace("127.0.0.1", "localhost");
  await page.goto(`${other}/login`);
  await clickGoogle(page);
  await expect(page.getByRole("alert")).toContainText("unauthorized domain");
});

test("a staff account can't sign in with Google: the popup closes with the reason and no session is made", async ({
  page,
  request,
  baseURL,
}) => {
  const email = uniqueEmail("staff-google");
  await registerViaApi(request, baseURL!, email);
  storeDb().prepare(`UPDATE "user" SET role = 'admin', emailVerified = 1 WHERE email = ?`).run(email);
  googleSays({ sub: `sub-staff-${email}`, email, email_verified: true, name: "Stan Staff" });
  await page.goto("/login");
  const popupPromise = page.waitForEvent("popup");
  await clickGoogle(page);
  await (await popupPromise).waitForEvent("close");
  await expect(page.getByRole("alert")).toContainText(
    "Staff accounts sign in with their password and a code from their authenticator app.",
  );
  expect(sessionsOf(email)).toEqual({ n: 0 });
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login$/);
});
