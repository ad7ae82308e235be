/**
 * Tax from product page to invoice on the PostgreSQL store (issue 51): a US shopper delivering to a
 * state where the store collects sees the sales tax before placing the order, and the order, its
 * stored tax lines and its invoice keep it; a UK shopper's order and invoice show the VAT inside
 * the prices; a trade buyer whose company has a verified exemption certificate orders without sales
 * tax. tests/e2e/shopping/sales-tax.spec.ts and trade/tax-exemptions.spec.ts run the same flows on
 * the SQLite store.
 */
import type { Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { HAS_POSTGRES_STORE, pgQuery, pgStoreSql, POSTGRES_BASE } from "../support/postgres-store.ts";
import { exemptOrderToMichigan } from "../trade/exempt-order.ts";
import { waitForHydration } from "../support/site.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  placeOrderButton,
  SEATTLE,
  gbp,
  shopInMarket,
  signInViaApi,
  summary,
  UK_ADDRESS,
  usd,
} from "./support.ts";

test.skip(!HAS_POSTGRES_STORE, "needs TEST_DATABASE_URL (a PostgreSQL server), as npm test has");
test.use({ baseURL: POSTGRES_BASE });

const PRODUCT = 484;

/**
 * A signed-in shopper on the PostgreSQL store with two of the product, $49.99 each (£49.99 in the
 * UK market), in the cart, at the checkout.
 */
async function shopperAtCheckout(page: Page, tag: string): Promise<string> {
  await pgQuery(
    `UPDATE products SET price_cents = 4999, discount_percent = NULL, sale_price_cents = 4999, stock_quantity = 50,
       uk_price_pence = 4999, uk_sale_price_pence = 4999, uk_price_set = 1 WHERE id = $1`,
    [PRODUCT],
  );
  await pgQuery("UPDATE catalog_version SET version = version + 1");
  const email = uniqueEmail(tag);
  await registerViaApi(page.request, POSTGRES_BASE, email);
  await signInViaApi(page.request, POSTGRES_BASE, email);
  await addFromProductPage(page, PRODUCT, { quantity: 2 });
  await page.goto("/checkout");
  await waitForHydration(page);
  return email;
}

const storedTaxLines = (number: string) =>
  pgQuery<{ jurisdiction: string; rate_ppm: number; taxable_cents: number; tax_cents: number; included: number }>(
    `SELECT t.jurisdiction, t.rate_ppm, t.taxable_cents, t.tax_cents, t.included
     FROM order_tax_lines t JOIN orders o ON o.id = t.order_id WHERE o.number = $1 ORDER BY t.id`,
    [number],
  );

/** The invoice PDF's text as the account's order page links it, without spaces. */
async function invoiceText(page: Page, number: string): Promise<string> {
  await page.getByRole("link", { name: "Download invoice (PDF)" }).waitFor();
  const response = await page.request.get(`/account/orders/${number}/invoice.pdf`);
  expect(response.status()).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.body())), {
    mergePages: true,
  });
  return text.replace(/\s+/g, "");
}

test("on PostgreSQL a US shopper sees Washington's sales tax before placing the order; the order and its invoice keep it", async ({
  page,
}) => {
  await pgQuery("UPDATE tax_us_states SET rate_ppm = 65000, collect = 1, version = version + 1 WHERE code = 'WA'");
  const email = await shopperAtCheckout(page, "pg-tax-us");
  await fillCheckout(page, SEATTLE);
  await placeOrderButton(page).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "Sales tax of $6.50 applies to delivery to ZIP code 98109 (Washington), so your total is $106.48. Check the order summary, then place your order again.",
  );
  expect(await pgQuery("SELECT 1 FROM orders WHERE email = $1", [email])).toEqual([]);
  await placeOrderButton(page).click();
  const number = await confirmedOrderNumber(page);

  await expect(page.getByTestId("summary-tax-line")).toHaveText(["Washington sales tax 6.5%$6.50"]);
  await expect(summary(page, "total")).toHaveText(usd(10_648));
  expect(await storedTaxLines(number)).toEqual([
    { jurisdiction: "US-WA", rate_ppm: 65_000, taxable_cents: 9_998, tax_cents: 650, included: 0 },
  ]);
  const [order] = await pgQuery("SELECT tax_basis, tax_state, currency, total_cents FROM orders WHERE number = $1", [
    number,
  ]);
  expect(order).toEqual({ tax_basis: "collected", tax_state: "WA", currency: "usd", total_cents: 10_648 });
  const invoice = await invoiceText(page, number);
  for (const part of ["Washingtonsalestax6.5%$6.50", "Total$106.48", "AllamountsareinUSdollars(USD)."])
    expect(invoice).toContain(part);
});

test("on PostgreSQL a UK shopper's order and invoice are in pounds with the VAT inside the prices", async ({
  page,
}) => {
  await shopInMarket(page, POSTGRES_BASE, "uk");
  await shopperAtCheckout(page, "pg-tax-uk");
  await fillCheckout(page, UK_ADDRESS);
  await placeOrderButton(page).click();
  const number = await confirmedOrderNumber(page);

  // £99.98 of goods and £9.99 delivery, all at the standard rate: one VAT line inside the total,
  // whose taxable amount is the total without it.
  const [vat] = await storedTaxLines(number);
  expect(vat).toMatchObject({ jurisdiction: "GB", rate_ppm: 200_000, included: 1 });
  expect(vat.tax_cents).toBe(Math.round((10_997 * 20) / 120));
  expect(vat.taxable_cents).toBe(10_997 - vat.tax_cents);
  await expect(page.getByTestId("summary-tax-line")).toHaveText([`VAT 20% (included)${gbp(vat.tax_cents)}`]);
  await expect(summary(page, "total")).toHaveText(gbp(10_997));
  const [order] = await pgQuery("SELECT currency, total_cents FROM orders WHERE number = $1", [number]);
  expect(order).toEqual({ currency: "gbp", total_cents: 10_997 });
  const invoice = await invoiceText(page, number);
  for (const part of [
    `IncludesVAT20%${gbp(vat.tax_cents)}`,
    "Total£109.97",
    "PricesincludeUKVAT.",
    "Allamountsareinpoundssterling(GBP).",
  ])
    expect(invoice).toContain(part);
});

test("on PostgreSQL a trade buyer whose company has a verified certificate orders to Michigan without sales tax", async ({
  page,
}) => {
  await exemptOrderToMichigan(page, POSTGRES_BASE, pgStoreSql, 485);
});
