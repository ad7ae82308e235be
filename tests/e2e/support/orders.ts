import { expect, type APIRequestContext } from "@playwright/test";
import { US_ADDRESS } from "../shopping/support.ts";

/**
 * Orders placed over HTTP, for tests whose subject is what happens to an order afterwards (the
 * back office, the customer's order pages, mail), not the checkout screens, which the shopping
 * suite drives through the UI (tests/e2e/shopping/). The requests are the form posts the store's
 * own pages make without JavaScript: "Add to cart" on the product page (POST /cart), then the
 * checkout form (GET /checkout for its one-time checkout token, POST /checkout). Use the
 * `request` of the customer's browser context (page.request), so the order belongs to the
 * session the page is signed in with.
 */

/** An address as the shopping suite writes it (US_ADDRESS, UK_ADDRESS): the country by its label. */
export interface CheckoutAddress {
  country: "United States" | "United Kingdom";
  name: string;
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postcode: string;
}

/** The codes the checkout form's Country <select> posts. */
const COUNTRY_CODES = { "United States": "US", "United Kingdom": "GB" } as const;

/** A form post as a page of the store sends it (same-origin, so with its Origin header). */
async function postForm(request: APIRequestContext, baseURL: string, path: string, form: Record<string, string>) {
  return request.post(path, {
    form,
    headers: { origin: new URL(baseURL).origin, referer: new URL(path, baseURL).href },
    maxRedirects: 0,
  });
}

/** "Add to cart" on the product page, as its form posts it (no intent: the cart's default is "add"). */
export async function addToCartViaHttp(
  request: APIRequestContext,
  baseURL: string,
  productId: number,
  options: { quantity?: number; color?: string } = {},
) {
  const form: Record<string, string> = { productId: String(productId), quantity: String(options.quantity ?? 1) };
  if (options.color) form.color = options.color;
  const response = await postForm(request, baseURL, "/cart", form);
  expect(response.status(), `POST /cart: ${await response.text()}`).toBe(302);
}

/** The hidden checkout token the checkout page renders into its form. */
export async function checkoutTokenViaHttp(request: APIRequestContext): Promise<string> {
  const page = await request.get("/checkout", { maxRedirects: 0 });
  expect(page.status(), "GET /checkout (an empty cart redirects to /cart)").toBe(200);
  const html = await page.text();
  const token =
    /<input[^>]*name="checkoutToken"[^>]*value="([A-Za-z0-9_-]+)"/.exec(html)?.[1] ??
    /<input[^>]*value="([A-Za-z0-9_-]+)"[^>]*name="checkoutToken"/.exec(html)?.[1];
  if (!token) throw new Error("no checkoutToken in the checkout page");
  return token;
}

/**
 * A signed-in customer's order of `quantity` of one product, paid on delivery (to US_ADDRESS unless
 * told otherwise), placed through the store's own form posts. Returns the order number (TH-…)
 * from the order page the store sends the member to.
 */
export async function placeOrderViaHttp(
  request: APIRequestContext,
  baseURL: string,
  productId: number,
  quantity: number,
  options: { color?: string; address?: CheckoutAddress } = {},
): Promise<string> {
  await addToCartViaHttp(request, baseURL, productId, { quantity, color: options.color });
  const checkoutToken = await checkoutTokenViaHttp(request);
  const address: CheckoutAddress = options.address ?? US_ADDRESS;
  const { country, name, line1, line2 = "", city, region = "", postcode } = address;
  const form = {
    checkoutToken,
    country: COUNTRY_CODES[country],
    name,
    line1,
    line2,
    city,
    region,
    postcode,
    paymentMethod: "pay-on-delivery",
  };
  const response = await postForm(request, baseURL, "/checkout", form);
  expect(response.status(), `POST /checkout: ${(await response.text()).slice(0, 500)}`).toBe(302);
  const location = response.headers()["location"] ?? "";
  const number = /^\/account\/orders\/(TH-[0-9A-F]{10})\?placed=1$/.exec(location)?.[1];
  if (!number) throw new Error(`checkout sent a member to ${JSON.stringify(location)}, not to the order's page`);
  return number;
}
