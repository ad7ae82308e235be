import { describe, expect, it } from "vitest";
import { routeLabel } from "../../server/http/route-label.ts";

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
  ])("%s → %s", (path, label) => {
    expect(routeLabel(path)).toBe(label);
  });
});
