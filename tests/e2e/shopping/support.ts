import { DatabaseSync } from "node:sqlite";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { discountedPriceCents } from "../../../app/lib/pricing.ts";
import { GOOD_PASSWORD } from "../support/accounts.ts";
import { storeDbPath } from "../support/db.ts";
import { waitForHydration } from "../support/site.ts";

/**
 * Helpers for the shopping suite. Tests that change a product's price or stock each own a product
 * id from the 200–399 range (not on the shop's first pages, not featured, not the first match of
 * any foundation test), and set it to a known state first, so reruns and parallel workers agree.
 */

let handle: DatabaseSync | undefined;
/** A writable handle on the e2e server's SQLite database (WAL mode; waits while the server writes). */
export function storeDb(): DatabaseSync {
  if (!handle) {
    handle = new DatabaseSync(storeDbPath);
    handle.exec("PRAGMA busy_timeout = 5000");
  }
  return handle;
}

export interface ShopProduct {
  id: number;
  title: string;
  price_cents: number;
  discount_percent: number | null;
  sale_price_cents: number;
  stock_quantity: number;
  colors: string[];
}

export function readProduct(id: number): ShopProduct {
  const row = storeDb()
    .prepare(
      "SELECT id, title, price_cents, discount_percent, sale_price_cents, stock_quantity, colors FROM products WHERE id = ?",
    )
    .get(id) as (Omit<ShopProduct, "colors"> & { colors: string }) | undefined;
  if (!row) throw new Error(`no product ${id}`);
  return { ...row, colors: JSON.parse(row.colors) as string[] };
}

/**
 * Tells the store the catalog changed, as every stock or price change in the app does in its own
 * transaction (the anonymous page micro-cache is keyed on this version).
 */
function bumpCatalogVersion() {
  const db = storeDb();
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'catalog_version'").get();
  if (exists) db.prepare("UPDATE catalog_version SET version = version + 1 WHERE id = 1").run();
}

/**
 * Puts a product into a known state; the sale price follows the store's own rule. `ukPricePence`
 * sets its UK price too (as staff would, so no rule re-derives it).
 */
export function setProduct(
  id: number,
  state: { stock?: number; priceCents?: number; discountPercent?: number | null; ukPricePence?: number },
): ShopProduct {
  const current = readProduct(id);
  const price = state.priceCents ?? current.price_cents;
  const discount = state.discountPercent === undefined ? current.discount_percent : state.discountPercent;
  storeDb()
    .prepare(
      "UPDATE products SET price_cents = ?, discount_percent = ?, sale_price_cents = ?, stock_quantity = ? WHERE id = ?",
    )
    .run(price, discount, discountedPriceCents(price, discount), state.stock ?? current.stock_quantity, id);
  if (state.ukPricePence != null)
    storeDb()
      .prepare("UPDATE products SET uk_price_pence = ?, uk_sale_price_pence = ?, uk_price_set = 1 WHERE id = ?")
      .run(state.ukPricePence, discountedPriceCents(state.ukPricePence, discount), id);
  bumpCatalogVersion();
  return readProduct(id);
}

/** Chooses a market with the header's picker (its label and its Change market button), from the home page. */
async function chooseMarket(page: Page, label: "United Kingdom (GBP £)" | "United States (USD $)") {
  await page.goto("/");
  await page.getByLabel("Market", { exact: true }).selectOption({ label });
  await page.getByRole("button", { name: "Change market" }).click();
  await expect(page.getByLabel("Market", { exact: true })).toHaveValue(
    label.startsWith("United Kingdom") ? "uk" : "us",
  );
}

/** Shops in a market from now on, as the header's market picker leaves it: the `market` cookie. */
export async function shopInMarket(page: Page, baseURL: string, market: "uk" | "us") {
  await page.context().addCookies([{ name: "market", value: market, url: baseURL }]);
}

/** Pounds as the store writes them: 12999 → "£129.99". */
export function gbp(pence: number): string {
  return usd(pence).replace("$", "£");
}

export function setStock(id: number, stock: number) {
  storeDb().prepare("UPDATE products SET stock_quantity = ? WHERE id = ?").run(stock, id);
  bumpCatalogVersion();
}

export interface OrderRow {
  id: number;
  number: string;
  access_token: string;
  email: string;
  user_id: string | null;
  status: string;
  ship_country: string;
  subtotal_cents: number;
  member_discount_cents: number;
  shipping_cents: number;
  tax_cents: number;
  total_cents: number;
}

export function ordersFor(email: string): OrderRow[] {
  return storeDb().prepare("SELECT * FROM orders WHERE email = ? ORDER BY id").all(email) as unknown as OrderRow[];
}

export function orderLines(orderId: number) {
  return storeDb()
    .prepare(
      "SELECT product_id, title, color, quantity, unit_price_cents, line_total_cents FROM order_lines WHERE order_id = ? ORDER BY id",
    )
    .all(orderId) as unknown as {
    product_id: number;
    title: string;
    color: string;
    quantity: number;
    unit_price_cents: number;
    line_total_cents: number;
  }[];
}

/** Formats cents as the store shows them: "$1,234.50". */
export function usd(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(
    cents / 100,
  );
}
export const MONEY = /^−?\$\d{1,3}(,\d{3})*\.\d{2}$/;

