import { test as base, expect, type Page } from "@playwright/test";

const consoleErrors = new WeakMap<Page, string[]>();

/** Console errors the page has logged so far (CSP violations, failed hydration, …). */
export function consoleErrorsOf(page: Page): string[] {
  return consoleErrors.get(page) ?? [];
}

/**
 * The suite's `test`:
 * - every page gets a stand-in for the OpenStreetMap embed on /contact, so runs do not depend on
 *   the network, and no request ever leaves for another host;
 * - the page's console errors are kept, so helpers can explain a page that never came alive.
 */
export const test = base.extend<{ hermeticNetwork: void }>({
  hermeticNetwork: [
    async ({ context, baseURL, page }, use) => {
      const origin = new URL(baseURL!).origin;
      await context.route(
        (url) => url.origin !== origin,
        (route) => {
          if (new URL(route.request().url()).hostname === "www.openstreetmap.org") {
            return route.fulfill({
              contentType: "text/html",
              body: '<!doctype html><html lang="en"><head><title>Map</title></head><body><p>Map of the store</p></body></html>',
            });
          }
          return route.abort();
        },
      );
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
