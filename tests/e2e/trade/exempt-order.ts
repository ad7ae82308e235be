/**
 * A tax-exempt trade buyer from product page to invoice (issue 51), on either e2e store: the
 * company's verified certificate for Michigan (which no other test collects in) takes the sales
 * tax off its order there, and the order and its invoice name it.
 */
import type { Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { expect } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import {
  addFromProductPage,
  confirmedOrderNumber,
  fillCheckout,
  placeOrderButton,
  signInViaApi,
  summary,
} from "../shopping/support.ts";
import { approvedCompany, type StoreSql } from "./company-fixtures.ts";

const DETROIT = {
  country: "United States",
  name: "Olive Owner",
  line1: "1 Woodward Avenue",
  city: "Detroit",
  region: "MI",
  postcode: "48226",
} as const;

export async function exemptOrderToMichigan(page: Page, baseURL: string, sql: StoreSql, productId: number) {
  await sql("UPDATE tax_us_states SET rate_ppm = 60000, collect = 1, version = version + 1 WHERE code = 'MI'", []);
  await sql(
    "UPDATE products SET price_cents = 4999, discount_percent = NULL, sale_price_cents = 4999, stock_quantity = 30 WHERE id = ?",
    [productId],
  );
  await sql("UPDATE catalog_version SET version = version + 1", []);
  const company = await approvedCompany(page.request, baseURL, "US", sql);
  // Verified as staff verify it (tax-exemptions.spec.ts walks that); valid until next year.
  const now = new Date().toISOString();
  const [certificate] = await sql(
    `INSERT INTO tax_exemption_certificates (organization_id, state, number, expires_on, file_key, file_type, status, uploaded_by, uploaded_at, decided_by, decided_at)
     VALUES (?, 'MI', 'MI-RESALE-7', ?, 'e2e.pdf', 'application/pdf', 'verified', 'e2e', ?, 'e2e', ?) RETURNING id`,
    [company.organizationId, `${new Date().getUTCFullYear() + 1}-06-30`, now, now],
  );
  await signInViaApi(page.request, baseURL, company.email);
  await addFromProductPage(page, productId, { quantity: 2 });
  await page.goto("/checkout");
  await waitForHydration(page);
  await fillCheckout(page, DETROIT);
  await placeOrderButton(page).click();
  const number = await confirmedOrderNumber(page);

  const note = "No sales tax: exempt by your company's verified certificate for Michigan.";
  await expect(summary(page, "tax")).toHaveText(note);
  await expect(summary(page, "total")).toHaveText("$99.98");
  const [order] = await sql(
    "SELECT tax_basis, tax_state, tax_certificate_id, tax_cents, total_cents FROM orders WHERE number = ?",
    [number],
  );
  expect(order).toEqual({
    tax_basis: "exempt",
    tax_state: "MI",
    tax_certificate_id: certificate.id,
    tax_cents: 0,
    total_cents: 9_998,
  });
  const invoice = await page.request.get(`/account/orders/${number}/invoice.pdf`);
  expect(invoice.status()).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await invoice.body())), {
    mergePages: true,
  });
  expect(text.replace(/\s+/g, " ")).toContain(note);
}
