/**
 * Staff accounts can't be taken over (issue 48): staff sign in only with a password and a code
 * (no emailed link, no Google), a password sign-in before enrolment leads straight to enrolment
 * and nowhere else, codes are counted per account and each works once, and the session cookie
 * lives 12 hours.
 */
import { freshTotpCode, totpCode } from "../../support/totp.ts";
import { GOOD_PASSWORD } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { linkIn, waitForMail } from "../support/mail.ts";
import { storeDb } from "../shopping/support.ts";
import { accountWithRole, enrolmentCodes, sessionsOf, signInAsStaff, staffKeys, submitLogin } from "./support.ts";

test("a staff member who hasn't set up a code goes from the password straight to enrolment; the shop treats the session as signed out", async ({
  page,
  baseURL,
}) => {
  const email = await accountWithRole(page.request, baseURL!, "enrol-first", "staff");
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/admin\/two-factor$/);
  await expect(page.getByRole("button", { name: "Set up authenticator app" })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" }).first()).toBeVisible();
});

test("without JavaScript too, the password leads an unenrolled staff member to enrolment", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const email = await accountWithRole(page.request, baseURL!, "enrol-nojs", "admin");
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/two-factor$/);
  await context.close();
});

test("an emailed sign-in link is never sent for a staff address: the mail says why, and the page answers as for anyone", async ({
  page,
  baseURL,
}) => {
  const email = await signInAsStaff(page.request, baseURL!, "no-link");
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("sign-in link is on its way");
  const mail = await waitForMail(email, /Sign-in links don't work for staff accounts/);
  expect(mail.body).toContain("sign in only with their password and a code");
  expect(mail.body).not.toContain("magic-link/verify");
});

test("a sign-in link mailed before the account became staff opens no session: the login page says how staff sign in", async ({
  page,
  baseURL,
}) => {
  const email = await accountWithRole(page.request, baseURL!, "link-then-staff");
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  const mail = await waitForMail(email, /sign-in link/i);
  storeDb().prepare(`UPDATE "user" SET role = 'admin' WHERE email = ?`).run(email);
  await page.goto(linkIn(mail, "/api/auth/magic-link/verify"));
  await expect(page).toHaveURL(/\/login\?error=STAFF_PASSWORD_ONLY/);
  await expect(
    page.getByText("Staff accounts sign in with their password and a code from their authenticator app.").first(),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  expect(sessionsOf(email)).toEqual({ n: 0 });
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login$/);
});

test("a code works once: the code just used is refused at the next sign-in with a reason, the next code works", async ({
  page,
  baseURL,
}) => {
  const email = await signInAsStaff(page.request, baseURL!, "code-once");
  const key = staffKeys.get(email)!;
  // The code the enrolment was confirmed with a moment ago (its time step is spent).
  const spent = enrolmentCodes.get(email)!;
  await page.context().clearCookies();
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/two-factor$/);
  await page.getByLabel("Authentication code").fill(spent);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "That code was already used. Wait for the next code from your app, then enter it.",
  );
  await page.getByLabel("Authentication code").fill(await freshTotpCode(key));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test("five wrong codes pause code entry for the account, even the right code; the owner is mailed", async ({
  page,
  baseURL,
}) => {
  const email = await signInAsStaff(page.request, baseURL!, "code-lock");
  const key = staffKeys.get(email)!;
  await page.context().clearCookies();
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/two-factor$/);
  const wrong = () =>
    ["000000", "111111"].find((c) => ![-1, 0, 1].some((s) => totpCode(key, Date.now() + s * 30_000) === c)) ?? "222222";
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Authentication code").fill(wrong());
    // Each answer repeats the last one's text: wait for the answer itself, not just the words.
    const answered = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/two-factor"),
    );
    await page.getByRole("button", { name: "Verify" }).click();
    await answered;
    await expect(page.getByRole("alert")).toContainText("That code is not right");
  }
  await page.getByLabel("Authentication code").fill(await freshTotpCode(key));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toContainText("Too many wrong codes. Code entry is paused for 15 minutes");
  await expect(page).toHaveURL(/\/two-factor$/);
  const mail = await waitForMail(email, /Code entry on your ToolHub Wholesale account is paused/);
  expect(mail.body).toContain("no code will be accepted for the next 15 minutes");
});

test("the back office's session cookie lives 12 hours", async ({ page, baseURL }) => {
  await signInAsStaff(page.request, baseURL!, "cookie-12h");
  const [staffCookie] = (await page.context().cookies()).filter((c) => c.name.endsWith("session_token"));
  const hoursLeft = (staffCookie.expires * 1000 - Date.now()) / 3600_000;
  expect(hoursLeft).toBeGreaterThan(11.9);
  expect(hoursLeft).toBeLessThanOrEqual(12);
});
