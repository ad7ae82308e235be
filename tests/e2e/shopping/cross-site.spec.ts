import { queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";

/**
 * Issue 48: a form on another site that posts to the store (Chromium sends `Origin` of that site
 * and `Sec-Fetch-Site: cross-site`) is refused with a sentence the person can read, and nothing
 * happens; the store's own forms keep working (no-js.spec.ts, cart.spec.ts, contact.spec.ts).
 */
const REFUSED = "This form was sent from another site, so it was refused.";
const EVIL = "http://evil.test";

/** Serves a page on another site whose form posts `fields` to the store's `path`. */
async function crossSiteForm(
  page: import("@playwright/test").Page,
  baseURL: string,
  path: string,
  fields: Record<string, string>,
) {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("");
  await page.route(`${EVIL}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><head><title>Win a drill</title></head><body><main><form method="post" action="${baseURL}${path}">${inputs}<button>Claim your prize</button></form></main></body></html>`,
    }),
  );
  await page.goto(`${EVIL}/prize`);
}

for (const [path, fields] of [
  [
    "/contact",
    {
      name: "Mallory",
      email: "mallory.cross.site@example.com",
      subject: "Cross-site",
      message: "Sent from another site",
    },
  ],
  ["/cart", { intent: "add", productId: "1", quantity: "3" }],
  ["/wishlist", { intent: "toggle", productId: "1" }],
  ["/logout", {}],
] as const) {
  test(`a form on another site posting to ${path} is refused with a reason`, async ({ page, baseURL }) => {
    await crossSiteForm(page, baseURL!, path, fields);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${baseURL}${path}` && r.request().method() === "POST"),
      page.getByRole("button", { name: "Claim your prize" }).click(),
    ]);
    expect(response.status()).toBe(403);
    // What Chromium said about the post: another site sent it.
    expect((await response.request().allHeaders()).origin).toBe(EVIL);
    await expect(page.locator("body")).toHaveText(REFUSED);
  });
}

test("the refused contact message was neither stored nor mailed", async ({ page, baseURL }) => {
  const email = `cross.site.${Date.now()}@example.com`;
  await crossSiteForm(page, baseURL!, "/contact", {
    name: "Mallory",
    email,
    subject: "Cross-site",
    message: "Sent from another site",
  });
  await page.getByRole("button", { name: "Claim your prize" }).click();
  await expect(page.locator("body")).toHaveText(REFUSED);
  expect(queryOne<{ n: number }>("SELECT count(*) AS n FROM contact_messages WHERE email = ?", email).n).toBe(0);
  expect(queryOne<{ n: number }>("SELECT count(*) AS n FROM mail_queue WHERE to_address = ?", email).n).toBe(0);
});
