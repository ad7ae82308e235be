import { test as base, expect, type Page } from "@playwright/test";

const consoleErrors = new WeakMap<Page, string[]>();

/** Console errors the page has logged so far (CSP violations, failed hydration, …). */
export function consoleErrorsOf(page: Page): string[] {
  return consoleErrors.get(page) ?? [];
}

/** The local Stripe stand-in beside the store at `baseURL` (its API and its hosted payment page). */
export function stripeOrigin(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.protocol}//${url.hostname}:${Number(url.port) + 3}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The suite's `test`:
 * - every page gets a stand-in for the OpenStreetMap embed on /contact, so runs do not depend on
 *   the network, and no request ever leaves for another host (except the local Stripe stand-in
 *   that scripts/e2e-server.mjs runs beside the store, on the store's port + 3);
 * - the page's console errors are kept, so helpers can explain a page that never came alive.
 */
export const test = base.extend<{ hermeticNetwork: void }>({
  hermeticNetwork: [
    async ({ context, baseURL, page }, use) => {
      const origin = new URL(baseURL!).origin;
      const stripe = stripeOrigin(baseURL!);
      // A RegExp (not a function) is matched inside Playwright's server, so requests to the store
      // itself are never paused for a round trip to the test process.
      await context.route(new RegExp(`^(?!${escapeRegExp(origin)}/|${escapeRegExp(stripe)}/)`), (route) => {
        if (new URL(route.request().url()).hostname === "www.openstreetmap.org") {
          return route.fulfill({
            contentType: "text/html",
            body: '<!doctype html><html lang="en"><head><title>Map</title></head><body><p>Map of the store</p></body></html>',
          });
        }
        return route.abort();
      });
      const errors: string[] = [];
      consoleErrors.set(page, errors);
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use();
    },
    { auto: true },
  ],
});

export { expect };
