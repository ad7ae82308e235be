/**
 * A low-cardinality label for a request path, for metrics and logs: ids and tokens become
 * parameters, so no token or order number reaches a log line and series stay few.
 */
const PATTERNS: [RegExp, string][] = [
  [/^\/assets\//, "/assets/*"],
  [/^\/images\/products\/[^/]+\/[^/]+$/, "/images/products/:id/:n"],
  [/^\/images\/brands\/[^/]+$/, "/images/brands/:slug"],
  [/^\/api\/auth\/(?:callback|oauth2\/callback)\/[^/]+$/, "/api/auth/callback/:provider"],
  [/^\/api\/auth\/reset-password\/[^/]+$/, "/api/auth/reset-password/:token"],
  [/^\/api\/auth\/[a-z0-9/-]+$/, ""],
  [/^\/api\/payments\/stripe\/webhook$/, ""],
  [/^\/shop\/[^/]+$/, "/shop/:id"],
  [/^\/account\/orders\/[^/]+$/, "/account/orders/:number"],
  [/^\/orders\/[^/]+(?:\/[a-z-]+)?$/, "/orders/:token"],
  [/^\/blogs\/[^/]+$/, "/blogs/:slug"],
  [/^\/reset-password\/[^/]+$/, "/reset-password/:token"],
  [/^\/admin\/[a-z-]+\/[^/]+(\/[a-z-]+)?$/, "/admin/:section/:id"],
];
const PLAIN = /^\/(?:[a-z][a-z0-9-]{0,40}(?:\/[a-z][a-z0-9-]{0,40}){0,2})?$/;

export function routeLabel(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "").replace(/\.data$/, "") : pathname;
  for (const [pattern, label] of PATTERNS) if (pattern.test(path)) return label || path;
  if (/\.[A-Za-z0-9]+$/.test(path)) return "/static";
  return PLAIN.test(path) ? path : "/other";
}
