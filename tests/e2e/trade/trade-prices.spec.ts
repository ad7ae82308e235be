import { randomBytes } from "node:crypto";
import { discountedPriceCents } from "../../../app/lib/pricing.ts";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { queryOne, usd } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { addToCartViaHttp } from "../support/orders.ts";
import { signInViaApi, storeDb } from "../shopping/support.ts";

/** A company on a price list of 12% off everything, with this user as its buyer. */
function tradeBuyerOnPriceList(email: string, percentOff: number) {
  const db = storeDb();
  const id = randomBytes(5).toString("hex");
  const now = new Date().toISOString();
  const user = queryOne<{ id: string }>('SELECT id FROM "user" WHERE email = ?', email);
  const list = db.prepare("INSERT INTO price_lists (name, created_at) VALUES (?, ?) RETURNING id").get(`E2E ${id}`, now) as { id: number };
  db.prepare("INSERT INTO price_list_rules (price_list_id, target, percent_off, fixed_cents) VALUES (?, 'all', ?, NULL)").run(list.id, percentOff);
  db.prepare("INSERT INTO organization (id, name, slug, createdAt) VALUES (?, ?, ?, ?)").run(`org-${id}`, `Grid Co ${id}`, `grid-${id}`, now);
  db.prepare("INSERT INTO member (id, organizationId, userId, role, createdAt) VALUES (?, ?, ?, 'buyer', ?)").run(`mem-${id}`, `org-${id}`, user.id, now);
  const app = db
    .prepare(
      "INSERT INTO trade_applications (user_id, company_name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, status, created_at, decided_at, decided_by, organization_id) VALUES (?, ?, 'US', '12-3456789', '1 Main St', 'New York', '10001', '+1 212 555 0100', 'approved', ?, ?, 'e2e', ?) RETURNING id",
    )
    .get(user.id, `Grid Co ${id}`, now, now, `org-${id}`) as { id: number };
  db.prepare(
    "INSERT INTO companies (organization_id, application_id, name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, price_list_id, created_at, updated_at) VALUES (?, ?, ?, 'US', '12-3456789', '1 Main St', 'New York', '10001', '+1 212 555 0100', ?, ?, ?)",
  ).run(`org-${id}`, app.id, `Grid Co ${id}`, list.id, now, now);
}

test("a trade buyer sees their price on the grid, the product page and in the cart; an anonymous shopper never does", async ({ page, browser, baseURL }) => {
  const email = uniqueEmail("trade-grid");
  await registerViaApi(page.request, baseURL!, email);
  tradeBuyerOnPriceList(email, 12);
  await signInViaApi(page.request, baseURL!, email);

  await page.goto("/shop?sort=name");
  const firstCard = page.getByRole("listitem").filter({ has: page.getByTestId("your-price") }).first();
  const title = (await firstCard.getByRole("heading", { level: 3 }).textContent())!.trim();
  const product = queryOne<{ id: number; sale_price_cents: number }>("SELECT id, sale_price_cents FROM products WHERE title = ?", title);
  const yours = discountedPriceCents(product.sale_price_cents, 12);
  await expect(firstCard.getByTestId("your-price")).toHaveText(`Your price ${usd(yours)}`);
  expect(await page.getByTestId("your-price").count()).toBe(15);

  await page.goto(`/shop/${product.id}`);
  await expect(page.getByTestId("price-for-quantity")).toContainText(`Your trade price for 1: ${usd(yours)} each`);
  await addToCartViaHttp(page.request, baseURL!, product.id, { quantity: 1 });
  await page.goto("/cart");
  const line = page.getByRole("row").filter({ hasText: title });
  await expect(line.getByTestId("unit-price")).toContainText(usd(yours));
  await expect(line.getByTestId("unit-price")).toContainText("Your trade price");

  // Someone without a session gets the shared page, without anyone's trade price.
  const anonymous = await browser.newContext({ baseURL });
  const guest = await anonymous.newPage();
  await guest.goto("/shop?sort=name");
  await expect(guest.getByRole("heading", { level: 3 }).first()).toBeVisible();
  await expect(guest.getByTestId("your-price")).toHaveCount(0);
  await guest.goto(`/shop/${product.id}`);
  await expect(guest.getByText("Your trade price")).toHaveCount(0);
  await anonymous.close();
});
