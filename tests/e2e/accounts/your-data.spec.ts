import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { GOOD_PASSWORD, logInThroughForm, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { orderThroughCheckout, ordersFor, setProduct, signInViaApi, storeDb, UK_ADDRESS } from "../shopping/support.ts";

test.describe.configure({ timeout: 90_000 });

const yourData = (page: Page) => page.getByRole("region", { name: "Your data" });

/** A signed-in shopper with one order (UK address, unique street) and one wishlist item. */
async function shopperWithOrder(
  page: Page,
  request: import("@playwright/test").APIRequestContext,
  baseURL: string,
  tag: string,
  productId: number,
) {
  const email = uniqueEmail(tag);
  const street = `${email.split("@")[0].split(".")[1]} Erasure Lane`;
  await registerViaApi(request, baseURL, email, GOOD_PASSWORD, "Ada Private");
  await signInViaApi(page.request, baseURL, email);
  setProduct(productId, { stock: 500, priceCents: 1_500, discountPercent: null });
  const number = await orderThroughCheckout(page, productId, { ...UK_ADDRESS, name: "Ada Private", line1: street });
  const user = storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(email) as { id: string };
  storeDb()
    .prepare("INSERT INTO wishlist_items (owner, product_id, color, created_at) VALUES (?, ?, '', ?)")
    .run(`u:${user.id}`, productId + 1, new Date().toISOString());
  return { email, street, number, order: ordersFor(email)[0] };
}

test("downloads the account's data as a JSON file after the password", async ({ page, request, baseURL }) => {
  const who = await shopperWithOrder(page, request, baseURL!, "download", 390);
  await page.goto("/account");
  const section = yourData(page);
  await expect(section.getByRole("heading", { name: "Your data" })).toBeVisible();
  await expectNoAxeViolations(page);

  // A wrong password: nothing downloads, the page says why.
  await section.getByLabel("Your password").fill("Not-My-Password-1");
  await section.getByRole("button", { name: "Download your data" }).click();
  await expect(page).toHaveURL(/\/account\?data-error=WRONG_PASSWORD#your-data$/);
  await expect(yourData(page).getByRole("alert")).toHaveText("That password isn't right. Nothing was changed.");
  await expectNoAxeViolations(page);

  await yourData(page).getByLabel("Your password").fill(GOOD_PASSWORD);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    yourData(page).getByRole("button", { name: "Download your data" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`toolhub-data-${new Date().toISOString().slice(0, 10)}.json`);
  const text = await readFile(await download.path(), "utf8");
  const body = JSON.parse(text);
  expect(body.account).toMatchObject({
    email: who.email,
    name: "Ada Private",
    signInMethods: [{ method: "password" }],
  });
  expect(body.orders).toEqual([
    expect.objectContaining({
      number: who.number,
      email: who.email,
      shippingAddress: expect.objectContaining({ line1: who.street, country: "GB" }),
    }),
  ]);
  expect(body.addresses).toEqual([expect.objectContaining({ line1: who.street, postcode: UK_ADDRESS.postcode })]);
  expect(body.wishlist).toEqual([expect.objectContaining({ productId: 391 })]);
  expect(body.newsletter).toBeNull();
  expect(text).not.toContain(who.order.access_token);
  expect(text).not.toMatch(/"(password|token|accessToken|access_token|refreshToken|idToken)"\s*:/);
  const cookies = await page.context().cookies();
  for (const c of cookies) if (c.value.length > 10) expect(text).not.toContain(c.value.split(".")[0]);
});

test("the download is refused from another site and after sign-out", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("download-csrf");
  await registerViaApi(request, baseURL!, email);
  await signInViaApi(page.request, baseURL!, email);
  const foreign = await page.request.post("/account/data", {
    form: { password: GOOD_PASSWORD },
    headers: { origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
  expect(await foreign.text()).not.toContain(email);
  const anonymous = await request.post("/account/data", {
    form: { password: GOOD_PASSWORD },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(anonymous.status()).toBe(303);
  expect(anonymous.headers()["location"]).toBe("/login");
});

test("deletes the account: signed out, the order link shows nothing, sign-in fails, the email can register again", async ({
  page,
  request,
  baseURL,
}) => {
  const who = await shopperWithOrder(page, request, baseURL!, "erase", 392);
  const guestLink = `/orders/${who.order.access_token}`;
  await page.goto(guestLink);
  await expect(page.getByRole("main")).toContainText(who.street);

  await page.goto("/account");
  await yourData(page).getByRole("link", { name: "Delete your account" }).click();
  await expect(page).toHaveURL(/\/account\/delete$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Delete your account");
  await expect(page.getByRole("region", { name: "What we keep" })).toContainText("order number, items, totals");
  await expect(page.getByRole("region", { name: "What we keep" })).toContainText(
    "Accepted quotes, with their items and prices, without your email or message.",
  );
  await expectNoAxeViolations(page);

  // Without typing DELETE nothing happens.
  await page.getByLabel("Your password").fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("alert")).toHaveText("Type DELETE in capital letters to confirm.");
  await expect(page.getByLabel("Type DELETE to confirm")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByLabel("Your password").fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account\/delete\?done=1$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account deleted");
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Your account has been deleted and you've been signed out.",
  );
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" }).first()).toBeVisible();
  expect((await page.context().cookies()).filter((c) => c.name.includes("session_token"))).toEqual([]);
  await expectNoAxeViolations(page);

  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);
  const order = await page.goto(guestLink);
  expect(order?.status()).toBe(404);
  const html = await page.content();
  for (const personal of [who.street, "Ada Private", who.email]) expect(html).not.toContain(personal);
  const kept = storeDb()
    .prepare(
      "SELECT email, ship_name, ship_line1, ship_postcode, ship_country, user_id, total_cents FROM orders WHERE number = ?",
    )
    .get(who.number);
  expect(kept).toEqual({
    email: "",
    ship_name: "",
    ship_line1: "",
    ship_postcode: "SW1A",
    ship_country: "GB",
    user_id: null,
    total_cents: who.order.total_cents,
  });

  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password" }).first()).toBeVisible();

  await registerViaApi(request, baseURL!, who.email);
  await logInThroughForm(page, who.email);
  await page.goto("/account/orders");
  await expect(page.getByRole("main")).toContainText("You haven't placed any orders yet.");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the deletion page asks for the password and deletes", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("erase-nojs");
    await registerViaApi(request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);
    await page.goto("/account/delete");
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await page.getByLabel("Your password").fill("Wrong-Password-7");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByRole("alert")).toHaveText("That password isn't right. Nothing was changed.");
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await page.getByLabel("Your password").fill(GOOD_PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(
      "Your account has been deleted and you've been signed out.",
    );
    expect(storeDb().prepare(`SELECT id FROM "user" WHERE email = ?`).get(email)).toBeUndefined();
  });

  test("the account page's download form works as a plain form post", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("download-nojs");
    await registerViaApi(request, baseURL!, email);
    await signInViaApi(page.request, baseURL!, email);
    await page.goto("/account");
    await yourData(page).getByLabel("Your password").fill(GOOD_PASSWORD);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      yourData(page).getByRole("button", { name: "Download your data" }).click(),
    ]);
    const body = JSON.parse(await readFile(await download.path(), "utf8"));
    expect(body.account.email).toBe(email);
  });
});
