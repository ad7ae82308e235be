/**
 * A low-cardinality label for a request path, for metrics and logs: a page is labelled with its
 * route pattern from app/routes.ts and any other path with "/static" or "/other", so no token or
 * order number reaches a log line and series stay few.
 */
import { matchPage } from "./page-routes.ts";

/** What Express answers before React Router: the build's assets and the auth and payment APIs. */
const NOT_PAGES: [RegExp, string][] = [
  [/^\/assets\//, "/assets/*"],
  [/^\/api\/auth\/(?:callback|oauth2\/callback)\/[^/]+$/, "/api/auth/callback/:provider"],
  [/^\/api\/auth\/reset-password\/[^/]+$/, "/api/auth/reset-password/:token"],
  [/^\/api\/auth\/[a-z0-9/-]+$/, ""],
  [/^\/api\/payments\/stripe\/webhook$/, ""],
];

export function routeLabel(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "").replace(/\.data$/, "") : pathname;
  for (const [pattern, label] of NOT_PAGES) if (pattern.test(path)) return label || path;
  const page = matchPage(path);
  if (page) return page;
  // A file of the client folder, or a path no page takes (the not-found page).
  return /\.[A-Za-z0-9]+$/.test(path) ? "/static" : "/other";
}
