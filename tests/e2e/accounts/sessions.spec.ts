import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { signInViaApi, storeDb } from "../shopping/support.ts";

test.describe.configure({ timeout: 60_000 });

const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";

const activeSessions = (page: Page) => page.getByRole("region", { name: "Active sessions" });
const sessionItems = (page: Page) => activeSessions(page).getByRole("listitem");

/** Another browser (its own cookies and user agent), signed in to the same account. */
async function elsewhere(
  browser: Browser,
  baseURL: string,
  email: string,
  userAgent: string,
  options: { javaScriptEnabled?: boolean } = {},
) {
  const context = await browser.newContext({ baseURL, userAgent, ...options });
  await signInViaApi(context.request, baseURL, email);
  return context;
}

async function expectSignedOut(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
}

async function expectSignedIn(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account$/);
  await page.close();
}

test("lists the signed-in devices and ends another one without reloading the page", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const email = uniqueEmail("sessions");
  await registerViaApi(request, baseURL!, email);
  const other = await browser.newContext({ baseURL, userAgent: FIREFOX_MAC });
  await logInThroughForm(await other.newPage(), email);
  await logInThroughForm(page, email);

  await page.goto("/account");
  await waitForHydration(page);
  const section = activeSessions(page);
  await expect(section.getByRole("heading", { level: 2, name: "Active sessions" })).toBeVisible();
  await expect(sessionItems(page)).toHaveCount(2);
  const current = sessionItems(page).filter({ hasText: "This device" });
  await expect(current).toHaveCount(1);
  await expect(current).toContainText("Chrome on Windows");
  await expect(current).toContainText("127.0.0.1");
  await expect(current.getByRole("button")).toHaveCount(0);
  const firefox = sessionItems(page).filter({ hasText: "Firefox on macOS" });
  await expect(firefox).not.toContainText("This device");
  await expect(firefox.getByText("Signed in", { exact: true })).toBeVisible();
  await expect(firefox.getByText("Last active", { exact: true })).toBeVisible();
  await expect(firefox.getByText("IP address", { exact: true })).toBeVisible();
  const today = new Date();
  const stamp = `${today.getUTCDate()} ${today.toLocaleString("en-GB", { month: "short", timeZone: "UTC" }).slice(0, 3)} ${today.getUTCFullYear()}`;
  await expect(firefox).toContainText(stamp);
  await expect(section.getByRole("button", { name: "End all other sessions" })).toBeVisible();
  // The page never shows a session token, only ids.
  const tokens = storeDb()
    .prepare(`SELECT token FROM session s JOIN "user" u ON u.id = s."userId" WHERE u.email = ?`)
    .all(email) as { token: string }[];
  expect(tokens).toHaveLength(2);
  const html = await page.content();
  for (const { token } of tokens) expect(html).not.toContain(token);
  await expectNoAxeViolations(page);

  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const end = section.getByRole("button", {
    name: /^End session: Firefox on macOS from 127\.0\.0\.1, signed in \d+ \w{3} \d{4}, \d\d:\d\d UTC$/,
  });
  await end.click();
  await expect(section.getByRole("status")).toHaveText(
    "The session on Firefox on macOS has ended. That device is signed out.",
  );
  await expect(section.getByRole("status")).toBeFocused();
  await expect(sessionItems(page)).toHaveCount(1);
  await expect(sessionItems(page)).toContainText("This device");
  await expect(section.getByRole("button", { name: "End all other sessions" })).toHaveCount(0);
  await expect(section).toContainText("No other device is signed in to your account.");
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expectNoAxeViolations(page);

  await expectSignedOut(other);
  await page.reload();
  await expect(page).toHaveURL(/\/account(#active-sessions)?$/);
  await expect(sessionItems(page)).toHaveCount(1);
});

test("End all other sessions signs out every other device and keeps this one", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const email = uniqueEmail("sessions-all");
  await registerViaApi(request, baseURL!, email);
  await logInThroughForm(page, email);
  const firefox = await elsewhere(browser, baseURL!, email, FIREFOX_MAC);
  const iphone = await elsewhere(browser, baseURL!, email, SAFARI_IPHONE);
  // Someone else's session is no business of this page.
  const bystanderEmail = uniqueEmail("sessions-bystander");
  await registerViaApi(request, baseURL!, bystanderEmail);
  const bystander = await elsewhere(browser, baseURL!, bystanderEmail, FIREFOX_MAC);

  await page.goto("/account");
  await waitForHydration(page);
  await expect(sessionItems(page)).toHaveCount(3);
  await expect(activeSessions(page).getByRole("button", { name: /^End session: / })).toHaveCount(2);

  // A session that ended meanwhile (elsewhere, or by expiry): the page says so, with a 404.
  const gone = storeDb()
    .prepare(`SELECT s.id FROM session s JOIN "user" u ON u.id = s."userId" WHERE u.email = ? AND s."userAgent" = ?`)
    .get(email, SAFARI_IPHONE) as { id: string };
  storeDb().prepare("DELETE FROM session WHERE id = ?").run(gone.id);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/account")),
    activeSessions(page)
      .getByRole("button", { name: /^End session: Safari on iPhone/ })
      .click(),
  ]);
  expect(answer.status()).toBe(404);
  await expect(activeSessions(page).getByRole("alert")).toHaveText(
    "That session wasn't found. It may have ended already.",
  );
  await expect(sessionItems(page)).toHaveCount(2);
  await expectNoAxeViolations(page);

  await activeSessions(page).getByRole("button", { name: "End all other sessions" }).click();
  await expect(activeSessions(page).getByRole("status")).toHaveText(
    "Every other session has ended. Those devices are signed out.",
  );
  await expect(sessionItems(page)).toHaveCount(1);
  await expect(sessionItems(page)).toContainText("This device");

  await expectSignedOut(firefox);
  await expectSignedOut(iphone);
  await expectSignedIn(bystander);
  await bystander.close();
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
});

