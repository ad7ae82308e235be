import { expect, test } from "@playwright/test";
import { GOOD_PASSWORD, logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { waitForHydration } from "../support/site.ts";

test.describe("Login", () => {
  test("has a Google button, the password toggle and a link to register", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Show password" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/register");
  });

  test("success stores only the public profile and shows the user in the header", async ({
    page,
    request,
    baseURL,
  }) => {
    const email = uniqueEmail("login");
    await registerViaApi(request, baseURL!, email, GOOD_PASSWORD, "Lena Login");
    await logInThroughForm(page, email);
    const stored = await page.evaluate(() => window.localStorage.getItem("user"));
    expect(JSON.parse(stored!)).toEqual({ fullName: "Lena Login", email, profilePhoto: null });
    const everything = await page.evaluate(
      () => JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage }) + document.cookie,
    );
    expect(everything).not.toContain(GOOD_PASSWORD);
    expect(everything).not.toMatch(/session_token/);
    await expect(page.getByRole("link", { name: /Your account \(Lena Login\)/ }).first()).toContainText("LL");
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name.includes("session_token"));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
  });

  test("wrong credentials get the same message whether or not the email exists", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("wrong");
    await registerViaApi(request, baseURL!, email);
    await page.goto("/login");
    for (const who of [email, uniqueEmail("nobody")]) {
      await page.getByLabel("Email").fill(who);
      await page.getByLabel("Password", { exact: true }).fill("Not-The-Password-1");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await expect(page.locator("form").getByRole("alert")).toHaveText("Incorrect email or password");
    }
  });

  test("too many attempts tells the shopper how long to wait", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("limited");
    await registerViaApi(request, baseURL!, email);
    await page.goto("/login");
    // Before hydration the first click posts the page itself, and the page it answers with has an
    // empty password field, so the clicks after it would not try again.
    await waitForHydration(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Not-The-Password-1");
    const message = page.locator("form").getByRole("alert");
    for (let i = 0; i < 12; i++) {
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await expect(message).toBeVisible();
      if (/Too many attempts/.test((await message.textContent()) ?? "")) break;
    }
    await expect(message).toHaveText(/^Too many attempts\. Try again in \d+ seconds\.$/);
  });

  test("a network failure shows a message in the page", async ({ page }) => {
    await page.goto("/login");
    await waitForHydration(page);
    await page.route("**/api/auth/sign-in/email", (route) => route.abort("internetdisconnected"));
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Whatever-123");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.locator("form").getByRole("alert")).toContainText("couldn't reach the store");
  });

  test("a server error shows a message in the page", async ({ page }) => {
    await page.goto("/login");
    await waitForHydration(page);
    await page.route("**/api/auth/sign-in/email", (route) => route.fulfill({ status: 502, body: "Bad gateway" }));
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Whatever-123");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.locator("form").getByRole("alert")).toContainText("Something went wrong on our side");
  });

  test("a stale stored user is cleared when the server session is gone", async ({ page }) => {
    await page.goto("/about");
    await page.evaluate(() =>
      window.localStorage.setItem(
        "user",
        JSON.stringify({ fullName: "Ghost", email: "ghost@example.com", profilePhoto: null }),
      ),
    );
    await page.reload();
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem("user"))).toBeNull();
    await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
  });

  test("works without web storage, from the session cookie", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("nostorage");
    await registerViaApi(request, baseURL!, email);
    await page.addInitScript(() => {
      Object.defineProperty(window, "localStorage", {
        get() {
          throw new DOMException("denied", "SecurityError");
        },
      });
    });
    await logInThroughForm(page, email);
    await page.goto("/account");
    await expect(page.getByText(email)).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("signs in through the server and shows errors in the page", async ({ page, request, baseURL }) => {
      const email = uniqueEmail("nojs-login");
      await registerViaApi(request, baseURL!, email);
      await page.goto("/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("Wrong-Password-9");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await expect(page.getByRole("alert")).toHaveText("Incorrect email or password");
      await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("banner").getByRole("button", { name: "Logout" }).first()).toBeAttached();
    });
  });
});
