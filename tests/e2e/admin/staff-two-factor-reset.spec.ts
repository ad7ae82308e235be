/**
 * "Reset two-factor" on /admin/staff (admins only): the row's button asks first (a plain GET, so it
 * works without JavaScript), then the colleague's authenticator and sessions are gone, they are
 * mailed, the audit log shows it, and their next sign-in enrols again. Nobody resets their own;
 * staff and customers get the store's 404.
 */
import { expectNoAxeViolations } from "../support/axe.ts";
import { GOOD_PASSWORD } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { storeDb } from "../shopping/support.ts";
import { accountWithRole, signInAsStaff, signInViaApi } from "./support.ts";

const RESET_MAIL = /Your two-factor authentication was reset/;

function idOf(email: string): string {
  return (storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(email) as { id: string }).id;
}

function secondFactorState(email: string) {
  const id = idOf(email);
  const db = storeDb();
  return {
    twoFactorEnabled: Boolean(
      (db.prepare(`SELECT "twoFactorEnabled" AS v FROM "user" WHERE id = ?`).get(id) as { v: number | null }).v,
    ),
    factors: (db.prepare(`SELECT count(*) AS n FROM "twoFactor" WHERE "userId" = ?`).get(id) as { n: number }).n,
    sessions: (db.prepare(`SELECT count(*) AS n FROM "session" WHERE "userId" = ?`).get(id) as { n: number }).n,
  };
}

test("an admin resets a colleague's two-factor after confirming: the colleague is signed out, mailed, and enrols again", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsStaff(page.request, baseURL!, "reset-admin", "admin");
  const context = await browser.newContext({ baseURL });
  const them = await context.newPage();
  const colleague = await signInAsStaff(them.request, baseURL!, "reset-colleague", "staff");
  await them.goto("/admin");
  await expect(them.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  expect(secondFactorState(colleague)).toEqual({ twoFactorEnabled: true, factors: 1, sessions: 1 });

  await page.goto("/admin/staff");
  await waitForHydration(page);
  const row = page.getByRole("row").filter({ hasText: colleague });
  await expect(row).toContainText("Enrolled");
  // No button on the admin's own row.
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: "(you)" })
      .getByRole("button", { name: /Reset two-factor/ }),
  ).toHaveCount(0);

  // The first click only asks; Cancel leaves everything as it was.
  await row.getByRole("button", { name: /^Reset two-factor of / }).click();
  const question = page.getByRole("heading", {
    level: 2,
    name: `Reset two-factor authentication of Test Shopper (${colleague})?`,
  });
  await expect(question).toBeVisible();
  await expect(question).toBeFocused();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(question).toHaveCount(0);
  expect(secondFactorState(colleague)).toEqual({ twoFactorEnabled: true, factors: 1, sessions: 1 });

  await row.getByRole("button", { name: /^Reset two-factor of / }).click();
  await page.getByRole("button", { name: "Yes, reset two-factor" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Two-factor authentication reset. Their sessions have ended and they were emailed; they set it up again the next time they sign in.",
  );
  await expect(row).toContainText("Not enrolled yet");
  await expect(row.getByRole("button", { name: /Reset two-factor/ })).toHaveCount(0);
  expect(secondFactorState(colleague)).toEqual({ twoFactorEnabled: false, factors: 0, sessions: 0 });

  const mail = await waitForMail(colleague, RESET_MAIL);
  expect(mail.body).toContain("reset the two-factor authentication of your ToolHub Wholesale");

  // The colleague's session has ended; their password still works, and the back office asks them to enrol.
  await them.goto("/admin");
  await expect(them).toHaveURL(/\/login/);
  await signInViaApi(them.request, baseURL!, colleague, GOOD_PASSWORD);
  await them.goto("/admin");
  await expect(them).toHaveURL(/\/admin\/two-factor$/);
  await context.close();

  await page.goto(`/admin/audit?object=${idOf(colleague)}`);
  const entries = page.getByRole("table", { name: "Audit log entries" }).locator("tbody tr");
  await expect(entries.first()).toContainText("staff.reset-two-factor");
});

test("without JavaScript the confirmation step works, and an admin can't reset their own", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const adminEmail = await signInAsStaff(page.request, baseURL!, "reset-admin-nojs", "admin");
  const other = await browser.newContext({ baseURL });
  const colleague = await signInAsStaff(other.request, baseURL!, "reset-colleague-nojs", "staff");
  await other.close();

  await page.goto("/admin/staff");
  await page
    .getByRole("row")
    .filter({ hasText: colleague })
    .getByRole("button", { name: /^Reset two-factor of / })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/staff\\?reset=${idOf(colleague)}$`));
  await page.getByRole("button", { name: "Yes, reset two-factor" }).click();
  await expect(page).toHaveURL(/\/admin\/staff\?notice=two-factor-reset$/);
  await expect(page.getByRole("main").getByRole("status")).toContainText("Two-factor authentication reset.");
  expect(secondFactorState(colleague)).toEqual({ twoFactorEnabled: false, factors: 0, sessions: 0 });
  await waitForMail(colleague, RESET_MAIL);

  // Their own: the confirmation refuses, and a hand-made post is refused with the same words.
  const me = idOf(adminEmail);
  await page.goto(`/admin/staff?reset=${me}`);
  await expect(page.getByRole("alert")).toHaveText(
    "You can't reset your own two-factor authentication. Ask another admin.",
  );
  await expect(page.getByRole("button", { name: "Yes, reset two-factor" })).toHaveCount(0);
  const own = await page.request.post("/admin/staff", {
    form: { intent: "reset-two-factor", userId: me },
    headers: { origin: baseURL! },
  });
  expect(own.status()).toBe(409);
  expect(await own.text()).toContain("reset your own two-factor authentication. Ask another admin.");
  expect(secondFactorState(adminEmail).factors).toBe(1);
  await context.close();
});

test("staff who are not admins, and customers, get the 404 and change nothing", async ({ browser, baseURL }) => {
  const targetContext = await browser.newContext({ baseURL });
  const target = await signInAsStaff(targetContext.request, baseURL!, "reset-target", "staff");
  await targetContext.close();
  const targetId = idOf(target);

  const staffContext = await browser.newContext({ baseURL });
  await signInAsStaff(staffContext.request, baseURL!, "reset-plain-staff", "staff");
  const customerContext = await browser.newContext({ baseURL });
  const customer = await accountWithRole(customerContext.request, baseURL!, "reset-customer");
  await signInViaApi(customerContext.request, baseURL!, customer);

  for (const context of [staffContext, customerContext]) {
    const post = await context.request.post("/admin/staff", {
      form: { intent: "reset-two-factor", userId: targetId },
      headers: { origin: baseURL! },
    });
    expect(post.status()).toBe(404);
    expect((await context.request.get(`/admin/staff?reset=${targetId}`)).status()).toBe(404);
  }
  expect(secondFactorState(target)).toMatchObject({ twoFactorEnabled: true, factors: 1 });
  await staffContext.close();
  await customerContext.close();
});
