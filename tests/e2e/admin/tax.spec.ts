/**
 * The back office's US sales-tax table (issue 51): an admin changes a state's rate and where the
 * store collects, imports local rates by ZIP code and checks what an address pays; bad rates, a
 * bad file and a stale form are refused with nothing written; staff who aren't admins read the
 * table but can't change it; and the forms work as plain posts without JavaScript. Staff set a
 * product's VAT rate and Proposition 65 flag, and a Californian sees the warning and the tax before
 * the order is placed. The tests run in order in one worker, as two of them use California.
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryAll, queryOne } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  ordersFor,
  placeOrderButton,
  setProduct,
  storeDb,
} from "../shopping/support.ts";
import { uniqueEmail } from "../support/accounts.ts";
import { US_STATES } from "../../../server/tax/us-states.ts";

test.describe.configure({ mode: "default" });

const status = (page: Page) => page.getByRole("main").getByRole("status");
const alert = (page: Page) => page.getByRole("main").getByRole("alert");
const rate = (page: Page, state: string) => page.getByRole("textbox", { name: `Rate (%) ${state}` });
const stateRow = (code: string) =>
  queryOne<{ rate_ppm: number; shipping_taxable: number; collect: number; version: number }>(
    "SELECT rate_ppm, shipping_taxable, collect, version FROM tax_us_states WHERE code = ?",
    code,
  );
/** Puts these states back as seeded (collecting nowhere), so each test starts from the same table. */
function resetStates(...codes: string[]) {
  for (const code of codes) {
    const seed = US_STATES.find((s) => s.code === code)!;
    storeDb()
      .prepare(
        "UPDATE tax_us_states SET rate_ppm = ?, shipping_taxable = ?, collect = 0, version = version + 1 WHERE code = ?",
      )
      .run(seed.ratePpm, seed.shippingTaxable ? 1 : 0, code);
  }
}
const audits = (code: string) =>
  queryAll<{ action: string; after: string }>(
    "SELECT action, after FROM audit_log WHERE object_type = 'tax_us_state' AND object_id = ? ORDER BY id",
    code,
  );

test("an admin sets California's rate and collects there, imports a local rate, and checks an address", async ({
  page,
  baseURL,
}) => {
  resetStates("CA");
  storeDb().prepare("DELETE FROM tax_us_local_rates WHERE zip = '90001'").run();
  const auditsBefore = audits("CA").length;
  await useSharedStaffSession(page.context(), baseURL!, "admin");
  await page.goto("/admin/tax");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Tax" })).toBeVisible();

  await rate(page, "California (CA)").fill("7.5");
  await page.getByRole("checkbox", { name: "Collect sales tax California (CA)" }).check();
  await page.getByRole("button", { name: "Save US sales tax" }).click();
  await expect(status(page)).toHaveText("US sales tax saved.");
  await expect(page.getByText(/^Collecting in .*California/)).toBeVisible();
  await expect(rate(page, "California (CA)")).toHaveValue("7.5");
  expect(stateRow("CA")).toMatchObject({ rate_ppm: 75_000, collect: 1 });
  expect(
    audits("CA")
      .slice(auditsBefore)
      .map((a) => [a.action, JSON.parse(a.after)]),
  ).toEqual([["tax.state.update", { ratePpm: 75_000, collect: true }]]);

  // A file of 2,001 rates (about 60 KB, past the 16 KB a plain form may post), as a real table is.
  const csv = ["zip,state,region,rate", "90001,CA,Los Angeles,2.5"];
  for (let i = 0; i < 2000; i++) csv.push(`${String(93000 + i)},CA,Central Valley district ${i},1.25`);
  await page.getByLabel("CSV file (up to 10 MB)").setInputFiles({
    name: "local-rates.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv.join("\n")),
  });
  await page.getByRole("button", { name: "Import local rates" }).click();
  await expect(status(page)).toHaveText("Local rates imported.");
  expect(queryOne("SELECT region, rate_ppm FROM tax_us_local_rates WHERE zip = '90001'")).toEqual({
    region: "Los Angeles",
    rate_ppm: 25_000,
  });

  await page.getByLabel("State", { exact: true }).selectOption({ label: "California" });
  await page.getByRole("textbox", { name: "ZIP code", exact: true }).fill("90001");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  const outcome = page.getByRole("region", { name: "Check an address" }).getByRole("status");
  await expect(outcome).toContainText(
    "CA 90001, a $100.00 order with $10.00 delivery: sales tax $10.00, total $120.00.",
  );
  await expect(outcome).toContainText("California sales tax 7.5%: $7.50 on $100.00");
  await expect(outcome).toContainText("Local sales tax 2.5% (Los Angeles): $2.50 on $100.00");
  await expect(outcome).toContainText("Delivery is not taxed there.");

  await page.getByLabel("State", { exact: true }).selectOption({ label: "Oregon" });
  await page.getByRole("textbox", { name: "ZIP code", exact: true }).fill("97201");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(outcome).toHaveText(
    "OR 97201: no sales tax collected. The store is not registered to collect it in Oregon.",
  );
  await expectNoAxeViolations(page);
});

