/**
 * The back office on PostgreSQL, where the data layer differs from SQLite: customer search (ILIKE
 * and trigram indexes, case-insensitive beyond ASCII), the product search's SQL, booleans for bans,
 * and the guard's session and second-factor columns. Runs against the third e2e store
 * (scripts/e2e-server.mjs --postgres) when TEST_DATABASE_URL is set, as in `npm test`.
 */
import type { APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { signInViaApi } from "../shopping/support.ts";
import { HAS_POSTGRES_STORE, pgQuery, POSTGRES_BASE } from "../support/postgres-store.ts";
import { enrolTwoFactor } from "./support.ts";

const base = POSTGRES_BASE;
const query = pgQuery;

test.skip(!HAS_POSTGRES_STORE, "needs TEST_DATABASE_URL (a PostgreSQL server), as npm test has");
test.use({ baseURL: base });

async function staffOnPostgres(request: APIRequestContext, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await registerViaApi(request, base, email);
  await query(`UPDATE "user" SET role = 'staff' WHERE email = $1`, [email]);
  await signInViaApi(request, base, email);
  await enrolTwoFactor(request, base, email);
  return email;
}

test("on PostgreSQL staff find a customer by any part of the name in any case, accents included, and ban them", async ({
  page,
  browser,
}) => {
  const customer = await browser.newContext({ baseURL: base });
  const email = uniqueEmail("zoe-pg");
  await registerViaApi(customer.request, base, email, GOOD_PASSWORD, "Zoë Ångström");
  await signInViaApi(customer.request, base, email);

  await staffOnPostgres(page.request, "staff-pg");
  await page.goto("/admin/customers");
  await waitForHydration(page);
  // Upper-case Å and Ö match the stored å and ö only with Unicode case folding (PostgreSQL's ILIKE).
  await page.getByLabel("Name or email").fill("ÅNGSTRÖM");
  await page.getByRole("main").getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expectNoAxeViolations(page);

  await row.getByRole("link", { name: "Zoë Ångström" }).click();
  await page.getByLabel("Reason for the ban").fill("Fraudulent orders");
  await page.getByRole("button", { name: "Ban customer" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Customer banned. 1 session was ended.");
  const [user] = await query<{ banned: boolean; sessions: string }>(
    `SELECT banned, (SELECT count(*) FROM session s WHERE s."userId" = u.id) AS sessions FROM "user" u WHERE email = $1`,
    [email],
  );
  expect(user).toEqual({ banned: true, sessions: "0" });
  const refused = await customer.request.post("/api/auth/sign-in/email", {
    data: { email, password: GOOD_PASSWORD },
    headers: { origin: base },
  });
  expect(refused.status()).toBe(403);
  const audit = await query<{ action: string }>(
    `SELECT action FROM audit_log WHERE object_id = (SELECT id FROM "user" WHERE email = $1)`,
    [email],
  );
  expect(audit.map((a) => a.action)).toEqual(["customer.ban"]);
  await customer.close();
});

test("on PostgreSQL staff find products by words and by SKU, and an edit is live on the shop", async ({ page }) => {
  await staffOnPostgres(page.request, "staff-pg-products");
  const [product] = await query<{ id: number; sku: string }>(
    `SELECT id, sku FROM products WHERE archived_at IS NULL ORDER BY id LIMIT 1 OFFSET 7`,
  );
  await page.goto(`/admin/products?q=${encodeURIComponent(product.sku.toLowerCase())}`);
  const rows = page.getByRole("main").getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(product.sku);

  await page.goto("/admin/products?q=cordless+drill");
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(0);
  await expectNoAxeViolations(page);

  // The same stock adjustment the SQLite spec makes, through PostgreSQL's locking.
  await page.goto(`/admin/products/${product.id}`);
  await waitForHydration(page);
  const [{ stock_quantity: before }] = await query<{ stock_quantity: number }>(
    `SELECT stock_quantity FROM products WHERE id = $1`,
    [product.id],
  );
  await page.getByLabel("Reason").selectOption("received");
  await page.getByLabel("Change (+/−)").fill("5");
  await page.getByRole("button", { name: "Adjust stock" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stock adjusted" })).toBeVisible();
  await expect(page.getByTestId("current-stock")).toHaveText(String(before + 5));
  const [ledger] = await query<{ reason: string; stock_before: number; stock_after: number }>(
    `SELECT reason, stock_before, stock_after FROM stock_movements WHERE product_id = $1 ORDER BY id DESC LIMIT 1`,
    [product.id],
  );
  expect(ledger).toEqual({ reason: "received", stock_before: before, stock_after: before + 5 });
  await page.goto(`/shop/${product.id}`);
  await expect(page.getByRole("main")).toContainText(`In Stock (${before + 5})`);
});
