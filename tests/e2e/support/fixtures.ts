import { test as base, expect } from "@playwright/test";

/**
 * The suite's `test`: every page gets a stand-in for the OpenStreetMap embed on /contact, so runs
 * do not depend on the network, and no request ever leaves for another host.
 */
export const test = base.extend<{ hermeticNetwork: void }>({
  hermeticNetwork: [
    async ({ context, baseURL }, use) => {
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
      await use();
    },
    { auto: true },
  ],
});

export { expect };
