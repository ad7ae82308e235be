/**
 * Staff and admin sessions (docs/decisions/0038-staff-accounts-closed-auth-surface.md):
 * - they come only from a password sign-in followed by a code (or, before enrolment, the password
 *   alone, which can then do nothing but enrol): an emailed link or Google is refused for a staff
 *   account, so no path from a mailbox alone reaches the back office;
 * - they end 12 hours after they were created, in the database and in the cookie, and are never
 *   extended (Better Auth's daily refresh is clamped);
 * - until the session has passed a code, no auth endpoint but code entry, first enrolment and
 *   sign-out answers it, and the storefront treats it as signed out (server/auth/session.ts).
 */
import type { GenericEndpointContext } from "better-auth";
import { APIError, getSessionFromCtx } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { Db } from "../db/connection.ts";
import { isStaffRoleName, STAFF_PASSWORD_ONLY, STAFF_PASSWORD_ONLY_MESSAGE } from "../../app/lib/auth-rules.ts";

export const STAFF_SESSION_HOURS = 12;
const STAFF_SESSION_MS = STAFF_SESSION_HOURS * 3600_000;

const CODE_FIRST_MESSAGE = "Enter the code from your authenticator app first.";
const ALREADY_ENROLLED_MESSAGE =
  "Two-factor authentication is already set up. To move it to a new device, ask another admin to reset it.";

/** Where a staff member's session may be made: a password sign-in, a code, a password change. */
const STAFF_SESSION_SOURCES = new Set([
  "/sign-in/email",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/change-password",
]);
/** What a staff session that has not passed a code may still call. */
const CODE_STEP_PATHS = new Set([
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/enable",
  "/sign-out",
]);
/** Endpoints that act for the session's owner (the rest sign in, or need no session). */
const SESSION_PATHS = ["/change-password", "/organization/", "/two-factor/"];

export const isStaffRole = isStaffRoleName;

export function toDate(value: unknown): Date | null {
  if (value == null || value === "") return null;
  const d = value instanceof Date ? value : new Date(value as string);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** When a staff session made at `createdAt` ends. */
export function staffSessionEnd(createdAt: Date): Date {
  return new Date(createdAt.getTime() + STAFF_SESSION_MS);
}

/** Whether a session lets its owner use the store as signed in: any customer's; a staff member's only once it passed a code. */
export function sessionUsable(role: unknown, secondFactorAt: unknown): boolean {
  return !isStaffRole(role) || toDate(secondFactorAt) !== null;
}

/**
 * The role of a session's owner. Inside an endpoint, through Better Auth's adapter: a session may be
 * made inside its transaction (a password change), which holds SQLite's one connection.
 */
async function roleOfUser(db: Db, userId: string, ctx: GenericEndpointContext | null): Promise<string | null> {
  if (ctx)
    return ((await ctx.context.internalAdapter.findUserById(userId)) as { role?: string | null } | null)?.role ?? null;
  const row = await db.selectFrom("user").select("role").where("id", "=", userId).executeTakeFirst();
  return row?.role ?? null;
}

type SessionData = { userId: string; expiresAt: Date; createdAt?: Date } & Record<string, unknown>;

/** Better Auth's databaseHooks.session: staff sessions are made only by a password and a code, and live 12 hours. */
export function staffSessionHooks(db: Db) {
  return {
    create: {
      async before(session: SessionData, ctx: GenericEndpointContext | null) {
        if (!isStaffRole(await roleOfUser(db, session.userId, ctx))) return;
        const path = ctx?.path ?? "";
        if (!STAFF_SESSION_SOURCES.has(path)) {
          // The emailed link's GET goes back to the login page, which says why; Google's popup is
          // sent to its error page with the code (the callback turns an APIError into a redirect).
          if (path === "/magic-link/verify" && ctx) throw ctx.redirect(`/login?error=${STAFF_PASSWORD_ONLY}`);
          throw new APIError("FORBIDDEN", { code: STAFF_PASSWORD_ONLY, message: STAFF_PASSWORD_ONLY_MESSAGE });
        }
        const end = staffSessionEnd(toDate(session.createdAt) ?? new Date());
        const expiresAt = toDate(session.expiresAt);
        return { data: { ...session, expiresAt: expiresAt && expiresAt < end ? expiresAt : end } };
      },
    },
    update: {
      // Better Auth's daily refresh moves expiresAt 30 days on; a staff session's end never moves.
      before(data: Record<string, unknown>, ctx: GenericEndpointContext | null) {
        if (!("expiresAt" in data)) return Promise.resolve();
        const current = ctx?.context.session;
        if (!current || !isStaffRole((current.user as { role?: unknown }).role)) return Promise.resolve();
        const end = staffSessionEnd(toDate(current.session.createdAt) ?? new Date());
        const asked = toDate(data.expiresAt);
        return Promise.resolve({ data: { ...data, expiresAt: asked && asked < end ? asked : end } });
      },
    },
  };
}

/** Before hook: a staff session that hasn't passed a code can only enter one (or enrol, or sign out); enrolment happens once. */
export async function refuseCodelessStaff(ctx: GenericEndpointContext): Promise<void> {
  const path = ctx.path ?? "";
  if (!SESSION_PATHS.some((p) => path.startsWith(p))) return;
  const found = await getSessionFromCtx(ctx).catch(() => null);
  if (!found || !isStaffRole((found.user as { role?: unknown }).role)) return;
  if (path === "/two-factor/enable" && (found.user as { twoFactorEnabled?: unknown }).twoFactorEnabled) {
    throw new APIError("FORBIDDEN", { code: "TWO_FACTOR_ALREADY_ENABLED", message: ALREADY_ENROLLED_MESSAGE });
  }
  if (CODE_STEP_PATHS.has(path)) return;
  if (!toDate((found.session as { secondFactorAt?: unknown }).secondFactorAt)) {
    throw new APIError("FORBIDDEN", { code: "SECOND_FACTOR_REQUIRED", message: CODE_FIRST_MESSAGE });
  }
}

/**
 * After hook: a staff session's cookie lives exactly as long as the session (Better Auth gives
 * every cookie its 30-day age), whether the session was just made or refreshed.
 */
export async function limitStaffCookie(ctx: GenericEndpointContext): Promise<void> {
  const fresh = ctx.context.newSession;
  if (!fresh || !isStaffRole((fresh.user as { role?: unknown }).role)) return;
  const end = toDate(fresh.session.expiresAt);
  if (!end) return;
  const maxAge = Math.max(0, Math.floor((end.getTime() - Date.now()) / 1000));
  await setSessionCookie(ctx, fresh, false, { maxAge });
}
