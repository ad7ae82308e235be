import { registerViaApi, uniqueEmail, GOOD_PASSWORD } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { auditActions, insertOrder, userIdOf } from "./people-fixtures.ts";
import { accountWithRole, signInViaApi } from "./support.ts";

const SUSPENDED = "This account has been suspended. Please contact us if you think this is a mistake.";

test("staff find a customer, see their orders and lifetime value, and ban them: the customer's open page is signed out and sign-in is refused", async ({
  page,
  browser,
  baseURL,
}) => {
  // The customer, signed in in their own browser, with two orders (one cancelled: not in the lifetime value).
  const customer = await browser.newContext({ baseURL });
  const shopper = await customer.newPage();
  const email = uniqueEmail("ban-me");
  await registerViaApi(shopper.request, baseURL!, email, GOOD_PASSWORD, "Brenda Banks");
  await signInViaApi(shopper.request, baseURL!, email);
  const userId = userIdOf(email);
  const kept = insertOrder({ status: "delivered", totalCents: 4_321, userId, email });
  insertOrder({ status: "cancelled", totalCents: 10_000, userId, email });
  await shopper.goto("/account");
  await expect(shopper).toHaveURL(/\/account$/);

  // Staff: this worker's back-office session (tests/e2e/support/staff.ts); banning is the subject.
  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto("/admin/customers");
  await expectNoAxeViolations(page);
  await waitForHydration(page);
  await page.getByLabel("Name or email").fill(email.split("@")[0].toUpperCase());
  await page.getByRole("main").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/admin\/customers\?q=/);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Password, Email link");
  await expect(row).toContainText("Customer");
  await expect(row.getByRole("cell").nth(4)).toHaveText("1");
  await expect(row).toContainText(usd(4_321));

  await row.getByRole("link", { name: "Brenda Banks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Brenda Banks" })).toBeVisible();
  await expect(page.getByRole("link", { name: kept })).toHaveAttribute("href", `/admin/orders/${kept}`);
  await expect(page.getByText("Lifetime value").locator("xpath=following-sibling::dd[1]")).toHaveText(usd(4_321));
  await expectNoAxeViolations(page);

  // A reason is required, shown beside the field.
  await waitForHydration(page);
  await page.getByLabel("Reason for the ban").fill(" ");
  await page.getByRole("button", { name: "Ban customer" }).click();
  await expect(page.getByLabel("Reason for the ban")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter the reason for the ban.")).toBeVisible();

  await page.getByLabel("Reason for the ban").fill("Repeated chargebacks");
  await page.getByRole("button", { name: "Ban customer" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Customer banned. 1 session was ended.");
  await expect(page.getByText("Banned: Repeated chargebacks")).toBeVisible();
  await expect(page.getByRole("button", { name: "Unban customer" })).toBeVisible();
  expect(auditActions("user", userId)).toEqual(["customer.ban"]);

  // The customer's next request is signed out.
  await shopper.reload();
  await expect(shopper).toHaveURL(/\/login$/);
  // Signing in again is refused with the store's suspension message.
  const refused = await shopper.request.post("/api/auth/sign-in/email", {
    data: { email, password: GOOD_PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: "BANNED_USER", message: SUSPENDED });
  await customer.close();
});

test("the login page tells a banned customer their account is suspended", async ({ page, baseURL }) => {
  const email = await accountWithRole(page.request, baseURL!, "banned-login");
  const { storeDb } = await import("../shopping/support.ts");
  storeDb().prepare(`UPDATE "user" SET banned = 1, banReason = 'test' WHERE email = ?`).run(email);
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByText(SUSPENDED).first()).toBeVisible();
});

test("staff accounts can't be banned: the page says so and a forged post changes nothing", async ({
  page,
  baseURL,
}) => {
  const colleague = await accountWithRole(page.request, baseURL!, "colleague", "staff");
  const colleagueId = userIdOf(colleague);
  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto(`/admin/customers/${colleagueId}`);
  await expect(page.getByText("Staff and admin accounts can't be banned here.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Ban customer" })).toHaveCount(0);

  const forged = await page.request.post(`/admin/customers/${colleagueId}`, {
    form: { intent: "ban", reason: "nope" },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toMatch(/Staff and admin accounts can(&#x27;|')t be banned here\./);
  expect(auditActions("user", colleagueId)).toEqual([]);

  const missing = await page.goto("/admin/customers/no-such-account");
  expect(missing?.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff ban and unban a customer with plain form posts", async ({ page, baseURL }) => {
    const email = await accountWithRole(page.request, baseURL!, "nojs-ban");
    const userId = userIdOf(email);
    await useSharedStaffSession(page.context(), baseURL!);
    await page.goto(`/admin/customers?q=${encodeURIComponent(email)}`);
    await page.getByRole("row").filter({ hasText: email }).getByRole("link").first().click();
    await page.getByLabel("Reason for the ban").fill("Abusive messages");
    await page.getByRole("button", { name: "Ban customer" }).click();
    await expect(page).toHaveURL(/\?done=banned$/);
    await expect(page.getByRole("main").getByRole("status")).toContainText("Customer banned.");
    await expect(page.getByText("Banned: Abusive messages")).toBeVisible();
    await page.getByRole("button", { name: "Unban customer" }).click();
    await expect(page).toHaveURL(/\?done=unbanned$/);
    await expect(page.getByRole("main").getByRole("status")).toHaveText("Customer unbanned. They can sign in again.");
    await expect(page.getByRole("button", { name: "Ban customer" })).toBeVisible();
    expect(auditActions("user", userId)).toEqual(["customer.ban", "customer.unban"]);
  });
});
