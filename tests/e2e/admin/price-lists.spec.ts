/**
 * Price lists and company terms in the back office: staff create a list with rules, give it to an
 * approved company with its terms (every change audited), a stale terms form is refused, the
 * company's buyer sees the trade price; a customer is refused everything; and the forms work as
 * plain posts without JavaScript.
 */
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { signInViaApi, storeDb, usd } from "../shopping/support.ts";
import { accountWithRole } from "./support.ts";
import { approvedCompany } from "../trade/company-fixtures.ts";

/** A product on sale without volume breaks, from a range no other spec changes. */
function plainProduct(offset: number) {
  return queryOne<{ id: number; sku: string; title: string; sale_price_cents: number }>(
    `SELECT id, sku, title, sale_price_cents FROM products p WHERE id BETWEEN 560 AND 599 AND archived_at IS NULL AND sale_price_cents > 500
       AND NOT EXISTS (SELECT 1 FROM volume_breaks v WHERE v.product_id = p.id) ORDER BY id LIMIT 1 OFFSET ?`,
    offset,
  );
}

const status = (page: Page) => page.getByRole("main").getByRole("status");
const alert = (page: Page) => page.getByRole("main").getByRole("alert");
const listIdOf = (page: Page) => Number(/\/admin\/price-lists\/(\d+)/.exec(page.url())![1]);
const auditOf = (objectType: string, objectId: string | number) =>
  queryAll<{ action: string; before: string | null; after: string | null }>(
    "SELECT action, before, after FROM audit_log WHERE object_type = ? AND object_id = ? ORDER BY id",
    objectType,
    String(objectId),
  );

