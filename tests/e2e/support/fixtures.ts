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

/**
 * The suite's `test`: a page keeps its console errors, so helpers can explain a page that never
 * came alive (CSP violations, failed hydration, …). Tests that only send requests get no browser.
 *
 * No request leaves this machine: Chromium resolves no host name but 127.0.0.1 and localhost
 * (`--host-resolver-rules` in playwright.config.ts), so the OpenStreetMap embed on /contact, say,
 * shows the browser's own error page. Nothing is routed through the test process: interception
 * would also switch off the browser's cache, and every page would fetch its scripts again.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    consoleErrors.set(page, errors);
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(page);
  },
});

export { expect };
