import type { APIRequestContext, Page } from "@playwright/test";
import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { signInViaApi } from "../shopping/support.ts";
import { ownedProduct, tradeCompany } from "./support.ts";

/**
 * Saved lists. This file owns products 520–539 and sets them to a known state first (see
 * shopping/support.ts); each test uses its own ids, so tests running in parallel never share one.
 */

async function signedIn(
  request: APIRequestContext,
  baseURL: string,
  tag: string,
  name = "Test Shopper",
): Promise<string> {
  const email = uniqueEmail(tag);
  await registerViaApi(request, baseURL, email, GOOD_PASSWORD, name);
  await signInViaApi(request, baseURL, email);
  return email;
}

/** A list made with plain posts (as the page's forms send them); returns its id. */
async function listViaHttp(
  request: APIRequestContext,
  baseURL: string,
  name: string,
  lines: { sku: string; quantity: number }[],
): Promise<number> {
  const created = await request.post("/account/lists", {
    form: { intent: "create", name },
    headers: { origin: baseURL },
    maxRedirects: 0,
  });
  expect(created.status(), await created.text()).toBe(302);
  const id = Number(/\/account\/lists\/(\d+)/.exec(created.headers()["location"] ?? "")?.[1]);
  for (const line of lines) {
    const added = await request.post(`/account/lists/${id}`, {
      form: { intent: "add-line", sku: line.sku, quantity: String(line.quantity) },
      headers: { origin: baseURL },
    });
    expect(added.status(), await added.text()).toBe(200);
  }
  return id;
}

const listLines = (id: number) =>
  queryAll<{ product_id: number; quantity: number }>(
    "SELECT product_id, quantity FROM saved_list_lines WHERE list_id = ? ORDER BY product_id",
    id,
  );
const cartRow = (page: Page, title: string) => page.getByRole("row").filter({ hasText: title });
const mainStatus = (page: Page) => page.getByRole("main").getByRole("status");

