import { betterAuth, type BetterAuthOptions } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { admin, genericOAuth, magicLink, organization, twoFactor } from "better-auth/plugins";
import { companyAc, companyRoles, INVITATION_DAYS } from "./company-roles.ts";
import { companyInvitationMail } from "../trade/mails.ts";
import { ALREADY_IN_COMPANY_MESSAGE, companyOf } from "../trade/company.ts";
import { ACCOUNT_SUSPENDED_MESSAGE } from "../../app/lib/auth-errors.ts";
import { AUTH_MESSAGES, checkRegistration, PASSWORD_MAX, PASSWORD_MIN } from "../../app/lib/auth-rules.ts";
import { config, type AppConfig } from "../config.ts";
import { dbKind, getDb, type Db } from "../db/connection.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";
import { CLIENT_IP_HEADER } from "../security/rate-limit.ts";
import { takeOverUnverifiedAccount } from "./google-takeover.ts";
import { carrySecondFactor, markSecondFactor, SECOND_FACTOR_PATHS, TWO_FACTOR_ISSUER } from "./second-factor.ts";
import { CODE_FAILURES, createCodeGuard, type CodeGuard } from "./code-guard.ts";
import { httpSurface } from "./http-surface.ts";
import { staffLinkRefusedMail } from "./security-mails.ts";
import { isStaffRole, limitStaffCookie, refuseCodelessStaff, staffSessionHooks } from "./staff-sessions.ts";
import { isLoopbackDefault, loopbackHosts, trustedOrigins } from "./origins.ts";
import { checkNewPassword } from "./password-policy.ts";
import { ac, DEFAULT_ROLE, roles } from "./permissions.ts";
import { createSignInGuard, type SignInGuard } from "./sign-in-guard.ts";
import { resolveAuthSecret } from "./secret.ts";
import { passwordHashing } from "./password-hashing.ts";
import { redisRateLimitStorage } from "./rate-limit-storage.ts";
import { mergeCarts } from "../cart/cart.ts";
import { ownerForGuest, ownerForUser, readGuestId } from "../shopper/guest.ts";
import { mergeWishlists } from "../wishlist/wishlist.ts";

export { CLIENT_IP_HEADER } from "../security/rate-limit.ts";
const EMAIL_LINK_TTL_SECONDS = 15 * 60;
const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
const RATE_LIMITED_PATHS = [
  ...SECOND_FACTOR_PATHS,
  "/two-factor/enable",
  "/sign-in/email",
  "/sign-up/email",
  "/sign-in/magic-link",
  "/request-password-reset",
  "/reset-password",
  "/change-password",
  "/sign-in/social",
];

export function googleConfigured(cfg: AppConfig): boolean {
  return Boolean(cfg.GOOGLE_CLIENT_ID && cfg.GOOGLE_CLIENT_SECRET);
}

function mailLink(heading: string, lines: string[], label: string, url: string) {
  return renderMail({
    heading,
    paragraphs: lines,
    action: { label, url },
    footer: "If you didn't ask for this, you can ignore this email.",
  });
}

/** For building Better Auth's options without serving code checks (schema migrations, the staff CLI). */
const UNCHECKED_CODES: CodeGuard = { before: async () => {}, after: async () => {} };

const BASE_PATH = "/api/auth";