/** The header's cart link; its accessible name carries the item count ("Cart (3 items)"). */
export const headerCart = (page: Page) => page.getByRole("banner").getByRole("link", { name: /^Cart\b/ });
export const headerWishlist = (page: Page) => page.getByRole("banner").getByRole("link", { name: /^Wishlist\b/ });
const countName = (label: string, n: number) => (n === 0 ? label : `${label} (${n} item${n === 1 ? "" : "s"})`);

export async function expectCartCount(page: Page, n: number) {
  await expect(headerCart(page)).toHaveAccessibleName(countName("Cart", n));
}

/** Adds from the product page with a color and a quantity, and waits for the store's answer. */
export async function addFromProductPage(page: Page, id: number, options: { color?: string; quantity?: number } = {}) {
  await page.goto(`/shop/${id}`);
  await waitForHydration(page);
  const main = page.getByRole("main");
  if (options.color) await main.getByRole("radio", { name: options.color, exact: true }).check();
  if (options.quantity != null) await main.getByRole("spinbutton", { name: "Quantity" }).fill(String(options.quantity));
  const answered = page.waitForResponse((r) => r.url().includes("/cart.data") && r.request().method() === "POST");
  await main.getByRole("button", { name: "Add to cart", exact: true }).click();
  expect((await answered).status()).toBe(200);
}

export const cartRows = (page: Page) => page.getByRole("main").getByRole("table").locator("tbody tr");
export const cartRow = (page: Page, title: string) =>
  cartRows(page).filter({ has: page.getByRole("link", { name: title, exact: true }) });

export async function expectCartTotals(page: Page, quantity: number, cents: number) {
  await expect(page.getByTestId("total-quantity")).toHaveText(String(quantity));
  await expect(page.getByTestId("total-price")).toHaveText(usd(cents));
  await expect(page.getByTestId("total-price")).toHaveText(MONEY);
}

export interface Address {
  email?: string;
  country?: "United States" | "United Kingdom";
  name?: string;
  line1?: string;
  city?: string;
  region?: string;
  postcode?: string;
}

export const US_ADDRESS = {
  country: "United States",
  name: "Ada Buyer",
  line1: "350 Fifth Avenue",
  city: "New York",
  region: "NY",
  postcode: "10118",
} as const;
/** A delivery address in Washington (ZIP code 98109), a state no SQLite-store test but sales-tax.spec.ts collects in. */
export const SEATTLE = {
  country: "United States",
  name: "Sam Seller",
  line1: "400 Broad Street",
  city: "Seattle",
  region: "WA",
  postcode: "98109",
} as const;

export const UK_ADDRESS = {
  country: "United Kingdom",
  name: "Bea Buyer",
  line1: "10 Downing Street",
  city: "London",
  region: "Greater London",
  postcode: "SW1A 2AA",
} as const;

/** Fills the checkout form (labels as a shopper reads them). */
export async function fillCheckout(page: Page, address: Address) {
  const main = page.getByRole("main");
  if (address.email != null) await main.getByLabel("Email", { exact: true }).fill(address.email);
  if (address.country) await main.getByLabel("Country").selectOption({ label: address.country });
  if (address.name != null) await main.getByLabel("Full name").fill(address.name);
  if (address.line1 != null) await main.getByLabel("Address line 1").fill(address.line1);
  if (address.city != null) await main.getByLabel("Town or city").fill(address.city);
  if (address.region != null) await main.getByLabel(/^(State|County) \(optional\)$/).fill(address.region);
  if (address.postcode != null) await main.getByLabel(/^(ZIP code|Postcode)$/).fill(address.postcode);
}

export const placeOrderButton = (page: Page) => page.getByRole("button", { name: "Place order" });
export const summary = (page: Page, part: "subtotal" | "discount" | "shipping" | "tax" | "total"): Locator =>
  page.getByTestId(`summary-${part}`);

/** Signs in through the auth HTTP handler (for API request contexts). */
export async function signInViaApi(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password = GOOD_PASSWORD,
) {
  const response = await request.post("/api/auth/sign-in/email", {
    data: { email, password },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Adds a product from its page (`quantity` when given), then orders the cart through /checkout with `address`;
 * returns the number on the confirmation page.
 */
/**
 * Adds the product and places the order through the checkout screens; a UK address is a UK-market
 * order, so the header's market picker chooses the United Kingdom first.
 */
export async function orderThroughCheckout(page: Page, productId: number, address: Address, quantity?: number) {
  if (address.country === "United Kingdom") await chooseMarket(page, "United Kingdom (GBP £)");
  await addFromProductPage(page, productId, { quantity });
  await page.goto("/checkout");
  await waitForHydration(page);
  await fillCheckout(page, address);
  await placeOrderButton(page).click();
  return confirmedOrderNumber(page);
}

/** Reads the order number from the confirmation page. */
export async function confirmedOrderNumber(page: Page): Promise<string> {
  const status = page.getByRole("main").getByRole("status").filter({ hasText: "Thank you! Your order" });
  await expect(status).toBeVisible();
  const number = /TH-[0-9A-F]{10}/.exec((await status.textContent()) ?? "")?.[0];
  if (!number) throw new Error("no order number on the confirmation page");
  return number;
}
