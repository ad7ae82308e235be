/**
 * Inviting an address that someone already registered without ever confirming it (the issue 48
 * takeover: sign up newhire@<company> with your own password, wait for the invitation): the
 * invitation removes that password and signs the account out everywhere, the admin is told so, and
 * only the owner of the mailbox can get in, through the mailed set-password link.
 */
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { linkIn, waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { storeDb } from "../shopping/support.ts";
import { signInAsStaff, signInViaApi } from "./support.ts";

const PRE_REGISTERED_PASSWORD = "Attackers-Own-Pass-31";
const OWNER_PASSWORD = "Real-New-Hire-Pass-8";

test("an invitation to an unverified, pre-registered address takes the account back before giving it the role", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsStaff(page.request, baseURL!, "reclaim-admin", "admin");
  const email = uniqueEmail("newhire");
  const attacker = await browser.newContext({ baseURL });
  await registerViaApi(attacker.request, baseURL!, email, PRE_REGISTERED_PASSWORD, "Mallory");
  await signInViaApi(attacker.request, baseURL!, email, PRE_REGISTERED_PASSWORD);
  const id = (storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(email) as { id: string }).id;

  await page.goto("/admin/staff");
  await waitForHydration(page);
  await page.getByLabel("Name", { exact: true }).fill("Nell Newhire");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "That address already had an account, never verified: its password, sessions and second factor were removed, and a link to choose a password was mailed.",
  );
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Nell Newhire");
  await expect(row).toContainText("Invitation pending");

  // Whoever pre-registered is signed out and their password no longer works.
  expect(storeDb().prepare(`SELECT count(*) AS n FROM "session" WHERE "userId" = ?`).get(id)).toEqual({ n: 0 });
  const again = await attacker.request.post("/api/auth/sign-in/email", {
    data: { email, password: PRE_REGISTERED_PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(again.ok()).toBe(false);
  expect((await attacker.request.get("/admin", { maxRedirects: 0 })).status()).not.toBe(200);
  await attacker.close();

  // The owner of the mailbox chooses a password from the mail, signs in, and is asked to enrol.
  const mail = await waitForMail(email, /invited to the ToolHub Wholesale back office/);
  expect(mail.body).toContain("we removed that password");
  const context = await browser.newContext({ baseURL });
  const owner = await context.newPage();
  await owner.goto(linkIn(mail, "/reset-password?token="));
  await owner.getByLabel("New password").fill(OWNER_PASSWORD);
  await owner.getByRole("button", { name: "Set new password" }).click();
  await expect(owner.getByRole("alert")).toContainText("Your password has been changed");
  await signInViaApi(owner.request, baseURL!, email, OWNER_PASSWORD);
  await owner.goto("/admin");
  await expect(owner).toHaveURL(/\/admin\/two-factor$/);
  await context.close();

  await page.goto(`/admin/audit?object=${id}`);
  await expect(page.getByRole("table", { name: "Audit log entries" }).locator("tbody tr").first()).toContainText(
    "staff.promote",
  );
});