export function buildAuthOptions(
  db: Db,
  cfg: AppConfig,
  signInGuard: SignInGuard,
  codeGuard: CodeGuard = UNCHECKED_CODES,
) {
  const ipLimit = { window: 60, max: cfg.AUTH_IP_LIMIT };
  const options = {
    appName: "ToolHub Wholesale",
    // Default (loopback) mode: links and cookies follow the host the request came to, so a
    // newcomer on 127.0.0.1 gets 127.0.0.1 links; any other host falls back to SITE_URL's default.
    baseURL: isLoopbackDefault(cfg)
      ? { allowedHosts: loopbackHosts(cfg.PORT), protocol: "http" as const, fallback: cfg.siteUrl }
      : cfg.siteUrl,
    basePath: BASE_PATH,
    secret: resolveAuthSecret(cfg),
    database: { db, type: dbKind(db), transaction: true },
    trustedOrigins: trustedOrigins(cfg),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      password: passwordHashing(),
      async sendResetPassword({ user, url }) {
        const mail = mailLink(
          "Reset your password",
          [
            `Hello ${user.name || user.email},`,
            "Someone asked to reset the password of your ToolHub Wholesale account. The link works once, for one hour.",
          ],
          "Choose a new password",
          url,
        );
        await enqueueMail(db, { to: user.email, subject: "Reset your ToolHub Wholesale password", ...mail });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      cookieCache: { enabled: false },
      // When this session passed a second factor (server/auth/second-factor.ts); the back office requires it.
      additionalFields: { secondFactorAt: { type: "date", required: false, input: false } },
    },
    // Google joins an existing email account only when Google says the email is verified. A local
    // account whose email was never verified is taken over cleanly (google-takeover.ts), so a
    // password set by someone who pre-registered the address stops working.
    account: { accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: false } },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: EMAIL_VERIFICATION_TTL_SECONDS,
      async sendVerificationEmail({ user, url }) {
        const link = new URL(url);
        link.searchParams.set("callbackURL", "/login?verified=1");
        const mail = renderMail({
          heading: "Confirm your email address",
          paragraphs: [
            `Hello ${user.name || "there"},`,
            "Thanks for creating a ToolHub Wholesale account. Please confirm that this email address is yours. The link works for 24 hours.",
          ],
          action: { label: "Confirm my email", url: link.toString() },
          footer:
            "If you didn't create an account, ignore this email: the account stays unconfirmed, and signing in with Google or an emailed link removes any password set on it.",
        });
        await enqueueMail(db, { to: user.email, subject: "Confirm your ToolHub Wholesale email address", ...mail });
      },
    },
    databaseHooks: {
      // Staff sessions: made only by a password and a code, 12 hours, never extended (staff-sessions.ts).
      session: staffSessionHooks(db),
      account: {
        create: {
          async after(account) {
            if (account.providerId !== "credential") await takeOverUnverifiedAccount(db, account.userId, cfg.siteUrl);
          },
        },
      },
    },
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
          if (!policy.ok)
            throw new APIError("BAD_REQUEST", { message: policy.message, code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" });
          // Better Auth answers a duplicate sign-up with a fake success; the store says so plainly instead.
          const existing = await ctx.context.internalAdapter.findUserByEmail(String(body.email).trim().toLowerCase());
          if (existing)
            throw new APIError("UNPROCESSABLE_ENTITY", {
              message: AUTH_MESSAGES.emailTaken,
              code: "USER_ALREADY_EXISTS",
            });
        }
        if (ctx.path === "/update-user") {
          // Better Auth hands these to the database as posted: anything but text (without NUL, which
          // PostgreSQL refuses) was a 500.
          const text = (v: unknown) => typeof v === "string" && !v.includes("\u0000");
          const fields = typeof body === "object" && body !== null ? body : {};
          if (
            ("name" in fields && !text(fields.name)) ||
            ("image" in fields && fields.image !== null && !text(fields.image))
          ) {
            throw new APIError("BAD_REQUEST", { message: "Name and image must be text." });
          }
        }
        if (ctx.path === "/reset-password" || ctx.path === "/change-password") {
          const policy = checkNewPassword(typeof body.newPassword === "string" ? body.newPassword : "");
          if (!policy.ok)
            throw new APIError("BAD_REQUEST", { message: policy.message, code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" });
        }
        // Password sign-in: failed-attempt limits per account and IP, and per account (sign-in-guard.ts).
        await signInGuard.before(ctx);
        // A staff session without a code can only enter one; codes counted and claimed once per account.
        await refuseCodelessStaff(ctx);
        await codeGuard.before(ctx);
      }),
      after: createAuthMiddleware(async (ctx) => {
        await signInGuard.after(ctx);
        await codeGuard.after(ctx);
        await markSecondFactor(ctx);
        await carrySecondFactor(ctx);
        await limitStaffCookie(ctx);
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
      // Only the endpoints the store's pages use answer over HTTP (http-surface.ts).
      httpSurface(BASE_PATH),
      // Roles and bans (user.role, banned, banReason, banExpires; session.impersonatedBy), with the
      // store's permission statements (permissions.ts). Impersonation is granted to no role.
      admin({
        ac,
        roles,
        defaultRole: DEFAULT_ROLE,
        adminRoles: ["admin"],
        bannedUserMessage: ACCOUNT_SUSPENDED_MESSAGE,
      }),
      // TOTP with backup codes; staff must enrol before entering /admin (server/staff/guard.ts).
      // The plugin's own lock (password sign-in's second step) matches the store's, which counts every path (code-guard.ts).
      twoFactor({
        issuer: TWO_FACTOR_ISSUER,
        backupCodeOptions: { amount: 10, length: 10 },
        accountLockout: { maxFailedAttempts: CODE_FAILURES.max, durationSeconds: CODE_FAILURES.windowSeconds },
      }),
      // Trade companies: members, roles and invitations. Companies are created only when staff
      // approve a trade application (server/trade/applications.ts), never by customers.
      organization({
        ac: companyAc,
        roles: companyRoles,
        creatorRole: "owner",
        allowUserToCreateOrganization: false,
        disableOrganizationDeletion: true,
        membershipLimit: 200,
        invitationExpiresIn: INVITATION_DAYS * 24 * 60 * 60,
        cancelPendingInvitationsOnReInvite: true,
        organizationHooks: {
          // One company per person: prices, limits and invoices follow the company they order for.
          async beforeAcceptInvitation({ user }) {
            if (await companyOf(db, user.id)) throw new APIError("CONFLICT", { message: ALREADY_IN_COMPANY_MESSAGE });
          },
          // Invitations are mailed in the name staff approved (companyInvitationMail): an organization without a company has none.
          async beforeCreateInvitation({ organization: company }) {
            const approved = await db
              .selectFrom("companies")
              .select("organization_id")
              .where("organization_id", "=", company.id)
              .executeTakeFirst();
            if (!approved)
              throw new APIError("NOT_FOUND", {
                message: "This company has no trade account, so no invitation was sent.",
              });
          },
        },
        async sendInvitationEmail({ id, email, role, organization: company, inviter }) {
          // The company's name as staff approved it, never the organization row an owner could rename.
          await enqueueMail(
            db,
            await companyInvitationMail(db, {
              organizationId: company.id,
              email,
              role,
              inviterName: inviter.user.name,
              link: `${cfg.siteUrl}/account/company/join?invitation=${encodeURIComponent(id)}`,
            }),
          );
        },
      }),
      magicLink({
        expiresIn: EMAIL_LINK_TTL_SECONDS,
        disableSignUp: true,
        async sendMagicLink({ email, url }) {
          // Staff sign in only with a password and a code: their mailbox alone must not open a session.
          const account = await db
            .selectFrom("user")
            .select("role")
            .where("email", "=", email.trim().toLowerCase())
            .executeTakeFirst();
          if (account && isStaffRole(account.role)) {
            await enqueueMail(db, staffLinkRefusedMail(email, cfg.siteUrl));
            return;
          }
          const mail = mailLink(
            "Your sign-in link",
            ["Use this link to sign in to ToolHub Wholesale. It works once and expires in 15 minutes."],
            "Sign in",
            url,
          );
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
  return betterAuth(buildAuthOptions(db, cfg, createSignInGuard(cfg), createCodeGuard(db, cfg)));
}

let processAuth: Auth | undefined;

/** The process's Better Auth instance, on the process's database (getDb). */
export function getAuth(): Auth {
  processAuth ??= createAuth(getDb(), config());
  return processAuth;
}

/**
 * Tests only: makes `getAuth()` answer with `auth` (one on a test database); undefined goes back
 * to the default instance, created on next use.
 */
export function useAuthForTests(auth: Auth | undefined): void {
  processAuth = auth;
}