test("a shopper keeps a “Van restock” list, adds it to the cart, and saves the cart as a second list", async ({
  page,
  baseURL,
}) => {
  const a = ownedProduct(520, 500);
  const b = ownedProduct(521, 500);
  await signedIn(page.request, baseURL!, "lists-van");

  await page.goto("/account");
  await page.getByRole("link", { name: "Saved lists" }).click();
  await expect(page).toHaveURL(/\/account\/lists$/);
  await expect(page.getByRole("heading", { level: 1, name: "Saved lists" })).toBeVisible();
  await expect(page.getByText("You have no saved lists yet.")).toBeVisible();
  await expectNoAxeViolations(page);
  await waitForHydration(page);

  const newList = page.getByRole("region", { name: "New list" });
  await newList.getByLabel("List name").fill("Van restock");
  await newList.getByRole("button", { name: "Create list" }).click();
  await expect(page).toHaveURL(/\/account\/lists\/\d+\?done=created$/);
  await expect(page.getByRole("heading", { level: 1, name: "Van restock" })).toBeVisible();
  await expect(mainStatus(page)).toHaveText("List created. Add products to it by their SKU.");
  const id = Number(/\/account\/lists\/(\d+)/.exec(page.url())![1]);

  for (const [product, quantity] of [
    [a, "2"],
    [b, "3"],
  ] as const) {
    await page.getByLabel("SKU").fill(product.sku);
    await page.getByLabel("Quantity", { exact: true }).fill(quantity);
    await page.getByRole("button", { name: "Add to list" }).click();
    await expect(mainStatus(page)).toHaveText(`Added ${quantity} × ${product.title} to “Van restock”.`);
  }
  // An unknown SKU is refused with a reason, in an alert.
  await page.getByLabel("SKU").fill("TH-9999999");
  await page.getByRole("button", { name: "Add to list" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Unknown SKU TH-9999999.");

  await page.getByLabel(`Quantity of ${a.title}`, { exact: true }).fill("5");
  await page.getByRole("button", { name: `Update quantity of ${a.title}` }).click();
  await expect(mainStatus(page)).toHaveText("Quantity changed to 5.");
  expect(listLines(id)).toEqual([
    { product_id: 520, quantity: 5 },
    { product_id: 521, quantity: 3 },
  ]);
  await expect(page.getByRole("link", { name: a.title })).toHaveAttribute("href", "/shop/520");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Add all to cart" }).click();
  await expect(mainStatus(page)).toContainText("2 lines (8 units) added to your cart.");
  await page.getByRole("link", { name: "View your cart" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("main")).toContainText(a.title, { timeout: 15_000 });
  await expect(cartRow(page, a.title).getByTestId("line-quantity")).toHaveText("5");
  await expect(cartRow(page, b.title).getByTestId("line-quantity")).toHaveText("3");

  await page.goto("/account/lists");
  await waitForHydration(page);
  const fromCart = page.getByRole("region", { name: "Save my cart as a list" });
  // A name the shopper already has is refused, whatever its case.
  await fromCart.getByLabel("List name").fill("van RESTOCK");
  await fromCart.getByRole("button", { name: "Save my cart as a list" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "You already have a list named “van RESTOCK”. Choose another name.",
  );
  await fromCart.getByLabel("List name").fill("Cart on Friday");
  await fromCart.getByRole("button", { name: "Save my cart as a list" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cart on Friday" })).toBeVisible();
  await expect(mainStatus(page)).toHaveText("Your cart is saved as this list.");
  await expect(page.getByRole("row").filter({ hasText: a.title }).getByTestId("list-quantity")).toHaveValue("5");
  await expect(page.getByRole("row").filter({ hasText: b.title }).getByTestId("list-quantity")).toHaveValue("3");

  await page.getByRole("link", { name: "Back to your saved lists" }).click();
  const yours = page.getByRole("region", { name: "Your lists" });
  await expect(yours.getByRole("listitem")).toHaveText([/^Cart on Friday\s*2 lines$/, /^Van restock\s*2 lines$/]);
  await expectNoAxeViolations(page);
});

test("a list shared with the company: a colleague sees it and adds it to their cart, but can't change it", async ({
  page,
  browser,
  baseURL,
}) => {
  const a = ownedProduct(522, 500);
  const b = ownedProduct(523, 500);
  const ownerEmail = await signedIn(page.request, baseURL!, "lists-owner", "Olive Owner");
  const colleagueContext = await browser.newContext({ baseURL });
  const colleague = await colleagueContext.newPage();
  const colleagueEmail = await signedIn(colleague.request, baseURL!, "lists-colleague", "Cal Colleague");
  const company = tradeCompany([{ email: ownerEmail, role: "owner" }, { email: colleagueEmail }], {
    name: "Sparks Ltd",
  });
  const id = await listViaHttp(page.request, baseURL!, "Shared kit", [
    { sku: a.sku, quantity: 4 },
    { sku: b.sku, quantity: 1 },
  ]);

  // Not shared yet: the colleague is told it doesn't exist.
  expect((await colleague.request.get(`/account/lists/${id}`)).status()).toBe(404);

  await page.goto(`/account/lists/${id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: `Share with ${company.name}` }).click();
  await expect(mainStatus(page)).toHaveText(
    `“Shared kit” is shared with ${company.name}: your colleagues can see it and add it to their carts.`,
  );
  await expect(page.getByRole("button", { name: "Stop sharing" })).toBeVisible();

  await colleague.goto("/account/lists");
  const shared = colleague.getByRole("region", { name: "Shared by your colleagues" });
  await expect(shared.getByRole("listitem")).toHaveText([
    new RegExp(`^Shared kit\\s*2 lines · by Olive Owner · Shared with ${company.name}$`),
  ]);
  await shared.getByRole("link", { name: "Shared kit" }).click();
  await expect(colleague.getByRole("heading", { level: 1, name: "Shared kit" })).toBeVisible();
  await expect(
    colleague.getByText(
      `Shared with ${company.name} by Olive Owner. You can add it to your cart; only Olive Owner can change it.`,
    ),
  ).toBeVisible();
  // Read only: no fields, no rename, delete or share.
  await expect(colleague.getByRole("row").filter({ hasText: a.title }).getByTestId("list-quantity")).toHaveText("4");
  const main = colleague.getByRole("main");
  await expect(main.getByRole("textbox")).toHaveCount(0);
  await expect(main.getByRole("spinbutton")).toHaveCount(0);
  await expect(main.getByRole("button", { name: /Rename|Delete|Share|Stop sharing|Remove|Update/ })).toHaveCount(0);
  await expectNoAxeViolations(colleague);
  await waitForHydration(colleague);
  await colleague.getByRole("button", { name: "Add all to cart" }).click();
  await expect(mainStatus(colleague)).toContainText("2 lines (5 units) added to your cart.");
  await colleague.goto("/cart");
  await expect(cartRow(colleague, a.title).getByTestId("line-quantity")).toHaveText("4");
  await expect(cartRow(colleague, b.title).getByTestId("line-quantity")).toHaveText("1");

  // A post that tries to change it anyway is refused, and the list stays as it was.
  const forged = await colleague.request.post(`/account/lists/${id}`, {
    form: { intent: "rename", name: "Mine now" },
    headers: { origin: baseURL! },
  });
  expect(forged.status()).toBe(403);
  const removed = await colleague.request.post(`/account/lists/${id}`, {
    form: {
      intent: "remove-line",
      productId: "522",
      color: queryOne<{ color: string }>(
        "SELECT color FROM saved_list_lines WHERE list_id = ? AND product_id = 522",
        id,
      ).color,
    },
    headers: { origin: baseURL! },
  });
  expect(removed.status()).toBe(403);
  expect(queryOne<{ name: string }>("SELECT name FROM saved_lists WHERE id = ?", id).name).toBe("Shared kit");
  expect(listLines(id)).toEqual([
    { product_id: 522, quantity: 4 },
    { product_id: 523, quantity: 1 },
  ]);

  // Someone from another company never sees it.
  const outsiderContext = await browser.newContext({ baseURL });
  const outsider = await outsiderContext.newPage();
  const outsiderEmail = await signedIn(outsider.request, baseURL!, "lists-outsider");
  tradeCompany([{ email: outsiderEmail, role: "owner" }], { name: "Other Co" });
  expect((await outsider.request.get(`/account/lists/${id}`)).status()).toBe(404);
  await outsider.goto("/account/lists");
  await expect(outsider.getByText("Shared kit")).toHaveCount(0);
  await outsiderContext.close();
  await colleagueContext.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a list is made and added to the cart with plain form posts; a short line is offered what there is", async ({
    page,
    baseURL,
  }) => {
    const a = ownedProduct(524, 500);
    const scarce = ownedProduct(525, 3);
    await signedIn(page.request, baseURL!, "lists-nojs");
    await page.goto("/account/lists");
    await page.getByRole("region", { name: "New list" }).getByLabel("List name").fill("Plain posts");
    await page.getByRole("button", { name: "Create list" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Plain posts" })).toBeVisible();
    const listPath = new URL(page.url()).pathname;
    for (const [product, quantity] of [
      [a, "2"],
      [scarce, "5"],
    ] as const) {
      await page.getByLabel("SKU").fill(product.sku);
      await page.getByLabel("Quantity", { exact: true }).fill(quantity);
      await page.getByRole("button", { name: "Add to list" }).click();
      await expect(mainStatus(page)).toHaveText(`Added ${quantity} × ${product.title} to “Plain posts”.`);
    }
    await page.getByRole("button", { name: "Add all to cart" }).click();
    await expect(mainStatus(page)).toHaveText(
      "1 line (2 units) added to your cart. 1 line not added in full: see why below. View your cart",
    );
    const report = page.getByRole("table", { name: "Each line that did not go to your cart in full, and why" });
    await expect(report.getByRole("row").filter({ hasText: scarce.title })).toContainText(
      "Not added: Only 3 in stock.",
    );
    await report.getByRole("button", { name: `Add the 3 available of ${scarce.title}` }).click();
    await expect(mainStatus(page)).toContainText("1 line (3 units) added to your cart.");
    await page.goto("/cart");
    await expect(cartRow(page, a.title).getByTestId("line-quantity")).toHaveText("2");
    await expect(cartRow(page, scarce.title).getByTestId("line-quantity")).toHaveText("3");

    // Delete, behind its own step.
    await page.goto(listPath);
    await page.getByText("Delete this list…").click();
    await page.getByRole("button", { name: "Delete list" }).click();
    await expect(page).toHaveURL(/\/account\/lists\?done=deleted$/);
    await expect(mainStatus(page)).toHaveText("The list was deleted.");
    await expect(page.getByText("Plain posts")).toHaveCount(0);
  });
});

test("a guest is sent to the login page; a post from another site, a junk id or someone else's list is refused", async ({
  page,
  browser,
  baseURL,
}) => {
  for (const path of ["/account/lists", "/account/lists/1"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  const otherContext = await browser.newContext({ baseURL });
  const other = await otherContext.newPage();
  await signedIn(other.request, baseURL!, "lists-other");
  const theirs = await listViaHttp(other.request, baseURL!, "Not yours", []);
  await otherContext.close();

  await signedIn(page.request, baseURL!, "lists-csrf");
  const forged = await page.request.post("/account/lists", {
    form: { intent: "create", name: "Forged" },
    headers: { origin: "https://evil.example" },
    maxRedirects: 0,
  });
  // React Router's own cross-site check answers 400 before the action; the action's origin check (403) is the second line.
  expect([400, 403]).toContain(forged.status());
  expect(queryOne<{ n: number }>("SELECT count(*) AS n FROM saved_lists WHERE name = 'Forged'")).toEqual({ n: 0 });

  for (const path of [
    "/account/lists/abc",
    "/account/lists/0",
    "/account/lists/1%00",
    "/account/lists/99999999999",
    `/account/lists/${theirs}`,
  ]) {
    expect((await page.request.get(path)).status(), path).toBe(404);
  }
  const post = await page.request.post(`/account/lists/${theirs}`, {
    form: { intent: "delete" },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(404);
  expect(queryOne<{ name: string }>("SELECT name FROM saved_lists WHERE id = ?", theirs).name).toBe("Not yours");
});
