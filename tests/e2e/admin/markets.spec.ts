/**
 * The back office's markets (issue 51): an admin changes the rule that derives UK prices from US
 * prices and every derived UK price follows; staff set one product's own UK price on its page;
 * a bad rate and a stale form are refused with nothing written; staff who aren't admins read the
 * rule but can't change it; and the rule's form works without JavaScript. The tests run in order
 * in one worker, as they share the one rule.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { derivedPriceMinor } from "../../../app/lib/price-derivation.ts";
import { expectNoAxeViolations } from "../support/axe.ts";
import { queryOne } from "../support/db.ts";
import { insertOrder } from "./people-fixtures.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { setProduct, storeDb } from "../shopping/support.ts";

test.describe.configure({ mode: "default" });

const PRODUCT = 483;
const status = (page: Page) => page.getByRole("main").getByRole("status");
const alert = (page: Page) => page.getByRole("main").getByRole("alert");
const rule = () =>
  queryOne<{ rate_micros: number; ending: number | null; version: number }>(
    "SELECT rate_micros, ending, version FROM market_price_rules WHERE market = 'uk'",
  );
const ukPrice = (id: number) =>
  queryOne<{ uk_price_pence: number; uk_sale_price_pence: number; uk_price_set: number }>(
    "SELECT uk_price_pence, uk_sale_price_pence, uk_price_set FROM products WHERE id = ?",
    id,
  );
/** Puts the rule back as a new store has it; the product's UK price is derived again by the next save. */
function resetRule() {
  storeDb().prepare("UPDATE market_price_rules SET rate_micros = 790000, ending = 99 WHERE market = 'uk'").run();
}

test.afterAll(resetRule);

test("an admin changes the UK price rule and every derived UK price follows; a bad rate and a stale form change nothing", async ({
  page,
  browser,
  baseURL,
}) => {
  resetRule();
  setProduct(PRODUCT, { priceCents: 10_000, discountPercent: null });
  storeDb().prepare("UPDATE products SET uk_price_set = 0 WHERE id = ?").run(PRODUCT);
  await useSharedStaffSession(page.context(), baseURL!, "admin");
  await page.goto("/admin/markets");
  await waitForHydration(page);
  const markets = page.getByRole("table", { name: "The store's markets" });
  await expect(markets.getByRole("row", { name: /United Kingdom/ })).toContainText("pounds sterling (GBP)");
  await expect(markets.getByRole("row", { name: /United Kingdom/ })).toContainText("£100.00");
  await expect(markets.getByRole("row", { name: /United States/ })).toContainText("$120.00");
  await expect(page.getByTestId("uk-price-examples")).toContainText("$10.00 → £7.99");
  await expectNoAxeViolations(page);

  const rate = page.getByRole("textbox", { name: "Rate (pounds per US dollar)" });
  await expect(rate).toHaveValue("0.79");
  await rate.fill("abc");
  await page.getByRole("button", { name: "Save the UK price rule" }).click();
  await expect(alert(page)).toHaveText("Enter a rate above 0 and at most 100, like 0.79");
  await expect(rate).toHaveAttribute("aria-invalid", "true");
  await expect(rate).toHaveValue("abc");
  expect(rule()).toMatchObject({ rate_micros: 790_000, ending: 99 });
  // An ending the list doesn't offer, or no form at all, posted by hand: refused with the reason.
  const handPosted: Record<string, string>[] = [{ rate: "0.8", ending: "98", version: String(rule().version) }, {}];
  for (const form of handPosted) {
    const post = await page.request.post("/admin/markets", { form, headers: { origin: baseURL! }, maxRedirects: 0 });
    expect(post.status()).toBe(400);
  }
  expect(rule()).toMatchObject({ rate_micros: 790_000, ending: 99 });

  await rate.fill("0.8");
  await page.getByLabel("Price ending").selectOption({ label: ".95" });
  await page.getByRole("button", { name: "Save the UK price rule" }).click();
  await expect(status(page)).toHaveText("UK price rule saved. Every UK price it derives has been worked out again.");
  await expect(page.getByTestId("uk-price-examples")).toContainText("$10.00 → £8.95");
  expect(rule()).toMatchObject({ rate_micros: 800_000, ending: 95 });
  expect(ukPrice(PRODUCT)).toEqual({ uk_price_pence: 8_095, uk_sale_price_pence: 8_095, uk_price_set: 0 });

  // Two admins open the page; the first saves, the second's older form is refused and shows the saved rule.
  const other = await browser.newPage();
  await useSharedStaffSession(other.context(), baseURL!, "admin");
  await other.goto("/admin/markets");
  await waitForHydration(other);
  await other.getByRole("textbox", { name: "Rate (pounds per US dollar)" }).fill("0.81");
  await other.getByRole("button", { name: "Save the UK price rule" }).click();
  await expect(status(other)).toContainText("UK price rule saved.");
  await other.close();
  await rate.fill("0.9");
  await page.getByRole("button", { name: "Save the UK price rule" }).click();
  await expect(alert(page)).toHaveText(
    "Someone else changed the UK price rule while you were editing it. The form now shows their rule; make your change again.",
  );
  await expect(rate).toHaveValue("0.81");
  expect(rule()).toMatchObject({ rate_micros: 810_000, ending: 95 });
  expect(ukPrice(PRODUCT).uk_price_pence).toBe(derivedPriceMinor(10_000, { rateMicros: 810_000, ending: 95 }));
});