test("staff create a price list with rules, give it to a company with its terms, and every change is audited", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const company = await approvedCompany(page.request, baseURL!);
  const fixed = plainProduct(0);
  const fixedCents = fixed.sale_price_cents - 100;
  const listName = `Gold ${randomBytes(3).toString("hex")}`;

  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Price lists" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Price lists" })).toBeVisible();
  await expectNoAxeViolations(page);

  // A new list; then a rule for everything, a refused SKU, a product's fixed price, a refused duplicate.
  await waitForHydration(page);
  await page.getByLabel("Name", { exact: true }).fill(listName);
  await page.getByRole("button", { name: "Create price list" }).click();
  await expect(page.getByRole("heading", { level: 1, name: listName })).toBeVisible();
  await expect(status(page)).toHaveText("Price list created. Add its rules below.");
  const listId = listIdOf(page);
  await expectNoAxeViolations(page);

  await waitForHydration(page);
  await page.getByLabel("Applies to").selectOption({ label: "Everything" });
  await expect(page.getByLabel("SKU")).toBeHidden();
  await page.getByLabel("Percent off").fill("5");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(status(page)).toHaveText("Rule added. Companies on this list pay the new price now.");
  const rules = page.getByRole("table", { name: `Rules of the price list ${listName}` });
  await expect(rules.getByRole("row", { name: /Everything/ })).toContainText("5% off");

  await page.getByLabel("Applies to").selectOption({ label: "A product (by SKU)" });
  await page.getByLabel("SKU").fill("TH-9999999");
  await page.getByLabel("Fixed price (USD)").fill("3.00");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByLabel("SKU")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText('No product has the SKU "TH-9999999".')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("SKU").fill(fixed.sku);
  await page.getByLabel("Fixed price (USD)").fill((fixedCents / 100).toFixed(2));
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(status(page)).toHaveText("Rule added. Companies on this list pay the new price now.");
  await expect(rules.getByRole("row", { name: new RegExp(fixed.sku) })).toContainText(
    `Fixed price ${usd(fixedCents)} (list ${usd(fixed.sale_price_cents)})`,
  );

  await page.getByLabel("Applies to").selectOption({ label: "Everything" });
  await page.getByLabel("Percent off").fill("7");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(alert(page)).toHaveText(
    "This list already has a rule for everything. Remove that rule first to change it.",
  );
  await expect(rules.getByRole("row", { name: /Everything/ })).toContainText("5% off");

  // The list page counts the rules.
  await page.getByRole("link", { name: "Price lists", exact: true }).first().click();
  await expect(page.getByRole("row", { name: new RegExp(listName) }).getByRole("cell")).toHaveText([
    listName,
    "2",
    "0",
    /UTC$/,
  ]);

  // The company's application page: give it the list and its terms.
  await page.goto(`/admin/trade/${company.applicationId}`);
  await expect(page.getByRole("heading", { level: 2, name: "Company terms" })).toBeVisible();
  await expectNoAxeViolations(page);
  const stalePage = await page.context().newPage();
  await stalePage.goto(`/admin/trade/${company.applicationId}`);
  await waitForHydration(page);
  await page.getByLabel("Price list").selectOption({ label: listName });
  await page.getByLabel("PO number required on every order").check();
  await page.getByLabel("Net-30 invoices").check();
  await page.getByLabel("Credit limit (USD)").fill("25,000");
  await page.getByRole("button", { name: "Save company terms" }).click();
  await expect(status(page)).toHaveText("Company terms saved.");
  await expect(page.getByLabel("Price list")).toHaveValue(String(listId));
  await expect(page.getByLabel("Credit limit (USD)")).toHaveValue("25000.00");
  await expect(page.getByLabel("Net-30 invoices")).toBeChecked();

  // A form opened before that save is refused, and then shows the saved terms.
  await waitForHydration(stalePage);
  await stalePage.getByLabel("Credit limit (USD)").fill("1");
  await stalePage.getByRole("button", { name: "Save company terms" }).click();
  await expect(alert(stalePage)).toHaveText(
    "Someone else changed this company's terms while you were editing them. The form now shows their values; make your change again.",
  );
  await expect(stalePage.getByLabel("Credit limit (USD)")).toHaveValue("25000.00");
  await expectNoAxeViolations(stalePage);
  await stalePage.close();

  expect(
    queryOne(
      "SELECT price_list_id, po_required, net30, credit_limit_cents FROM companies WHERE organization_id = ?",
      company.organizationId,
    ),
  ).toEqual({
    price_list_id: listId,
    po_required: 1,
    net30: 1,
    credit_limit_cents: 2_500_000,
  });
  expect(auditOf("price_list", listId).map((r) => r.action)).toEqual([
    "price_list.create",
    "price_list.rule_add",
    "price_list.rule_add",
  ]);
  expect(JSON.parse(auditOf("price_list", listId)[2].after!)).toEqual({
    target: `product:${fixed.id}`,
    percent_off: null,
    fixed_cents: fixedCents,
  });
  expect(auditOf("company", company.organizationId)).toEqual([
    {
      action: "company.terms",
      before: JSON.stringify({ price_list_id: null, po_required: 0, net30: 0, credit_limit_cents: 0 }),
      after: JSON.stringify({ price_list_id: listId, po_required: 1, net30: 1, credit_limit_cents: 2_500_000 }),
    },
  ]);

  // The company's owner now sees the trade price on the product page.
  const buyerContext = await browser.newContext({ baseURL });
  const buyer = await buyerContext.newPage();
  await signInViaApi(buyer.request, baseURL!, company.email);
  await buyer.goto(`/shop/${fixed.id}`);
  await expect(buyer.getByTestId("price-for-quantity")).toHaveText(
    `Your trade price for 1: ${usd(fixedCents)} each, ${usd(fixedCents)} in all`,
  );
  await buyerContext.close();
});