test("bad rates, a bad file and a stale form are refused with nothing written", async ({ page, browser, baseURL }) => {
  resetStates("TX", "FL", "AZ", "ID");
  await useSharedStaffSession(page.context(), baseURL!, "admin");
  await page.goto("/admin/tax");
  await waitForHydration(page);
  const texas = stateRow("TX");

  await rate(page, "Texas (TX)").fill("abc");
  await rate(page, "Florida (FL)").fill("16");
  await page.getByRole("checkbox", { name: "Collect sales tax Texas (TX)" }).check();
  await page.getByRole("button", { name: "Save US sales tax" }).click();
  await expect(alert(page)).toHaveText("Check the rates marked below; nothing was saved.");
  await expect(rate(page, "Texas (TX)")).toHaveAttribute("aria-invalid", "true");
  await expect(rate(page, "Texas (TX)")).toHaveValue("abc");
  await expect(rate(page, "Florida (FL)")).toHaveAccessibleDescription("Enter a rate from 0 to 15%, like 7.25");
  expect(stateRow("TX")).toEqual(texas);
  await expectNoAxeViolations(page);

  await page.getByLabel("Or paste the CSV").fill("zip,state,region,rate\n9001,AZ,Short,2\n85001,ZZ,Phoenix,1\n");
  await page.getByRole("button", { name: "Import local rates" }).click();
  await expect(alert(page)).toHaveText("The file has 2 problems; nothing was imported.");
  const problems = page.getByRole("list", { name: "Problems in the file" });
  await expect(problems).toContainText("Line 2: The ZIP code must be 5 digits.");
  await expect(problems).toContainText("Line 3: The state must be a two-letter US state code, like CA.");
  expect(queryAll("SELECT zip FROM tax_us_local_rates WHERE zip IN ('9001', '85001')")).toEqual([]);

  // Two admins open the page; the first saves Arizona, the second's older form is refused whole.
  await page.goto("/admin/tax");
  await waitForHydration(page);
  const other = await browser.newPage();
  await useSharedStaffSession(other.context(), baseURL!, "admin");
  await other.goto("/admin/tax");
  await waitForHydration(other);
  await rate(other, "Arizona (AZ)").fill("5.7");
  await other.getByRole("button", { name: "Save US sales tax" }).click();
  await expect(status(other)).toHaveText("US sales tax saved.");
  await other.close();
  await rate(page, "Arizona (AZ)").fill("5.8");
  await rate(page, "Idaho (ID)").fill("6.1");
  await page.getByRole("button", { name: "Save US sales tax" }).click();
  await expect(alert(page)).toHaveText(
    "Someone else changed Arizona since you opened this page. Nothing was saved; the table below is as it is now.",
  );
  await expect(rate(page, "Arizona (AZ)")).toHaveValue("5.7");
  expect(stateRow("AZ").rate_ppm).toBe(57_000);
  expect(stateRow("ID").rate_ppm).toBe(60_000);
});