test("a session id that isn't the shopper's is refused with a 404 and a message, and nothing ends", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const email = uniqueEmail("sessions-bad");
  await registerViaApi(request, baseURL!, email);
  await signInViaApi(page.request, baseURL!, email);
  const otherEmail = uniqueEmail("sessions-victim");
  await registerViaApi(request, baseURL!, otherEmail);
  const victim = await elsewhere(browser, baseURL!, otherEmail, FIREFOX_MAC);
  const victimSession = storeDb()
    .prepare(`SELECT s.id FROM session s JOIN "user" u ON u.id = s."userId" WHERE u.email = ?`)
    .get(otherEmail) as { id: string };

  for (const sessionId of [victimSession.id, "not-a-session", ""]) {
    const response = await page.request.post("/account", {
      form: { intent: "end-session", sessionId },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain("It may have ended already.");
  }
  const foreign = await page.request.post("/account", {
    form: { intent: "end-session", sessionId: victimSession.id },
    headers: { origin: "https://evil.example" },
    maxRedirects: 0,
  });
  // React Router's own cross-site check answers 400 before the action; the action's origin check (403) is the second line.
  expect([400, 403]).toContain(foreign.status());
  const stillThere = storeDb().prepare(`SELECT count(*) AS n FROM session WHERE id = ?`).get(victimSession.id) as {
    n: number;
  };
  expect(stillThere.n).toBe(1);
  await expectSignedIn(victim);
  await victim.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("ends one session, then all the others, with plain form posts", async ({ page, request, baseURL, browser }) => {
    const email = uniqueEmail("sessions-nojs");
    await registerViaApi(request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);
    const firefox = await elsewhere(browser, baseURL!, email, FIREFOX_MAC, { javaScriptEnabled: false });

    await page.goto("/account");
    await expect(sessionItems(page)).toHaveCount(2);
    await expect(sessionItems(page).filter({ hasText: "This device" })).toHaveCount(1);
    await activeSessions(page)
      .getByRole("button", { name: /^End session: Firefox on macOS/ })
      .click();
    await expect(page).toHaveURL(/\/account#active-sessions$/);
    await expect(activeSessions(page).getByRole("status")).toHaveText(
      "The session on Firefox on macOS has ended. That device is signed out.",
    );
    await expect(sessionItems(page)).toHaveCount(1);
    await expectSignedOut(firefox);

    // Ending it again (a second tab, say) says it's gone, with a 404.
    const firefoxAgain = await elsewhere(browser, baseURL!, email, FIREFOX_MAC, { javaScriptEnabled: false });
    const iphone = await elsewhere(browser, baseURL!, email, SAFARI_IPHONE, { javaScriptEnabled: false });
    await page.goto("/account");
    await expect(sessionItems(page)).toHaveCount(3);
    const gone = storeDb()
      .prepare(`SELECT s.id FROM session s JOIN "user" u ON u.id = s."userId" WHERE u.email = ? AND s."userAgent" = ?`)
      .get(email, SAFARI_IPHONE) as { id: string };
    storeDb().prepare("DELETE FROM session WHERE id = ?").run(gone.id);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/account"),
      activeSessions(page)
        .getByRole("button", { name: /^End session: Safari on iPhone/ })
        .click(),
    ]);
    expect(answer.status()).toBe(404);
    await expect(activeSessions(page).getByRole("alert")).toHaveText(
      "That session wasn't found. It may have ended already.",
    );
    await expect(sessionItems(page)).toHaveCount(2);
    await iphone.close();

    await activeSessions(page).getByRole("button", { name: "End all other sessions" }).click();
    await expect(activeSessions(page).getByRole("status")).toHaveText(
      "Every other session has ended. Those devices are signed out.",
    );
    await expect(sessionItems(page)).toHaveCount(1);
    await expect(sessionItems(page)).toContainText("This device");
    await expectSignedOut(firefoxAgain);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/account$/);
  });
});
