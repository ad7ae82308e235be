import fc from "fast-check";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import appRoutes from "../../app/routes.ts";
import { buildWithRoute, PAGES_WITH_OWN_TABLE, PRODUCT_PAGE, PRODUCT_ROUTE, SHOP_PAGE, SHOP_ROUTE } from "../../server/http/route-table.ts";

type ConfigEntry = { id?: string; file: string; path?: string; index?: boolean; children?: ConfigEntry[] };
type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean };

/** The store's route table as a build holds it: ids from the files, as React Router's build names them. */
function manifestOf(entries: ConfigEntry[]): Record<string, ManifestRoute> {
  const manifest: Record<string, ManifestRoute> = { root: { id: "root", path: "" } };
  const add = (list: ConfigEntry[], parentId: string) => {
    for (const entry of list) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      manifest[id] = { id, parentId, path: entry.path, index: entry.index };
      add(entry.children ?? [], id);
    }
  };
  add(entries, "root");
  return manifest;
}

function tree(manifest: Record<string, ManifestRoute>, parentId?: string): RouteObject[] {
  return Object.values(manifest)
    .filter((r) => r.parentId === parentId)
    .map((r) => (r.index ? { id: r.id, index: true } : { id: r.id, path: r.path, children: tree(manifest, r.id) }));
}

const whole = manifestOf(appRoutes as ConfigEntry[]);
const wholeTree = tree(whole);
const matchedIds = (routes: RouteObject[], path: string) => matchRoutes(routes, path)?.map((m) => m.route.id) ?? null;
/** React Router matches a data request by the page's path. */
const pagePath = (path: string) => path.replace(/\.data$/, "");

describe("the product page's own route table", () => {
  const build = buildWithRoute({ routes: whole } as unknown as ServerBuild, PRODUCT_ROUTE)!;
  const ownTree = tree(build.routes as Record<string, ManifestRoute>);

  it("holds the product route and the root above it, nothing else", () => {
    expect(Object.keys(build.routes).sort()).toEqual(["root", PRODUCT_ROUTE]);
  });

  it("matches every product page path as the whole table does: the root, then the product route", () => {
    const productPaths = fc.tuple(fc.stringMatching(/^[0-9]{1,12}$/), fc.boolean()).map(([id, data]) => `/shop/${id}${data ? ".data" : ""}`);
    fc.assert(
      fc.property(productPaths, (path) => {
        expect(PRODUCT_PAGE.test(path)).toBe(true);
        expect(matchedIds(wholeTree, pagePath(path))).toEqual(["root", PRODUCT_ROUTE]);
        expect(matchedIds(ownTree, pagePath(path))).toEqual(["root", PRODUCT_ROUTE]);
      }),
    );
  });

  it("is not used for any other shop path", () => {
    for (const path of ["/shop", "/shop/", "/shop/abc", "/shop/12a", "/shop/1/2", "/shop/1234567890123", "/shop/-1", "/shop/1.json", "/Shop/1"]) {
      expect(PRODUCT_PAGE.test(path), path).toBe(false);
    }
  });

  it("is null for a build without the route", () => {
    expect(buildWithRoute({ routes: { root: { id: "root", path: "" } } } as unknown as ServerBuild, PRODUCT_ROUTE)).toBeNull();
  });
});

describe("the shop's own route table", () => {
  const build = buildWithRoute({ routes: whole } as unknown as ServerBuild, SHOP_ROUTE)!;
  const ownTree = tree(build.routes as Record<string, ManifestRoute>);

  it("holds the shop route and the root above it, nothing else", () => {
    expect(Object.keys(build.routes).sort()).toEqual(["root", SHOP_ROUTE]);
  });

  it("matches the shop and its data requests as the whole table does", () => {
    for (const path of ["/shop", "/shop.data"]) {
      expect(SHOP_PAGE.test(path)).toBe(true);
      expect(matchedIds(wholeTree, pagePath(path))).toEqual(["root", SHOP_ROUTE]);
      expect(matchedIds(ownTree, pagePath(path))).toEqual(["root", SHOP_ROUTE]);
    }
  });

  it("is not used for any other path", () => {
    for (const path of ["/shop/", "/shop/1", "/shop/abc", "/shops", "/shop.json", "/Shop", "/", "/cart"]) {
      expect(SHOP_PAGE.test(path), path).toBe(false);
    }
  });
});

describe("the pages with a route table of their own", () => {
  it("never overlap: each path goes to one table", () => {
    expect(PAGES_WITH_OWN_TABLE.map((p) => p.routeId)).toEqual([PRODUCT_ROUTE, SHOP_ROUTE]);
    for (const path of ["/shop", "/shop.data", "/shop/1", "/shop/1.data"]) {
      expect(PAGES_WITH_OWN_TABLE.filter((p) => p.path.test(path)), path).toHaveLength(1);
    }
    expect(PRODUCT_PAGE.test("/shop")).toBe(false);
  });
});
