/**
 * Which sessions passed a second factor. Better Auth's twoFactor plugin asks for a TOTP or backup
 * code on password sign-in, but a session can also come from an emailed link or Google, which it
 * doesn't challenge. So every successful code check stamps the session it leaves behind with
 * `secondFactorAt`, and the back office's guard admits only stamped sessions.
 */
import { isAPIError } from "better-auth/api";

export const TWO_FACTOR_ISSUER = "ToolHub Wholesale";

/** The endpoints that check a code and, on success, answer with the session's token. */
export const SECOND_FACTOR_PATHS = ["/two-factor/verify-totp", "/two-factor/verify-backup-code"];

interface HookContext {
  path?: string;
  context: {
    returned?: unknown;
    session?: { session: Record<string, unknown> } | null;
    newSession?: { session: { token: string } } | null;
    internalAdapter: { updateSession(token: string, data: Record<string, unknown>): Promise<unknown> };
  };
}

/** After hook: a code was accepted, so the session it signed in (or confirmed) is second-factor verified. */
export async function markSecondFactor(ctx: HookContext): Promise<void> {
  if (!ctx.path || !SECOND_FACTOR_PATHS.includes(ctx.path)) return;
  const returned = ctx.context.returned;
  if (!returned || isAPIError(returned) || returned instanceof Response) return;
  // Confirming an enrolment replaces the session (newSession); the answer still names the old one.
  const token = ctx.context.newSession?.session.token ?? (returned as { token?: unknown }).token;
  if (typeof token === "string" && token)
    await ctx.context.internalAdapter.updateSession(token, { secondFactorAt: new Date() });
}

/** After hook: a password change replaces the session; the new one keeps the second factor the old one passed. */
export async function carrySecondFactor(ctx: HookContext): Promise<void> {
  if (ctx.path !== "/change-password") return;
  const passed = ctx.context.session?.session.secondFactorAt;
  const fresh = ctx.context.newSession?.session.token;
  if (passed && fresh && !isAPIError(ctx.context.returned))
    await ctx.context.internalAdapter.updateSession(fresh, { secondFactorAt: passed });
}