test("staff set a product's own UK price, which the rule then leaves alone, and clear it to derive it again", async ({
  page,
  baseURL,
}) => {
  resetRule();
  setProduct(PRODUCT, { priceCents: 10_000, discountPercent: 10 });
  await useSharedStaffSession(page.context(), baseURL!, "staff");
  await page.goto(`/admin/products/${PRODUCT}`);
  await waitForHydration(page);
  const field = page.getByRole("textbox", { name: "UK price (GBP)" });
  await expect(field).toHaveValue("");
  await field.fill("84.50");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  expect(ukPrice(PRODUCT)).toEqual({ uk_price_pence: 8_450, uk_sale_price_pence: 7_605, uk_price_set: 1 });
  await expect(field).toHaveValue("84.50");
  await expect(field).toHaveAccessibleDescription(/\(now £84\.50\)/);

  await field.fill("12.345");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(/UK price must be an amount like 99\.99/);
  expect(ukPrice(PRODUCT).uk_price_pence).toBe(8_450);

  await field.fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  // "Saved." is still there from the first save: the hint's new price says this one is done.
  await expect(field).toHaveAccessibleDescription(/\(now £79\.99\)/);
  expect(ukPrice(PRODUCT)).toEqual({ uk_price_pence: 7_999, uk_sale_price_pence: 7_199, uk_price_set: 0 });
});

test("staff who aren't admins read the UK price rule but can't change it", async ({ page, baseURL }) => {
  await useSharedStaffSession(page.context(), baseURL!, "staff");
  await page.goto("/admin/markets");
  await expect(page.getByText("Only admins can change the UK price rule.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save the UK price rule" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  const before = rule();
  const post = await page.request.post("/admin/markets", {
    form: { rate: "2", ending: "0", version: String(before.version) },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  // The back office's rule: what a role may not do answers as if it weren't there.
  expect(post.status()).toBe(404);
  expect(rule()).toEqual(before);
});

test("an order in pounds shows pounds on its own page and in the back office, which filters orders by currency", async ({
  page,
  browser,
  baseURL,
}) => {
  const number = insertOrder({ status: "placed", totalCents: 5_432, currency: "gbp" });
  // The fixture's token is shorter than a real one; the guest link wants 32 characters.
  const accessToken = randomBytes(16).toString("hex");
  storeDb().prepare("UPDATE orders SET access_token = ? WHERE number = ?").run(accessToken, number);
  const shopper = await browser.newPage();
  await shopper.goto(`/orders/${accessToken}`);
  await expect(shopper.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(shopper.getByTestId("summary-total")).toHaveText("£54.32");
  await shopper.close();

  await useSharedStaffSession(page.context(), baseURL!, "staff");
  await page.goto("/admin/orders");
  await page.getByLabel("Currency").selectOption({ label: "pounds sterling (GBP)" });
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/currency=gbp/);
  const row = page.getByRole("row", { name: new RegExp(number) });
  await expect(row).toContainText("£54.32");
  await expect(page.getByRole("main").getByText("$54.32")).toHaveCount(0);
  await row.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(number);
  await expect(page.getByTestId("order-total")).toHaveText("£54.32");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin saves the UK price rule through a plain form post", async ({ page, baseURL }) => {
    resetRule();
    await useSharedStaffSession(page.context(), baseURL!, "admin");
    await page.goto("/admin/markets");
    await page.getByRole("textbox", { name: "Rate (pounds per US dollar)" }).fill("0.75");
    await page.getByLabel("Price ending").selectOption({ label: ".00 (whole amounts)" });
    await page.getByRole("button", { name: "Save the UK price rule" }).click();
    await expect(page).toHaveURL(/\/admin\/markets\?done=saved$/);
    await expect(status(page)).toHaveText("UK price rule saved. Every UK price it derives has been worked out again.");
    expect(rule()).toMatchObject({ rate_micros: 750_000, ending: 0 });
    await expect(page.getByTestId("uk-price-examples")).toContainText("$10.00 → £8.00");
  });
});
