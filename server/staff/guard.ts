/**
 * The one gate of the back office. Every loader and action under /admin calls requireStaff (or
 * requireAdmin) first, on the server, whatever its parent layout did: React Router runs a page's
 * loaders in parallel, so a layout check alone protects nothing.
 *
 *   guest                                 → redirect to /login
 *   signed in, not allowed                → the store's ordinary 404, so the back office isn't revealed
 *   staff session older than 12 hours     → the session ends; redirect to /login
 *   staff without a second factor         → /admin/two-factor (enrol, or enter a code)
 *   a post from another origin            → 403; more than STAFF_ACTION_LIMIT posts a minute → 429
 */
import { data, redirect } from "react-router";
import { config } from "../config.ts";
import { getAuth } from "../auth/auth.ts";
import { isTrustedOrigin, originPolicy } from "../auth/origins.ts";
import { can, roleOf, STAFF_ROLES, type Permissions, type Role } from "../auth/permissions.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { STAFF_SESSION_HOURS, toDate } from "../auth/staff-sessions.ts";

/** State-changing back-office requests one staff member may make per minute. */
const STAFF_ACTION_LIMIT = { windowSeconds: 60, max: 300 } as const;
const TWO_FACTOR_PATH = "/admin/two-factor";

export interface StaffSession {
  userId: string;
  sessionId: string;
  role: Role;
  name: string;
  email: string;
  twoFactorEnabled: boolean;
  /** Whether this session passed a second factor (server/auth/second-factor.ts). */
  secondFactor: boolean;
}

export interface GuardOptions {
  /** Only the enrolment / code page itself: let a staff member in who hasn't passed a second factor yet. */
  withoutSecondFactor?: boolean;
}

/** Exactly what an unknown URL answers (app/routes/not-found.tsx). */
function notFound(): never {
  throw data("Not found", { status: 404 });
}

let limiter: RateLimiter | undefined;
function actionLimiter(): RateLimiter {
  limiter ??= createRateLimiter({ name: "staff-actions", ...STAFF_ACTION_LIMIT, redisUrl: config().REDIS_URL });
  return limiter;
}

type Session = NonNullable<Awaited<ReturnType<ReturnType<typeof getAuth>["api"]["getSession"]>>>;

/**
 * The request's session, looked up once per request: a page's loaders run in parallel with the
 * same Request, so they share one answer (one query, and one verdict when a staff session has
 * just expired and is deleted).
 */
const sessions = new WeakMap<Request, Promise<Session | "expired" | null>>();

function sessionOf(request: Request): Promise<Session | "expired" | null> {
  let found = sessions.get(request);
  if (!found) {
    found = (async () => {
      const auth = getAuth();
      // A staff session is never extended (server/auth/staff-sessions.ts): no refresh to write.
      const session = await auth.api.getSession({ headers: request.headers, query: { disableRefresh: true } });
      if (!session) return null;
      const createdAt = toDate(session.session.createdAt);
      const staff = STAFF_ROLES.includes(roleOf(session.user.role));
      if (staff && (!createdAt || Date.now() - createdAt.getTime() > STAFF_SESSION_HOURS * 3600_000)) {
        await (await auth.$context).internalAdapter.deleteSession(session.session.token);
        return "expired";
      }
      return session;
    })();
    sessions.set(request, found);
  }
  return found;
}

/** The signed-in staff member, if the request may enter the back office with these permissions; otherwise throws a redirect, a 404, a 403 or a 429. */
export async function requireStaff(
  request: Request,
  permissions?: Permissions,
  options: GuardOptions = {},
): Promise<StaffSession> {
  if (!request.headers.get("cookie")?.includes("session_token")) throw redirect("/login");
  const session = await sessionOf(request);
  if (session === "expired") throw redirect("/login?expired=1");
  if (!session) throw redirect("/login");
  const role = roleOf(session.user.role);
  if (!STAFF_ROLES.includes(role) || session.user.banned) notFound();
  if (permissions && !can(role, permissions)) notFound();
  if (request.method !== "GET" && request.method !== "HEAD") {
    if (!isTrustedOrigin(request.headers, originPolicy(config())))
      throw data("This form was sent from another site, so it was refused.", { status: 403 });
    const hit = await actionLimiter().hit(session.user.id);
    if (!hit.allowed)
      throw data(`Too many changes in a short time. Try again in ${hit.retryAfterSeconds} seconds.`, { status: 429 });
  }
  const twoFactorEnabled = Boolean(session.user.twoFactorEnabled);
  const secondFactor =
    twoFactorEnabled && toDate((session.session as { secondFactorAt?: unknown }).secondFactorAt) !== null;
  if (!secondFactor && !options.withoutSecondFactor) throw redirect(TWO_FACTOR_PATH);
  return {
    userId: session.user.id,
    sessionId: session.session.id,
    role,
    name: session.user.name ?? "",
    email: session.user.email,
    twoFactorEnabled,
    secondFactor,
  };
}

/** requireStaff for what only admins may do: managing staff. */
export function requireAdmin(request: Request): Promise<StaffSession> {
  return requireStaff(request, { staff: ["view", "invite", "set-role", "remove"] });
}
