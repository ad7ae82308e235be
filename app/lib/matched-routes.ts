import type { EntryContext } from "react-router";

/**
 * The entry context with its route manifest cut down to the routes this request matched (the
 * root and each route down to the page, or down to the error boundary that renders instead).
 * `<ServerRouter>` rebuilds a route object, twice over, for every route in the manifest on each
 * render, though it renders only the matched ones: with 87 routes that was a visible part of
 * every uncached page's time (docs/benchmarks.md, seventeenth session). The browser is not
 * affected: React Router's client reads the whole manifest from its own script, and an island
 * page has no client router at all.
 */
export function withMatchedRoutes(context: EntryContext): EntryContext {
  const all = context.manifest.routes;
  const routes: typeof all = {};
  for (const match of context.staticHandlerContext.matches) {
    const route = all[match.route.id];
    if (route) routes[match.route.id] = route;
  }
  return { ...context, manifest: { ...context.manifest, routes } };
}
