/**
 * Staff management (admins only) and the audit log: invite by email → the invitee sets a
 * password and enrols in two-factor authentication; change role; remove; every change in the
 * audit log, filterable by person and object.
 */
import { expectNoAxeViolations } from "../support/axe.ts";
import { uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { linkIn, waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { storeDb } from "../shopping/support.ts";
import { enrolTwoFactor, signInAsStaff } from "./support.ts";

const NEW_PASSWORD = "Invited-Sturdy-Pass-9";

test("an admin invites someone, who sets a password, signs in and enrols; the admin changes their role, then removes them; the audit log shows it all", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsStaff(page.request, baseURL!, "staff-admin", "admin");
  await page.goto("/admin/staff");
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  await expectNoAxeViolations(page);
  await waitForHydration(page);

  // Bad input: messages beside the fields, nothing created.
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.locator("#invite-email-error")).toHaveText("Enter the email address to invite.");
  await expect(page.locator("#invite-name-error")).toHaveText("Enter their name.");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");

  const invitee = uniqueEmail("invitee");
  await page.getByLabel("Name", { exact: true }).fill("Ivy Invitee");
  await page.getByLabel("Email", { exact: true }).fill(invitee);
  await page.getByLabel("Role", { exact: true }).selectOption("staff");
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Invitation sent.");
  const row = page.getByRole("row").filter({ hasText: invitee });
  await expect(row).toContainText("Invitation pending");

  // The invitee: mail → choose a password → sign in → enrol → the back office.
  const mail = await waitForMail(invitee, /invited to the ToolHub Wholesale back office/);
  const context = await browser.newContext({ baseURL });
  const them = await context.newPage();
  await them.goto(linkIn(mail, "/reset-password?token="));
  await them.getByLabel("New password").fill(NEW_PASSWORD);
  await them.getByRole("button", { name: "Set new password" }).click();
  await expect(them.getByRole("alert")).toContainText("Your password has been changed");
  const signIn = await them.request.post("/api/auth/sign-in/email", {
    data: { email: invitee, password: NEW_PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(signIn.status()).toBe(200);
  await them.goto("/admin");
  await expect(them).toHaveURL(/\/admin\/two-factor$/);
  // Enrolment through the page's own forms (the auth endpoints are closed to browsers).
  await enrolTwoFactor(them.request, baseURL!, invitee, NEW_PASSWORD);
  await them.goto("/admin");
  await expect(them.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  // Staff (not admin) don't see or reach staff management.
  await expect(them.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Staff" })).toHaveCount(
    0,
  );
  expect((await them.goto("/admin/staff"))?.status()).toBe(404);

  await page.reload();
  await expect(row).toContainText("Enrolled");
  await waitForHydration(page);
  await row.getByLabel("Role of Ivy Invitee", { exact: true }).selectOption("admin");
  await row.getByRole("button", { name: "Change role of Ivy Invitee" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Role changed.");
  expect(storeDb().prepare(`SELECT role FROM "user" WHERE email = ?`).get(invitee)).toEqual({ role: "admin" });
  await them.goto("/admin/staff");
  await expect(them.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();

  await row.getByRole("button", { name: "Remove Ivy Invitee" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Removed from the staff list. Their sessions have ended.",
  );
  await expect(page.getByRole("row").filter({ hasText: invitee })).toHaveCount(0);
  await them.goto("/admin");
  await expect(them).toHaveURL(/\/login$/);
  await context.close();

  // The audit log: every change, by whom, with before and after; filter by object.
  const userId = (storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(invitee) as { id: string }).id;
  await page.goto(`/admin/audit?object=${userId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const entries = page.getByRole("table", { name: "Audit log entries" }).locator("tbody tr");
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0)).toContainText("staff.remove");
  await expect(entries.nth(1)).toContainText("staff.set-role");
  await expect(entries.nth(2)).toContainText("staff.invite");
  await expect(entries.nth(1)).toContainText("staff");
  await expect(entries.nth(1)).toContainText("admin");
  await expectNoAxeViolations(page);
});

test("without JavaScript an admin invites staff and filters the audit log by person", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const adminEmail = await signInAsStaff(page.request, baseURL!, "staff-admin-nojs", "admin");
  await page.goto("/admin/staff");
  const invitee = uniqueEmail("invitee-nojs");
  await page.getByLabel("Name", { exact: true }).fill("Noah Nojs");
  await page.getByLabel("Email", { exact: true }).fill(invitee);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/staff\?notice=invited$/);
  await expect(page.getByRole("main").getByRole("status")).toContainText("Invitation sent.");
  await waitForMail(invitee, /invited to the ToolHub Wholesale back office/);

  await page.goto("/admin/audit");
  // Test accounts share a display name, so pick this admin by its id (the option's value).
  const me = (storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(adminEmail) as { id: string }).id;
  await page.getByLabel("Person").selectOption(me);
  await page.getByLabel("Object type").selectOption("user");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${me}`));
  await expect(page.getByRole("table", { name: "Audit log entries" }).locator("tbody tr").first()).toContainText(
    "staff.invite",
  );
  await context.close();
});