test("staff who aren't admins read the table but can't change it", async ({ page, baseURL }) => {
  await useSharedStaffSession(page.context(), baseURL!, "staff");
  await page.goto("/admin/tax");
  await expect(page.getByText("Only admins can change these.", { exact: false })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save US sales tax" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Import local rates" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: /Georgia \(GA\)/ })).toContainText("4");
  await expectNoAxeViolations(page);
  const before = stateRow("GA");
  const post = await page.request.post("/admin/tax", {
    form: { intent: "save-states", version_GA: String(before.version), rate_GA: "9", collect_GA: "1" },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  // The back office's rule: what a role may not do answers as if it weren't there.
  expect(post.status()).toBe(404);
  const upload = await page.request.post("/admin/tax", {
    form: { intent: "import-local", csv: "zip,state,region,rate\n30301,GA,Atlanta,4" },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(upload.status()).toBe(404);
  expect(stateRow("GA")).toEqual(before);
  expect(queryAll("SELECT zip FROM tax_us_local_rates WHERE zip = '30301'")).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin saves Nevada's delivery rule and checks an address through plain form posts", async ({
    page,
    baseURL,
  }) => {
    resetStates("NV");
    await useSharedStaffSession(page.context(), baseURL!, "admin");
    await page.goto("/admin/tax");
    const delivery = page.getByRole("checkbox", { name: "Taxes delivery Nevada (NV)" });
    await expect(delivery).not.toBeChecked();
    await delivery.check();
    await page.getByRole("button", { name: "Save US sales tax" }).click();
    await expect(status(page)).toHaveText("US sales tax saved.");
    await expect(delivery).toBeChecked();
    expect(stateRow("NV").shipping_taxable).toBe(1);

    await page.getByLabel("State", { exact: true }).selectOption({ label: "Nevada" });
    await page.getByRole("textbox", { name: "ZIP code", exact: true }).fill("89501");
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/tax\?state=NV&zip=89501$/);
    await expect(page.getByRole("region", { name: "Check an address" }).getByRole("status")).toHaveText(
      "NV 89501: no sales tax collected. The store is not registered to collect it in Nevada.",
    );
  });
});

