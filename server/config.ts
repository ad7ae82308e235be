import { z } from "zod";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Public origin of the store, used for canonical URLs, sitemap and mail links. */
  SITE_URL: z.string().url().optional(),
  /** postgres://… selects PostgreSQL; anything else (or unset) uses SQLite at SQLITE_PATH. */
  DATABASE_URL: z.string().optional(),
  SQLITE_PATH: z.string().default("./data/store.db"),
  /**
   * PostgreSQL: run parameterized statements as named prepared statements (server/db/pg-prepared.ts).
   * "off" for a connection pooler in transaction mode that does not carry them.
   */
  PG_PREPARED_STATEMENTS: z.enum(["on", "off"]).default("on"),
  /** Number of products the start-up seed creates when the catalog is empty. */
  SEED_PRODUCTS: z.coerce.number().int().min(1).max(2_000_000).default(600),
  /** Worker processes serving HTTP; 0 means one per CPU core. */
  WEB_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(1),
  /** Memory for the anonymous page cache, in MiB per worker process; 0 turns it off. */
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  /**
   * Which proxies may tell the app the client's address (X-Forwarded-For / X-Request-Id): unset or
   * "false" trusts none (the socket address counts); "loopback", an IP, or a comma-separated list of
   * IPs/CIDRs trusts those hops (Express's `trust proxy`).
   */
  TRUST_PROXY: z.string().trim().default("false"),
  /**
   * A request header in which a trusted proxy or CDN names the visitor's country (e.g.
   * CF-IPCountry): a first visit is then offered that country's market. Unset, only the browser's
   * Accept-Language proposes one.
   */
  COUNTRY_HEADER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]*$/)
    .optional(),
  /** Seconds a SIGTERM waits for requests in flight before closing what is left. */
  SHUTDOWN_TIMEOUT_S: z.coerce.number().min(0).max(600).default(10),
  /** Addresses (IPs or CIDRs, comma-separated) that may read /metrics; "loopback" = 127.0.0.0/8 and ::1. */
  METRICS_ALLOW: z.string().trim().default("loopback"),
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  /** Secret for signing session and cart cookies. Required in production behind a real domain. */
  AUTH_SECRET: z.string().min(32).optional(),
  /** Comma-separated origins allowed to call auth endpoints (the authorized domains). Defaults to SITE_URL's origin. */
  AUTH_TRUSTED_ORIGINS: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** OpenID discovery document; tests point it at a local provider. */
  GOOGLE_DISCOVERY_URL: z.string().url().default("https://accounts.google.com/.well-known/openid-configuration"),
  /** Sign-in, sign-up and link requests allowed per IP per minute. */
  AUTH_IP_LIMIT: z.coerce.number().int().min(1).default(10),
  /**
   * Failed password sign-ins per account from one IP per 5 minutes, before that IP is refused for
   * that account; 10× this from all IPs per 15 minutes pauses password sign-in for the account
   * (emailed links still work). See server/auth/sign-in-guard.ts.
   */
  AUTH_ACCOUNT_LIMIT: z.coerce.number().int().min(1).default(8),
  /** When set, rate limits (and other shared state) live in Redis so several app processes agree. */
  REDIS_URL: z.string().optional(),
  /** Checkouts (order attempts) allowed per client IP per hour. */
  CHECKOUT_IP_LIMIT: z.coerce.number().int().min(1).default(20),
  /** Checkouts allowed per email address per hour. */
  CHECKOUT_EMAIL_LIMIT: z.coerce.number().int().min(1).default(5),
  /** Minutes a guest's order holds its stock awaiting the confirmation link from the mail. */
  GUEST_ORDER_HOLD_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60),
  /**
   * Units that guests' orders waiting for confirmation or card payment may hold at once, counted
   * per client network (an IPv4 address, or an IPv6 /64) across payment methods (decision 0039).
   */
  GUEST_HOLD_IP_UNITS: z.coerce.number().int().min(1).max(1_000_000).default(400),
  /** The same, per email address typed at checkout. */
  GUEST_HOLD_EMAIL_UNITS: z.coerce.number().int().min(1).max(1_000_000).default(200),

  /** smtp://user:pass@host:port or smtps://…; unset writes .eml files to OUTBOX_DIR instead. */
  SMTP_URL: z.string().optional(),
  OUTBOX_DIR: z.string().default("./data/outbox"),
  MAIL_FROM: z.string().default("ToolHub Wholesale <no-reply@toolhub.example>"),
  /** Where contact-form messages are delivered. */
  STORE_INBOX: z.string().email().default("support@toolhub.example"),
  /** Days a sent mail keeps its body and full address; then both are erased (the row and its status stay). */
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Days a failed or unknown mail keeps its body, so a person can still decide to send it again. */
  MAIL_FAILED_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),

  /** Where uploaded product photos are kept (their resized renditions, under products/). Several app processes must share it. */
  UPLOAD_DIR: z.string().default("./data/uploads"),

  /** Card payments through Stripe Checkout: both must be set to offer "Card, Apple Pay or Google Pay". */
  STRIPE_SECRET_KEY: z.string().trim().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  /** Only for tests and local stand-ins: where the Stripe SDK sends its requests (default: Stripe's own API). */
  STRIPE_API_URL: z.string().url().optional(),
  /** How long a card order holds its stock while the shopper pays (minutes; fractions allowed for tests). */
  PAYMENT_HOLD_MINUTES: z.coerce
    .number()
    .min(0.05)
    .max(24 * 60)
    .default(30),
  /**
   * HMRC's "Check a UK VAT number" API (https://api.service.hmrc.gov.uk, or a stand-in in tests):
   * the back office shows whether a UK trade applicant's VAT number is registered, and to whom.
   * Unset, VAT numbers are only checked for their format.
   */
  VAT_CHECK_URL: z.string().url().optional(),
  /** How often the payment reconciliation job re-checks orders past their hold against Stripe (seconds). */
  PAYMENT_RECONCILE_SECONDS: z.coerce.number().min(1).max(3600).default(60),
});

export type AppConfig = z.infer<typeof envSchema> & { siteUrl: string; databaseKind: "sqlite" | "postgres" };

let cached: AppConfig | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const values = parsed.data;
  const databaseKind = /^postgres(ql)?:\/\//.test(values.DATABASE_URL ?? "") ? "postgres" : "sqlite";
  const siteUrl = (values.SITE_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, "");
  return { ...values, siteUrl, databaseKind };
}

export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}