test("a customer, who may not change trade accounts, is refused every price-list and terms page and post", async ({
  page,
  baseURL,
}) => {
  const company = await approvedCompany(page.request, baseURL!);
  const listId = (
    storeDb()
      .prepare("INSERT INTO price_lists (name, created_at) VALUES (?, ?) RETURNING id")
      .get(`Hidden ${randomBytes(3).toString("hex")}`, new Date().toISOString()) as { id: number }
  ).id;
  const email = await accountWithRole(page.request, baseURL!, "price-list-customer");
  await signInViaApi(page.request, baseURL!, email);
  const origin = { origin: baseURL! };
  const termsBefore = queryOne("SELECT * FROM companies WHERE organization_id = ?", company.organizationId);

  for (const path of ["/admin/price-lists", `/admin/price-lists/${listId}`, `/admin/trade/${company.applicationId}`]) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), `GET ${path}`).toBe(404);
  }
  const posts: [string, Record<string, string>][] = [
    ["/admin/price-lists", { intent: "create", name: "Customer's list" }],
    [`/admin/price-lists/${listId}`, { intent: "add-rule", appliesTo: "all", percentOff: "90" }],
    [`/admin/price-lists/${listId}`, { intent: "rename", name: "Mine now" }],
    [
      `/admin/trade/${company.applicationId}`,
      {
        intent: "terms",
        priceListId: String(listId),
        creditLimit: "10000000",
        net30: "on",
        updatedAt: String(termsBefore.updated_at),
      },
    ],
  ];
  for (const [path, form] of posts) {
    const response = await page.request.post(path, { form, headers: origin, maxRedirects: 0 });
    expect(response.status(), `POST ${path} ${form.intent}`).toBe(404);
    expect(await response.text()).not.toContain("Back office");
  }
  expect(queryAll("SELECT name FROM price_lists WHERE name IN ('Customer''s list', 'Mine now')")).toEqual([]);
  expect(queryAll("SELECT target FROM price_list_rules WHERE price_list_id = ?", listId)).toEqual([]);
  expect(queryOne("SELECT * FROM companies WHERE organization_id = ?", company.organizationId)).toEqual(termsBefore);
  expect(
    queryAll("SELECT action FROM audit_log WHERE object_type = 'company' AND object_id = ?", company.organizationId),
  ).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a price list is created and given a product rule through plain form posts, refusals included", async ({
    page,
    baseURL,
  }) => {
    const product = plainProduct(1);
    await useSharedStaffSession(page.context(), baseURL!);
    const name = `No script ${randomBytes(3).toString("hex")}`;
    await page.goto("/admin/price-lists");
    await page.getByLabel("Name", { exact: true }).fill(`Bad\tname`);
    await page.getByRole("button", { name: "Create price list" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("The name contains characters that aren't allowed")).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Create price list" }).click();
    await expect(status(page)).toHaveText("Price list created. Add its rules below.");
    const listId = listIdOf(page);

    // Every field shows; the server uses the ones "Applies to" asks for.
    await expect(page.getByLabel("Category")).toBeVisible();
    await page.getByLabel("Applies to").selectOption({ label: "A product (by SKU)" });
    await page.getByLabel("SKU").fill(product.sku);
    await page.getByLabel("Percent off").fill("95");
    await page.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByText("The percent off must be a whole number from 1 to 90.")).toBeVisible();
    await expect(page.getByLabel("SKU")).toHaveValue(product.sku);
    await page.getByLabel("Percent off").fill("12");
    await page.getByRole("button", { name: "Add rule" }).click();
    await expect(status(page)).toHaveText("Rule added. Companies on this list pay the new price now.");
    await expect(
      page
        .getByRole("table", { name: `Rules of the price list ${name}` })
        .getByRole("row", { name: new RegExp(product.sku) }),
    ).toContainText("12% off");

    await page.getByRole("button", { name: `Remove the rule for ${product.sku} · ${product.title}` }).click();
    await expect(status(page)).toHaveText("Rule removed.");
    expect(auditOf("price_list", listId).map((r) => r.action)).toEqual([
      "price_list.create",
      "price_list.rule_add",
      "price_list.rule_remove",
    ]);
  });
});