test.describe("reports, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("staff download the UK VAT summary and the US sales tax report as CSV; a bad period or report is refused", async ({
    page,
    baseURL,
  }) => {
    await useSharedStaffSession(page.context(), baseURL!, "staff");
    await page.goto("/admin/tax");
    const reports = page.getByRole("region", { name: "Reports" });
    const now = new Date();
    const quarter = `${now.getUTCFullYear()}-Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    const month = now.toISOString().slice(0, 7);
    await expect(reports.getByLabel("Quarter")).toHaveValue(quarter);
    await expect(reports.getByLabel("Month")).toHaveValue(month);

    const download = async (button: string) => {
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        reports.getByRole("button", { name: button }).click(),
      ]);
      return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, "utf8") };
    };
    const vat = await download("Download UK VAT summary");
    expect(vat.name).toBe(`uk-vat-${quarter}.csv`);
    const vatRows = vat.text.trim().split("\n");
    expect(vatRows[0]).toBe("order,date,status,currency,sales_incl_vat,net,output_vat,refunded,vat_refunded");
    // One total row per currency the quarter's UK orders were in (pounds when there were none).
    const body = vatRows.slice(1).filter((r) => !r.startsWith("Total,"));
    const currencyOf = (row: string) => row.split(",")[3];
    const used = ["USD", "GBP"].filter((c) => body.some((r) => currencyOf(r) === c));
    const totals = vatRows.slice(1).filter((r) => r.startsWith("Total,"));
    expect(totals.map(currencyOf)).toEqual(used.length ? used : ["GBP"]);
    for (const total of totals)
      expect(total).toMatch(
        new RegExp(
          `^Total,,${body.filter((r) => currencyOf(r) === currencyOf(total)).length} orders,${currencyOf(total)},`,
        ),
      );
    const us = await download("Download US sales tax report");
    expect(us.name).toBe(`us-sales-tax-${month}.csv`);
    expect(us.text.split("\n")[0]).toBe(
      "state,state_name,currency,orders,sales_before_tax,taxable,state_tax,local_tax,exempt_sales,uncollected_sales",
    );

    const bad = await page.request.get("/admin/tax/reports/uk-vat?quarter=2026-Q9");
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain("Choose a quarter, like 2026-Q4.");
    const none = await page.request.get("/admin/tax/reports/eu-vat?quarter=2026-Q4");
    expect(none.status()).toBe(404);
  });
});

test("staff set a product's VAT rate and Proposition 65 flag; a Californian sees the warning and the tax before placing the order", async ({
  page,
  browser,
  baseURL,
}) => {
  resetStates("CA");
  storeDb().prepare("UPDATE tax_us_states SET collect = 1, version = version + 1 WHERE code = 'CA'").run();
  storeDb().prepare("DELETE FROM tax_us_local_rates WHERE zip = '94105'").run();
  const p = setProduct(482, { stock: 20, priceCents: 2_000, discountPercent: null });
  storeDb().prepare("UPDATE products SET prop65 = 0, vat_class = 'standard' WHERE id = ?").run(p.id);
  await useSharedStaffSession(page.context(), baseURL!, "staff");
  await page.goto(`/admin/products/${p.id}`);
  await waitForHydration(page);
  const panel = page.getByRole("region", { name: "Tax rules" });
  await panel.getByLabel("UK VAT rate").selectOption({ label: "Reduced rate (5%)" });
  await panel.getByLabel("California Proposition 65 warning").check();
  await panel.getByRole("button", { name: "Save tax rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tax rules saved." })).toBeVisible();
  expect(queryOne("SELECT vat_class, prop65 FROM products WHERE id = ?", p.id)).toEqual({
    vat_class: "reduced",
    prop65: 1,
  });
  expect(
    queryAll("SELECT after FROM audit_log WHERE action = 'product.tax' AND object_id = ? ORDER BY id", String(p.id)).at(
      -1,
    ),
  ).toEqual({ after: JSON.stringify({ vat_class: "reduced", prop65: true }) });
  await expect(panel.getByLabel("UK VAT rate")).toHaveValue("reduced");

  const shopper = await browser.newContext({ baseURL });
  const buyer = await shopper.newPage();
  const email = uniqueEmail("prop65");
  await addFromProductPage(buyer, p.id, { quantity: 1 });
  await buyer.goto("/checkout");
  await waitForHydration(buyer);
  const address = { country: "United States", name: "Cal Buyer", line1: "1 Market St", city: "San Francisco" } as const;
  await fillCheckout(buyer, { ...address, region: "CA", postcode: "94105", email });
  await placeOrderButton(buyer).click();
  await expect(buyer.getByRole("main").getByRole("alert")).toHaveText(
    "Sales tax of $1.45 applies to delivery to ZIP code 94105 (California), so your total is $21.45. A product in your order needs a California Proposition 65 warning: read it below. Check the order summary, then place your order again.",
  );
  const warning = buyer.getByRole("note", { name: "California Proposition 65" });
  await expect(warning).toContainText("WARNING: Cancer and Reproductive Harm - www.P65Warnings.ca.gov.");
  await expect(warning).toContainText(`For: ${p.title}.`);
  expect(ordersFor(email)).toHaveLength(0);
  await expectNoAxeViolations(buyer);
  await placeOrderButton(buyer).click();
  await confirmedOrderNumber(buyer);
  expect(ordersFor(email)).toMatchObject([{ tax_cents: 145, total_cents: 2_145 }]);
  expect(queryOne("SELECT prop65_warned FROM orders WHERE email = ?", email)).toEqual({ prop65_warned: 1 });
  await shopper.close();
});
