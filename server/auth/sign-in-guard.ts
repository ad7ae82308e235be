/**
 * Password sign-in limits that count failures, not attempts, so that knowing someone's email is
 * not enough to lock them out:
 * - per (account, client IP): AUTH_ACCOUNT_LIMIT failures per 5 minutes, then that IP's password
 *   attempts on that account are refused until the window ends; a success clears the pair;
 * - per account, from every IP: 10 × AUTH_ACCOUNT_LIMIT failures per 15 minutes, then password
 *   sign-in for the account is paused for everyone. Emailed sign-in links are never blocked.
 * Each attempt reserves its place in both counts before the password is checked (so parallel
 * guesses cannot slip past the limit) and gives it back unless the password turned out wrong.
 * The counts live in Redis when REDIS_URL is set (shared by every process), in memory otherwise.
 * Better Auth's per-IP limit (AUTH_IP_LIMIT) still applies on top.
 */
import { createHash } from "node:crypto";
import { APIError, isAPIError } from "better-auth/api";
import { AUTH_MESSAGES } from "../../app/lib/auth-rules.ts";
import type { AppConfig } from "../config.ts";
import { CLIENT_IP_HEADER, clientKey, createRateLimiter, type RefundableRateLimiter } from "../security/rate-limit.ts";

const PAIR_WINDOW_SECONDS = 5 * 60;
const ACCOUNT_WINDOW_SECONDS = 15 * 60;
const ACCOUNT_CEILING_FACTOR = 10;
/** The code of the 429 that pauses password sign-in for an account (the page offers the emailed link). */
const PASSWORD_SIGN_IN_PAUSED = "PASSWORD_SIGN_IN_PAUSED";

const SIGN_IN_PATH = "/sign-in/email";

/** The parts of a Better Auth hook context the guard reads. */
interface SignInHookContext {
  path?: string;
  body?: unknown;
  headers?: Headers;
  context: { returned?: unknown; newSession?: unknown };
}

export interface SignInGuard {
  /** Before /sign-in/email: reserves the attempt, or throws 429 when this IP or the account is locked. */
  before(ctx: SignInHookContext): Promise<void>;
  /** After it: a wrong password keeps the reservation; a success clears the pair; anything else gives it back. */
  after(ctx: SignInHookContext): Promise<void>;
}

/** For building Better Auth's options without serving sign-ins (schema migrations). */
export const UNGUARDED: SignInGuard = { before: async () => {}, after: async () => {} };

type Outcome = "failed" | "succeeded" | "other";

function outcomeOf(ctx: SignInHookContext): Outcome {
  const returned = ctx.context.returned;
  if (isAPIError(returned))
    return (returned.body as { code?: string } | undefined)?.code === "INVALID_EMAIL_OR_PASSWORD" ? "failed" : "other";
  return ctx.context.newSession ? "succeeded" : "other";
}

/** The attempt's keys: no email in them (the counts may sit in a shared Redis), only its hash. */
function keysOf(ctx: SignInHookContext): { account: string; pair: string } | null {
  const email = (ctx.body as { email?: unknown } | undefined)?.email;
  if (ctx.path !== SIGN_IN_PATH || typeof email !== "string") return null;
  const account = createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 32);
  const ip = clientKey(ctx.headers?.get(CLIENT_IP_HEADER));
  return { account, pair: `${account}:${ip}` };
}

export function createSignInGuard(
  cfg: Pick<AppConfig, "AUTH_ACCOUNT_LIMIT" | "REDIS_URL">,
  limiters: { pair?: RefundableRateLimiter; account?: RefundableRateLimiter } = {},
): SignInGuard {
  const pairs =
    limiters.pair ??
    createRateLimiter({
      name: "auth-signin-pair",
      windowSeconds: PAIR_WINDOW_SECONDS,
      max: cfg.AUTH_ACCOUNT_LIMIT,
      redisUrl: cfg.REDIS_URL,
    });
  const accounts =
    limiters.account ??
    createRateLimiter({
      name: "auth-signin-account",
      windowSeconds: ACCOUNT_WINDOW_SECONDS,
      max: ACCOUNT_CEILING_FACTOR * cfg.AUTH_ACCOUNT_LIMIT,
      redisUrl: cfg.REDIS_URL,
    });
  return {
    async before(ctx) {
      const keys = keysOf(ctx);
      if (!keys) return;
      const pair = await pairs.hit(keys.pair);
      if (!pair.allowed) {
        throw new APIError(
          "TOO_MANY_REQUESTS",
          { message: AUTH_MESSAGES.tooManyAttempts(pair.retryAfterSeconds) },
          { "X-Retry-After": String(pair.retryAfterSeconds) },
        );
      }
      const account = await accounts.hit(keys.account);
      if (!account.allowed) {
        await pairs.undo(keys.pair);
        const minutes = Math.max(1, Math.ceil(account.retryAfterSeconds / 60));
        throw new APIError(
          "TOO_MANY_REQUESTS",
          { code: PASSWORD_SIGN_IN_PAUSED, message: AUTH_MESSAGES.passwordSignInPaused(minutes) },
          { "X-Retry-After": String(account.retryAfterSeconds) },
        );
      }
    },
    async after(ctx) {
      const keys = keysOf(ctx);
      if (!keys) return;
      const outcome = outcomeOf(ctx);
      if (outcome === "failed") return;
      await Promise.all([
        outcome === "succeeded" ? pairs.reset(keys.pair) : pairs.undo(keys.pair),
        accounts.undo(keys.account),
      ]);
    },
  };
}
