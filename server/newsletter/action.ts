/**
 * The Subscribe form's server side, as a plain function of (db, request) so the route stays thin
 * and tests can drive it on SQLite and PostgreSQL.
 */
import {
  NEWSLETTER_EMAIL_FIELD,
  NEWSLETTER_MESSAGES,
  newsletterSchema,
  readFields,
  validate,
} from "../../app/lib/forms.ts";
import type { Db } from "../db/connection.ts";
import { config } from "../config.ts";
import { readFormOrTooLarge } from "../http/form-action.ts";
import { clientIp, createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { subscribe } from "./newsletter.ts";

export interface NewsletterActionData {
  ok: boolean;
  /** What happened, for the page and for tests. */
  outcome: "confirmation-sent" | "already-subscribed" | "invalid" | "rate-limited" | "too-large";
  /** Message for the whole form (shown next to the field). */
  message: string;
  /** The value to put back into the field. */
  email: string;
}

export interface NewsletterDeps {
  siteUrl: string;
  /** Per client IP. */
  limiter: RateLimiter;
}

export async function newsletterAction(
  db: Db,
  request: Request,
  deps: NewsletterDeps,
): Promise<{ status: number; data: NewsletterActionData }> {
  const form = await readFormOrTooLarge(request);
  if ("tooLarge" in form)
    return { status: 413, data: { ok: false, outcome: "too-large", message: form.tooLarge, email: "" } };
  const values = readFields(form, [NEWSLETTER_EMAIL_FIELD], 1000);
  const email = values[NEWSLETTER_EMAIL_FIELD];
  const result = validate(newsletterSchema, values);
  if (!result.ok) {
    return {
      status: 400,
      data: {
        ok: false,
        outcome: "invalid",
        message: result.errors[NEWSLETTER_EMAIL_FIELD] ?? "Enter a valid email address.",
        email,
      },
    };
  }
  const limit = await deps.limiter.hit(clientIp(request));
  if (!limit.allowed) {
    return {
      status: 429,
      data: {
        ok: false,
        outcome: "rate-limited",
        message: NEWSLETTER_MESSAGES.rateLimited(limit.retryAfterSeconds),
        email,
      },
    };
  }
  const clean = result.data[NEWSLETTER_EMAIL_FIELD];
  const outcome = await subscribe(db, clean, { siteUrl: deps.siteUrl });
  const message =
    outcome === "already-subscribed"
      ? NEWSLETTER_MESSAGES.alreadySubscribed(clean)
      : NEWSLETTER_MESSAGES.confirmationSent(clean);
  return { status: 200, data: { ok: true, outcome, message, email: outcome === "already-subscribed" ? clean : "" } };
}

/** Subscribe requests allowed per client IP per window. */
const NEWSLETTER_RATE_LIMIT = { windowSeconds: 15 * 60, max: 10 } as const;

let defaults: NewsletterDeps | undefined;

/** The dependencies the /newsletter route uses, built once from the configuration. */
export function defaultNewsletterDeps(): NewsletterDeps {
  const cfg = config();
  defaults ??= {
    siteUrl: cfg.siteUrl,
    limiter: createRateLimiter({ name: "newsletter", ...NEWSLETTER_RATE_LIMIT, redisUrl: cfg.REDIS_URL }),
  };
  return defaults;
}
