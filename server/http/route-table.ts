import type { ServerBuild } from "react-router";

/** Product pages (and React Router's data requests for them): in the whole table only the product route matches them. */
export const PRODUCT_PAGE = /^\/shop\/\d{1,12}(?:\.data)?$/;
export const PRODUCT_ROUTE = "routes/product";
/** The shop and its search results (and their data requests): in the whole table only the shop route matches them. */
export const SHOP_PAGE = /^\/shop(?:\.data)?$/;
export const SHOP_ROUTE = "routes/shop";

/** The pages served from a route table of their own (buildWithRoute): the store's busiest. */
export const PAGES_WITH_OWN_TABLE = [
  { path: PRODUCT_PAGE, routeId: PRODUCT_ROUTE },
  { path: SHOP_PAGE, routeId: SHOP_ROUTE },
];

/**
 * The same build with a route table of only the given route and the routes above it, or null
 * when the build has no such route. React Router matches a request against every route that
 * ranks above the one it finds: a product page (`/shop/:id`) was tried against 48 other routes,
 * twice per request, about a fifteenth of its server time (the shop, `/shop`, against 47). A path
 * that in the whole table matches only this route (PAGES_WITH_OWN_TABLE;
 * tests/unit/route-table.test.ts checks it) matches it the same way in this one and renders the
 * same: the error boundary is the root's, and the manifest the browser gets is the whole one.
 */
export function buildWithRoute(build: ServerBuild, routeId: string): ServerBuild | null {
  if (!build.routes[routeId]) return null;
  const routes: ServerBuild["routes"] = {};
  type Route = ServerBuild["routes"][string] | undefined;
  for (let route: Route = build.routes[routeId]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
    routes[route.id] = route;
  }
  return { ...build, routes };
}
