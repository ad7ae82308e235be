/**
 * One cross-site check for every state-changing request to the storefront (issue 48): each POST,
 * PUT, PATCH or DELETE that reaches React Router — a page's action, posted as a plain form or
 * through its `.data` twin — passes here first, so no route can forget it.
 *
 * Refused with 403 and a sentence a person can read:
 * - `Sec-Fetch-Site: cross-site`, whatever the Origin says (a browser saying another site sent it);
 * - an Origin that is not on the trusted list, or `Origin: null` (isTrustedOrigin);
 * - no Origin and a Sec-Fetch-Site other than same-origin or none (isTrustedOrigin).
 * Allowed: the store's own pages (browsers send Origin on every form post and fetch), and a
 * client that sends neither header (not a browser, so it carries no visitor's cookies).
 *
 * Paths with their own check are left to it (`except`): Better Auth's handler (/api/auth/*, its
 * origin check) and Stripe's webhook (server to server, signed).
 */
import type { RequestHandler } from "express";
import { isTrustedOrigin, type OriginPolicy } from "../auth/origins.ts";

export const CROSS_SITE_REFUSED = "This form was sent from another site, so it was refused.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

interface Headers {
  get(name: string): string | null;
}

/** Whether a state-changing request must be refused as coming from another site. */
export function isCrossSiteRequest(headers: Headers, policy: OriginPolicy | string[]): boolean {
  if (headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") return true;
  return !isTrustedOrigin(headers, policy);
}

/**
 * Express middleware: answers 403 to a cross-site state-changing request (see above). `except`
 * holds paths (exact, or a prefix when they end in "/") that have their own check.
 */
export function refuseCrossSite(policy: OriginPolicy | string[], options: { except?: string[] } = {}): RequestHandler {
  const exact = new Set((options.except ?? []).filter((p) => !p.endsWith("/")));
  const prefixes = (options.except ?? []).filter((p) => p.endsWith("/"));
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (exact.has(req.path) || prefixes.some((p) => req.path.startsWith(p))) return next();
    const headers: Headers = { get: (name) => req.get(name) ?? null };
    if (!isCrossSiteRequest(headers, policy)) return next();
    res.status(403).set("Cache-Control", "no-store").type("text/plain").send(CROSS_SITE_REFUSED);
  };
}
