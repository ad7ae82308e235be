import type { PublicUser } from "../../app/lib/auth-rules.ts";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/connection.ts";
import { getAuth, type Auth } from "./auth.ts";
import { isStaffRole, sessionUsable } from "./staff-sessions.ts";

export interface SessionInfo {
  userId: string;
  sessionId: string;
  user: PublicUser;
}

/**
 * The session of each request being answered, looked up once: React Router hands the root loader
 * and the page's loaders (which run in parallel) the same Request object, and each asks who is
 * signed in. Keyed by that object only, so two requests never share an answer (not even with the
 * same cookie), and the entry goes when the request does. After an action, React Router runs the
 * loaders with a new Request, so they look the session up again (the action may have changed it).
 */
const lookups = new WeakMap<Request, Promise<SessionInfo | null>>();

/** What the fast read needs from Better Auth's context: its secret, cookie names, session ages and adapter. */
type AuthContext = Awaited<Auth["$context"]>;
const contexts = new WeakMap<Auth, Promise<AuthContext>>();

function contextOf(auth: Auth): Promise<AuthContext> {
  let context = contexts.get(auth);
  if (!context) contexts.set(auth, (context = auth.$context));
  return context;
}

/** The value of the cookie `name` (URL-decoded); null when absent, undefined when sent twice or malformed. */
function cookieValue(header: string, name: string): string | null | undefined {
  let found: string | null = null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    if (found !== null) return undefined;
    try {
      found = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return found;
}

/**
 * A value signed the way Better Auth signs its session cookie (better-call's signed cookies:
 * `<value>.<base64 HMAC-SHA256 of the value with the secret>`), or null when the signature is wrong.
 */
function verifySignedCookieValue(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(value).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

/**
 * The read-only part of Better Auth's getSession: check the cookie's signature, then read the
 * session and its user in one query of Better Auth's tables (the database Better Auth was given).
 * Whenever getSession would write (an expired session to delete, a session due for its daily
 * refresh) or anything is unusual, it answers undefined and the caller asks getSession itself.
 * Saves the endpoint's pipeline and adapter (~0.6 ms of a signed-in page on SQLite;
 * docs/benchmarks.md, "Trade buyers' pages").
 */
async function readSession(auth: Auth, cookie: string, now = Date.now()): Promise<SessionInfo | null | undefined> {
  const context = await contextOf(auth);
  const signed = cookieValue(cookie, context.authCookies.sessionToken.name);
  if (signed === undefined) return undefined;
  if (signed === null) return null;
  const token = verifySignedCookieValue(signed, context.secret);
  if (!token) return null;
  const db = (context.options.database as { db: Db }).db;
  const found = await db
    .selectFrom("session as s")
    .innerJoin("user as u", "u.id", "s.userId")
    .select([
      "s.id as sessionId",
      "s.expiresAt",
      "s.secondFactorAt",
      "u.id as userId",
      "u.name",
      "u.email",
      "u.image",
      "u.role",
    ])
    .where("s.token", "=", token)
    .executeTakeFirst();
  if (!found) return null;
  const expiresAt = new Date(found.expiresAt).getTime();
  const { expiresIn, updateAge } = context.sessionConfig;
  if (!Number.isFinite(expiresAt) || expiresAt < now) return undefined;
  if (!sessionUsable(found.role, found.secondFactorAt)) return null;
  // Due for Better Auth's daily refresh: let getSession write it. A staff session is never extended.
  if (!isStaffRole(found.role) && expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
  return toSessionInfo({
    session: { id: found.sessionId },
    user: { id: found.userId, name: found.name, email: found.email, image: found.image },
  });
}

function toSessionInfo(found: {
  session: { id: string };
  user: { id: string; name?: string | null; email: string; image?: string | null };
}): SessionInfo {
  return {
    userId: found.user.id,
    sessionId: found.session.id,
    user: { fullName: found.user.name ?? "", email: found.user.email, profilePhoto: found.user.image ?? null },
  };
}

async function lookUp(request: Request): Promise<SessionInfo | null> {
  const auth = getAuth();
  const read = await readSession(auth, request.headers.get("cookie") ?? "");
  if (read !== undefined) return read;
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session || !sessionUsable(session.user.role, (session.session as { secondFactorAt?: unknown }).secondFactorAt))
    return null;
  return toSessionInfo(session);
}

/**
 * The signed-in shopper for this request, or null. A read, so calling the API directly is fine.
 * A staff session that hasn't passed a second factor is no one here: it may only enter a code.
 */
export function getSessionInfo(request: Request): Promise<SessionInfo | null> {
  if (!request.headers.get("cookie")?.includes("session_token")) return Promise.resolve(null);
  let found = lookups.get(request);
  if (!found) {
    found = lookUp(request);
    lookups.set(request, found);
    // A failed lookup is not kept: a later caller for the same request tries again, as before.
    const failed = found;
    failed.catch(() => {
      if (lookups.get(request) === failed) lookups.delete(request);
    });
  }
  return found;
}
