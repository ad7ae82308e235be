/**
 * The Subscribe form's server side, as a plain function of (db, request) so the route stays thin
 * and tests can drive it on SQLite and PostgreSQL.
 */
import { NEWSLETTER_EMAIL_FIELD, NEWSLETTER_MESSAGES, newsletterSchema } from "../../app/lib/forms.ts";
import { config } from "../config.ts";
import { checkPublicForm, type PublicFormAction } from "../http/public-form.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
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

export const newsletterAction: PublicFormAction<NewsletterDeps, NewsletterActionData> = async (db, request, deps) => {
  const checked = await checkPublicForm(request, {
    fields: [NEWSLETTER_EMAIL_FIELD],
    maxLength: 1000,
    schema: newsletterSchema,
    limiter: deps.limiter,
    messages: {
      invalid: (errors) => errors[NEWSLETTER_EMAIL_FIELD] ?? "Enter a valid email address.",
      rateLimited: NEWSLETTER_MESSAGES.rateLimited,
    },
  });
  if (checked.refusal) {
    const { status, outcome, message } = checked.refusal;
    return { status, data: { ok: false, outcome, message, email: checked.values[NEWSLETTER_EMAIL_FIELD] } };
  }
  const clean = checked.data[NEWSLETTER_EMAIL_FIELD];
  const outcome = await subscribe(db, clean, { siteUrl: deps.siteUrl });
  const message =
    outcome === "already-subscribed"
      ? NEWSLETTER_MESSAGES.alreadySubscribed(clean)
      : NEWSLETTER_MESSAGES.confirmationSent(clean);
  return { status: 200, data: { ok: true, outcome, message, email: outcome === "already-subscribed" ? clean : "" } };
};

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
