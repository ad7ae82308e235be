import type { RouteConfigEntry } from "@react-router/dev/routes";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "../../app/routes.ts";
import { matchPage, pagePatterns } from "../../server/http/page-routes.ts";
import { samplePaths } from "../support/page-paths.ts";

/** React Router's own matching over the same table: what matchPage must agree with. */
function routeObjects(entries: readonly RouteConfigEntry[], parent = ""): RouteObject[] {
  return entries.map((entry): RouteObject => {
    const pattern = entry.path ? `${parent}/${entry.path}` : parent || "/";
    if (entry.index) return { index: true, id: pattern };
    return {
      path: entry.path,
      id: pattern,
      children: entry.children ? routeObjects(entry.children, pattern === "/" ? "" : pattern) : undefined,
    };
  });
}
const routes = routeObjects(routeConfig);
function reactRouterPage(pathname: string): string | null {
  const page = matchRoutes(routes, pathname)?.at(-1)?.route;
  return !page || page.path === "*" ? null : page.id!;
}

describe("matchPage", () => {
  const patterns = pagePatterns();

  it("knows every page of app/routes.ts, the back office's included, and not the catch-all", () => {
    expect(patterns).toContain("/");
    expect(patterns).toContain("/shop/:id");
    expect(patterns).toContain("/admin");
    expect(patterns).toContain("/admin/products/:id");
    expect(patterns).toContain("/images/products/:id/:n");
    expect(patterns.some((p) => p.includes("*"))).toBe(false);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it("gives each page's paths that page's pattern, as React Router matches them", () => {
    for (const pattern of patterns) {
      for (const path of samplePaths(pattern)) {
        expect(matchPage(path), path).toBe(reactRouterPage(path));
        expect(reactRouterPage(path), path).not.toBeNull();
      }
    }
    expect(matchPage("/shop/12")).toBe("/shop/:id");
    expect(matchPage("/admin/products/new")).toBe("/admin/products/new");
    expect(matchPage("/admin/products/12")).toBe("/admin/products/:id");
  });

  it("agrees with React Router on paths no page takes, and on odd spellings of pages", () => {
    const odd = [
      "/nope",
      "/a/b/c/d",
      "/favicon.svg",
      "/reset-password/token",
      "/shop/1/2",
      "/Shop",
      "/SHOP/12",
      "/shop/",
      "/admin/",
      "/%73hop",
      "/shop/%2F",
      "/%27%20OR%201=1",
      "/" + "a".repeat(500),
      "/account/orders/TH-1/invoice.pdf",
    ];
    for (const path of odd) expect(matchPage(path), path).toBe(reactRouterPage(path));
    expect(matchPage("/nope")).toBeNull();
  });
});
