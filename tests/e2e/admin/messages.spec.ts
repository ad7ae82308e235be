import { readFileSync } from "node:fs";
import { uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForMail } from "../support/mail.ts";
import { waitForHydration } from "../support/site.ts";
import { auditActions, insertFailedMail, insertSubscriber, mailStatus, unansweredMessages } from "./people-fixtures.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { storeDb } from "../shopping/support.ts";

async function dashboardUnanswered(page: import("@playwright/test").Page): Promise<string> {
  await page.goto("/admin");
  const card = page
    .getByRole("main")
    .locator("div")
    .filter({ has: page.getByText("Unanswered contact messages", { exact: true }) })
    .last();
  return ((await card.locator("dd").first().textContent()) ?? "").trim();
}

/**
 * The dashboard's figure is the live count of unhandled messages. Tests on the other worker add and
 * handle messages at the same time, so the figure and the database are read together until they
 * agree, and this test's own message is checked in the database.
 */
async function expectDashboardShowsUnhandled(page: import("@playwright/test").Page) {
  await expect
    .poll(async () => (await dashboardUnanswered(page)) === String(unansweredMessages()), { timeout: 10_000 })
    .toBe(true);
}
const handled = (subject: string) =>
  (
    storeDb().prepare(`SELECT handled_at FROM contact_messages WHERE subject = ?`).get(subject) as {
      handled_at: string | null;
    }
  ).handled_at !== null;

test("a visitor's message reaches the inbox; staff reply by mail, mark it handled, and the dashboard count drops", async ({
  page,
  browser,
  baseURL,
}) => {
  const visitorEmail = uniqueEmail("visitor");
  const subject = `Drill order ${Date.now()}`;
  const visitor = await browser.newPage({ baseURL });
  await visitor.goto("/contact");
  await waitForHydration(visitor);
  await visitor.getByLabel("Name", { exact: true }).fill("Vera Visitor");
  await visitor.getByLabel("Email", { exact: true }).fill(visitorEmail);
  await visitor.getByLabel("Subject", { exact: true }).fill(subject);
  await visitor.getByLabel("Message", { exact: true }).fill("Hello,\nwhen will my drill arrive?");
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor.locator("#contact-status")).toHaveText(/Thanks for your message!/);
  await visitor.close();

  await useSharedStaffSession(page.context(), baseURL!);
  expect(handled(subject)).toBe(false);
  await expectDashboardShowsUnhandled(page);

  await page.goto("/admin/messages?filter=unhandled");
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: subject }).click();
  await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
  await expect(page.getByText("when will my drill arrive?")).toBeVisible();
  await expectNoAxeViolations(page);

  await waitForHydration(page);
  await page.getByLabel("Your reply").fill("Hello Vera,\nit ships tomorrow.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Reply sent. The message is marked as handled.");
  await expect(page.getByRole("region", { name: "Replies sent" })).toContainText("it ships tomorrow.");
  await expect(page.getByRole("button", { name: "Mark as unhandled" })).toBeVisible();

  const reply = await waitForMail(visitorEmail, new RegExp(`^Re: ${subject}$`));
  expect(reply.body).toContain("it ships tomorrow.");
  expect(handled(subject)).toBe(true);
  await expectDashboardShowsUnhandled(page);

  // Unhandled again, then handled: the count follows, each change is in the audit log.
  await page.goBack();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Mark as unhandled" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Marked as unhandled.");
  await page.getByRole("button", { name: "Mark as handled" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Marked as handled.");
  const id = new URL(page.url()).pathname.split("/").pop()!;
  expect(auditActions("contact_message", id)).toEqual(["message.reply", "message.unhandle", "message.handle"]);
  expect(handled(subject)).toBe(true);
  await expectDashboardShowsUnhandled(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff mark a message handled with a plain form post", async ({ page, browser, baseURL }) => {
    const subject = `No-JS question ${Date.now()}`;
    const visitor = await browser.newPage({ baseURL, javaScriptEnabled: false });
    await visitor.goto("/contact");
    await visitor.getByLabel("Name", { exact: true }).fill("Nina NoScript");
    await visitor.getByLabel("Email", { exact: true }).fill(uniqueEmail("nojs-visitor"));
    await visitor.getByLabel("Subject", { exact: true }).fill(subject);
    await visitor.getByLabel("Message", { exact: true }).fill("Do you sell ladders?");
    await visitor.getByRole("button", { name: "Send" }).click();
    await visitor.close();

    await useSharedStaffSession(page.context(), baseURL!);
    await page.goto("/admin/messages");
    await page.getByRole("link", { name: subject }).click();
    await page.getByRole("button", { name: "Mark as handled" }).click();
    await expect(page).toHaveURL(/\?done=handled$/);
    await expect(page.getByRole("main").getByRole("status")).toHaveText("Marked as handled.");
    await expect(page.getByRole("button", { name: "Mark as unhandled" })).toBeVisible();
  });
});

