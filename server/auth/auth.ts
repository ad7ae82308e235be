import { betterAuth, type BetterAuthOptions } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth, magicLink } from "better-auth/plugins";
import { AUTH_MESSAGES, checkRegistration } from "../../app/lib/auth-rules.ts";
import { config, type AppConfig } from "../config.ts";
import { dbKind, getDb, type Db } from "../db/connection.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";
import { CLIENT_IP_HEADER, createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { trustedOrigins } from "./origins.ts";
import { checkNewPassword } from "./password-policy.ts";
import { redisRateLimitStorage } from "./rate-limit-storage.ts";
import { mergeCarts } from "../cart/cart.ts";
import { ownerForGuest, ownerForUser, readGuestId } from "../shopper/identity.ts";
import { mergeWishlists } from "../wishlist/wishlist.ts";

export { CLIENT_IP_HEADER } from "../security/rate-limit.ts";
export const EMAIL_LINK_TTL_SECONDS = 15 * 60;
const RATE_LIMITED_PATHS = ["/sign-in/email", "/sign-up/email", "/sign-in/magic-link", "/request-password-reset", "/reset-password", "/change-password", "/sign-in/social"];

export function googleConfigured(cfg: AppConfig): boolean {
  return Boolean(cfg.GOOGLE_CLIENT_ID && cfg.GOOGLE_CLIENT_SECRET);
}

function mailLink(heading: string, lines: string[], label: string, url: string) {
  return renderMail({ heading, paragraphs: lines, action: { label, url }, footer: "If you didn't ask for this, you can ignore this email." });
}

export function buildAuthOptions(db: Db, cfg: AppConfig, accountLimiter: RateLimiter) {
  const ipLimit = { window: 60, max: cfg.AUTH_IP_LIMIT };
  const options = {
    appName: "ToolHub Wholesale",
    baseURL: cfg.siteUrl,
    basePath: "/api/auth",
    secret: cfg.AUTH_SECRET ?? "dev-only-secret-change-me-in-production-0123456789",
    database: { db, type: dbKind(db), transaction: true },
    trustedOrigins: trustedOrigins(cfg),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      async sendResetPassword({ user, url }) {
        const mail = mailLink("Reset your password", [`Hello ${user.name || user.email},`, "Someone asked to reset the password of your ToolHub Wholesale account. The link works once, for one hour."], "Choose a new password", url);
        await enqueueMail(db, { to: user.email, subject: "Reset your ToolHub Wholesale password", ...mail });
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, cookieCache: { enabled: false } },
    // Google joins an existing email account only when Google says the email is verified (issue 3).
    account: { accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: false } },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customRules: Object.fromEntries(RATE_LIMITED_PATHS.map((p) => [p, ipLimit])),
      ...(cfg.REDIS_URL ? { customStorage: redisRateLimitStorage(cfg.REDIS_URL) } : { storage: "memory" as const }),
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: cfg.siteUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        if (ctx.path === "/sign-up/email") {
          const check = checkRegistration({ fullName: body.name, email: body.email, password: body.password });
          if (!check.ok) throw new APIError("BAD_REQUEST", { message: check.message });
          const policy = checkNewPassword(String(body.password));
          if (!policy.ok) throw new APIError("BAD_REQUEST", { message: policy.message, code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" });
          // Better Auth answers a duplicate sign-up with a fake success; the store says so plainly instead.
          const existing = await ctx.context.internalAdapter.findUserByEmail(String(body.email).trim().toLowerCase());
          if (existing) throw new APIError("UNPROCESSABLE_ENTITY", { message: AUTH_MESSAGES.emailTaken, code: "USER_ALREADY_EXISTS" });
        }
        if (ctx.path === "/reset-password" || ctx.path === "/change-password") {
          const policy = checkNewPassword(typeof body.newPassword === "string" ? body.newPassword : "");
          if (!policy.ok) throw new APIError("BAD_REQUEST", { message: policy.message, code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" });
        }
        if (ctx.path === "/sign-in/email" && typeof body.email === "string") {
          const result = await accountLimiter.hit(body.email.trim().toLowerCase());
          if (!result.allowed) {
            throw new APIError("TOO_MANY_REQUESTS", { message: AUTH_MESSAGES.tooManyAttempts(result.retryAfterSeconds) }, { "X-Retry-After": String(result.retryAfterSeconds) });
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        // A new session (password, email link, Google): the guest's cart and wishlist join the account's.
        const session = ctx.context.newSession;
        if (!session) return;
        const guestId = await readGuestId(ctx.headers?.get("cookie") ?? null);
        if (!guestId) return;
        await mergeCarts(db, ownerForGuest(guestId), ownerForUser(session.user.id));
        await mergeWishlists(db, ownerForGuest(guestId), ownerForUser(session.user.id));
      }),
    },
    plugins: [
      magicLink({
        expiresIn: EMAIL_LINK_TTL_SECONDS,
        disableSignUp: true,
        async sendMagicLink({ email, url }) {
          const mail = mailLink("Your sign-in link", ["Use this link to sign in to ToolHub Wholesale. It works once and expires in 15 minutes."], "Sign in", url);
          await enqueueMail(db, { to: email, subject: "Your ToolHub Wholesale sign-in link", ...mail });
        },
      }),
      ...(googleConfigured(cfg)
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "google",
                  clientId: cfg.GOOGLE_CLIENT_ID!,
                  clientSecret: cfg.GOOGLE_CLIENT_SECRET!,
                  discoveryUrl: cfg.GOOGLE_DISCOVERY_URL,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                  mapProfileToUser: (profile: Record<string, unknown>) => ({
                    name: typeof profile.name === "string" ? profile.name : "",
                    image: typeof profile.picture === "string" ? profile.picture : undefined,
                  }),
                },
              ],
            }),
          ]
        : []),
    ],
  } satisfies BetterAuthOptions;
  return options;
}

export type Auth = ReturnType<typeof betterAuth<ReturnType<typeof buildAuthOptions>>>;

export function createAuth(db: Db, cfg: AppConfig): Auth {
  const accountLimiter = createRateLimiter({ name: "auth-account", windowSeconds: 300, max: cfg.AUTH_ACCOUNT_LIMIT, redisUrl: cfg.REDIS_URL });
  return betterAuth(buildAuthOptions(db, cfg, accountLimiter));
}

const GLOBAL_KEY = Symbol.for("toolstore.auth");
type GlobalWithAuth = typeof globalThis & { [GLOBAL_KEY]?: Auth };

/** The process-wide Better Auth instance, shared by the Express server and the app build. */
export function getAuth(): Auth {
  const g = globalThis as GlobalWithAuth;
  g[GLOBAL_KEY] ??= createAuth(getDb(), config());
  return g[GLOBAL_KEY];
}
