/**
 * Second-factor codes, on every path that checks one (the code after a password sign-in, the code
 * a session without one is asked for, an enrolment's confirming code):
 * - wrong codes are counted per account: CODE_FAILURES.max in CODE_FAILURES.windowSeconds, then no
 *   code is accepted until the window ends, and the owner is mailed once, when the lock begins.
 *   Each attempt reserves its place before the code is checked (parallel guesses can't slip past)
 *   and gives it back when the code was right. In Redis with REDIS_URL (every process), else memory;
 *   Better Auth's own lock (twoFactor.lockedUntil, the sign-in path only) stays beneath it.
 * - a code is claimed once in the database before it is checked (second_factor_codes): the same
 *   TOTP code (one time step) or backup code can't be used twice, even by two requests at once.
 * - a first enrolment, once confirmed, is mailed to the owner (security-mails.ts).
 */
import { createHash } from "node:crypto";
import type { GenericEndpointContext } from "better-auth";
import { APIError, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { enqueueMail } from "../mail/queue.ts";
import { createRateLimiter, type RefundableRateLimiter } from "../security/rate-limit.ts";
import { SECOND_FACTOR_PATHS } from "./second-factor.ts";
import { secondFactorEnabledMail, secondFactorLockedMail } from "./security-mails.ts";

export const CODE_FAILURES = { max: 5, windowSeconds: 15 * 60 } as const;
/** How long a TOTP code stays acceptable: its 30-second step and one step either side. */
const CODE_CLAIM_MS = 3 * 30_000;
export const CODES_LOCKED = "SECOND_FACTOR_LOCKED";
export const CODE_ALREADY_USED = "CODE_ALREADY_USED";

interface Attempt {
  user: { id: string; email: string; name: string; twoFactorEnabled: boolean };
  claim: string;
  lastAllowed: boolean;
}

export interface CodeGuard {
  before(ctx: GenericEndpointContext): Promise<void>;
  after(ctx: GenericEndpointContext): Promise<void>;
}

/** The account a code is being entered for: the session's owner, or the password sign-in waiting on its second step. */
async function accountOf(db: Db, ctx: GenericEndpointContext): Promise<Attempt["user"] | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  let userId = session?.user.id ?? null;
  if (!userId) {
    const cookie = ctx.context.createAuthCookie("two_factor");
    const challenge = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (challenge) userId = (await ctx.context.internalAdapter.findVerificationValue(challenge))?.value ?? null;
  }
  if (!userId) return null;
  const row = await db
    .selectFrom("user")
    .select(["id", "email", "name", "twoFactorEnabled"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return row ? { id: row.id, email: row.email, name: row.name, twoFactorEnabled: Boolean(row.twoFactorEnabled) } : null;
}

function claimOf(userId: string, path: string, code: string): string {
  return createHash("sha256").update(`${userId}\u0000${path}\u0000${code.trim()}`).digest("base64url");
}

/** Claims a code for its account; false when it was already claimed (used, or being checked) within its life. */
async function claimCode(db: Db, userId: string, claim: string, now = Date.now()): Promise<boolean> {
  await db.deleteFrom("second_factor_codes").where("user_id", "=", userId).where("expires_at", "<", now).execute();
  const inserted = await db
    .insertInto("second_factor_codes")
    .values({ claim, user_id: userId, expires_at: now + CODE_CLAIM_MS })
    .onConflict((oc) => oc.column("claim").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

function succeeded(ctx: GenericEndpointContext): boolean {
  const returned = (ctx.context as { returned?: unknown }).returned;
  return Boolean(returned) && !isAPIError(returned) && !(returned instanceof Response && !returned.ok);
}

export function createCodeGuard(
  db: Db,
  cfg: Pick<AppConfig, "REDIS_URL" | "siteUrl">,
  failures?: RefundableRateLimiter,
): CodeGuard {
  const limiter =
    failures ?? createRateLimiter({ name: "second-factor-failures", ...CODE_FAILURES, redisUrl: cfg.REDIS_URL });
  // The before and after hooks of one call share its headers object (the only thing both see).
  const attempts = new WeakMap<object, Attempt>();
  const keyOf = (ctx: GenericEndpointContext): object | undefined => ctx.request ?? ctx.headers;

  return {
    async before(ctx) {
      if (!ctx.path || !SECOND_FACTOR_PATHS.includes(ctx.path)) return;
      const key = keyOf(ctx);
      const code = (ctx.body as { code?: unknown } | undefined)?.code;
      if (!key || typeof code !== "string") return;
      const user = await accountOf(db, ctx);
      // No account behind the call: the plugin answers it (no session, no challenge cookie).
      if (!user) return;
      const hit = await limiter.hit(user.id);
      if (!hit.allowed) {
        const minutes = Math.max(1, Math.ceil(hit.retryAfterSeconds / 60));
        throw new APIError(
          "TOO_MANY_REQUESTS",
          { code: CODES_LOCKED, message: `Too many wrong codes. Try again in ${minutes} minutes.` },
          { "X-Retry-After": String(hit.retryAfterSeconds) },
        );
      }
      const claim = claimOf(user.id, ctx.path, code);
      if (!(await claimCode(db, user.id, claim))) {
        await limiter.undo(user.id);
        throw new APIError("UNAUTHORIZED", {
          code: CODE_ALREADY_USED,
          message: "That code was already used. Wait for the next code from your app.",
        });
      }
      attempts.set(key, { user, claim, lastAllowed: hit.remaining === 0 });
    },

    async after(ctx) {
      const key = keyOf(ctx);
      const attempt = key && attempts.get(key);
      if (!key || !attempt) return;
      attempts.delete(key);
      const { user } = attempt;
      if (succeeded(ctx)) {
        await limiter.undo(user.id);
        if (!user.twoFactorEnabled && ctx.path === "/two-factor/verify-totp") {
          await enqueueMail(db, secondFactorEnabledMail(user.email, user.name, cfg.siteUrl));
        }
        return;
      }
      // A wrong code frees its claim (only accepted codes are spent) and keeps its count.
      await db.deleteFrom("second_factor_codes").where("claim", "=", attempt.claim).execute();
      if (attempt.lastAllowed)
        await enqueueMail(db, secondFactorLockedMail(user.email, user.name, CODE_FAILURES.windowSeconds / 60));
    },
  };
}