test("newsletter: counts per status, filter and search, and a CSV download of the filtered list", async ({
  page,
  baseURL,
}) => {
  const tag = `nl${Date.now()}`;
  insertSubscriber(`${tag}.conf@example.com`, "confirmed");
  insertSubscriber(`${tag}.pend@example.com`, "pending");
  insertSubscriber(`${tag}.gone@example.com`, "unsubscribed");
  await useSharedStaffSession(page.context(), baseURL!);

  await page.goto("/admin/newsletter");
  await expect(page.getByRole("heading", { level: 1, name: "Newsletter subscribers" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Email contains").fill(tag);
  await page.getByLabel("Status").selectOption("confirmed");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/status=confirmed/);
  const rows = page.getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${tag}.conf@example.com`);
  await expect(rows.first()).toContainText("Confirmed");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Download CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^newsletter-confirmed-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), "utf8");
  const lines = csv.trim().split("\n");
  expect(lines[0]).toBe("email,status,subscribed_at,confirmed_at,unsubscribed_at");
  expect(csv).toContain(`${tag}.conf@example.com,confirmed,`);
  expect(csv).not.toContain(`${tag}.pend@example.com`);
  expect(lines.slice(1).every((l) => l.split(",")[1] === "confirmed")).toBe(true);

  const bad = await page.request.get("/admin/newsletter/export.csv?status=bogus");
  expect(bad.status()).toBe(400);
});

test("the mail queue lists stuck mail with masked recipients and requeues one, then all failed", async ({
  page,
  baseURL,
}) => {
  const tag = `mq${Date.now()}`;
  const one = insertFailedMail(`${tag}.one@example.com`, `Stuck one ${tag}`);
  const two = insertFailedMail(`${tag}.two@example.com`, `Stuck two ${tag}`);
  const unknown = insertFailedMail(`${tag}.three@example.com`, `Unknown ${tag}`, "unknown");
  await useSharedStaffSession(page.context(), baseURL!);

  await page.goto("/admin/mail");
  await expect(page.getByRole("heading", { level: 1, name: "Mail queue" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `Stuck one ${tag}` });
  await expect(row).toContainText("***@example.com");
  await expect(row).toContainText("550 No such user ***@example.com");
  await expect(page.getByRole("main")).not.toContainText(`${tag}.one@example.com`);
  await expectNoAxeViolations(page);

  await waitForHydration(page);
  await row.getByRole("button", { name: `Requeue mail #${one}` }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Mail #${one} queued again`);
  expect(auditActions("mail", one)).toEqual(["mail.requeue"]);
  expect(mailStatus(one)).not.toBe("failed");

  await page.getByRole("button", { name: "Requeue all failed" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("queued again.");
  expect(mailStatus(two)).not.toBe("failed");
  expect(auditActions("mail", two)).toEqual(["mail.requeue"]);
  // An unknown mail waits for a person's decision.
  expect(mailStatus(unknown)).toBe("unknown");
  await expect(page.getByRole("button", { name: `Requeue mail #${unknown}` })).toBeVisible();
});
