/**
 * The gate of the trade account pages' posts: a signed-in customer, a form from this store's own
 * origin, and a per-account limit on changes (applications, invitations, approvals).
 */
import { data, redirect } from "react-router";
import { isTrustedOrigin, originPolicy } from "../auth/origins.ts";
import { getSessionInfo, type SessionInfo } from "../auth/session.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { companyOf } from "./company.ts";

/** State-changing trade requests one account may make per minute. */
const TRADE_ACTION_LIMIT = { windowSeconds: 60, max: 60 } as const;

let limiter: RateLimiter | undefined;

/** The signed-in customer for a trade page; a post must come from this store and within the limit. */
export async function requireCustomer(request: Request): Promise<SessionInfo> {
  const session = await getSessionInfo(request);
  if (!session) throw redirect("/login");
  if (request.method !== "GET" && request.method !== "HEAD") {
    if (!isTrustedOrigin(request.headers, originPolicy(config())))
      throw data("This form was sent from another site, so it was refused.", { status: 403 });
    limiter ??= createRateLimiter({ name: "trade-actions", ...TRADE_ACTION_LIMIT, redisUrl: config().REDIS_URL });
    const hit = await limiter.hit(session.userId);
    if (!hit.allowed)
      throw data(`Too many changes in a short time. Try again in ${hit.retryAfterSeconds} seconds.`, { status: 429 });
  }
  return session;
}

/** The signed-in customer with their company and role there; one without a company is sent to apply. */
export async function requireCompanyMember(db: Db, request: Request) {
  const session = await requireCustomer(request);
  const found = await companyOf(db, session.userId);
  if (!found) throw redirect("/account/trade");
  return { session, ...found };
}
