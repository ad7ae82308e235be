import { describe, expect, it } from "vitest";
import { pagePatterns } from "../../server/http/page-routes.ts";
import { routeLabel } from "../../server/http/route-label.ts";
import { samplePaths } from "../support/page-paths.ts";

describe("routeLabel", () => {
  it.each([
    ["/", "/"],
    ["/shop", "/shop"],
    ["/shop/123", "/shop/:id"],
    ["/shop/123.data", "/shop/:id"],
    ["/account/orders/TH-0123456789", "/account/orders/:number"],
    ["/orders/aB3_xY-secret-token-0123456789abcd", "/orders/:token"],
    ["/api/auth/sign-in/email", "/api/auth/sign-in/email"],
    ["/api/payments/stripe/webhook", "/api/payments/stripe/webhook"],
    ["/api/auth/reset-password/abcdef0123456789", "/api/auth/reset-password/:token"],
    ["/assets/root-AbC123.js", "/assets/*"],
    ["/favicon.svg", "/static"],
    ["/images/products/5/1.svg", "/images/products/:id/:n"],
    ["/%27%20OR%201=1", "/other"],
    ["/" + "a".repeat(500), "/other"],
    ["/admin/products/new", "/admin/products/new"],
    ["/admin/orders/TH-0123456789/packing-slip", "/admin/orders/:number/packing-slip"],
    ["/account/lists/abc", "/account/lists/:id"],
    ["/orders/secret-token/invoice.pdf", "/orders/:token/invoice.pdf"],
    ["/contactUs", "/contactUs"],
    ["/sitemap.xml", "/sitemap.xml"],
    ["/reset-password/secret-token", "/other"],
    ["/wp-admin", "/other"],
  ])("%s → %s", (path, label) => {
    expect(routeLabel(path)).toBe(label);
  });

  it("labels every page of app/routes.ts with its pattern, for the page and its .data request", () => {
    for (const pattern of pagePatterns()) {
      for (const path of samplePaths(pattern)) {
        expect(routeLabel(path), path).toBe(pattern);
        if (path !== "/") expect(routeLabel(`${path}.data`), `${path}.data`).toBe(pattern);
      }
    }
  });
});
