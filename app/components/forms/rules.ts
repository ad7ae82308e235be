/**
 * The newsletter and contact forms' field names, limits and texts — no schema library here, so
 * the browser bundle stays small. The zod schemas that enforce these rules are in app/lib/forms.ts
 * (used by every server action, and loaded by the browser only when a form is submitted).
 */

export const NEWSLETTER_EMAIL_FIELD = "userEmail";
export const HONEYPOT_FIELD = "website";

export const FORM_LIMITS = {
  email: 254,
  name: 100,
  subject: 150,
  message: 5000,
} as const;

export const CONTACT_FIELDS = ["name", "email", "subject", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * Reads text fields from a submitted form. Files and repeated fields are ignored; values are cut
 * at `maxLength` characters so an oversized post can't make the page echo megabytes back.
 */
export function readFields<K extends string>(
  form: FormData,
  fields: readonly K[],
  maxLength = 20_000,
): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const f of fields) {
    const v = form.get(f);
    out[f] = typeof v === "string" ? v.slice(0, maxLength) : "";
  }
  return out;
}

/** The message a form gets when the request itself is too large to read. */
export const TOO_LARGE_MESSAGE = "That's more text than this form accepts. Please shorten your message.";

/** What the newsletter pages and the Subscribe form say in each case. */
export const NEWSLETTER_MESSAGES = {
  confirmationSent: (email: string) =>
    `Almost there! We've sent a confirmation link to ${email}. Open it to finish subscribing.`,
  alreadySubscribed: (email: string) => `${email} is already subscribed to our newsletter. Thanks for being with us!`,
  confirmed:
    "Your subscription is confirmed. Welcome aboard — look out for trade deals, new arrivals and member offers.",
  alreadyConfirmed: "This link has already been used: your subscription is confirmed.",
  expired:
    "This confirmation link has expired. Enter your email in the newsletter form again and we'll send you a new one.",
  invalid:
    "This confirmation link has expired or has already been used. Enter your email in the newsletter form to get a new one.",
  unsubscribed: "You've been unsubscribed. You won't get any more newsletter emails from us.",
  alreadyUnsubscribed: "This address is already unsubscribed. You won't get any more newsletter emails from us.",
  unsubscribeInvalid: "This unsubscribe link isn't valid. Please use the link from the newest newsletter email.",
  rateLimited: (seconds: number) =>
    `Too many attempts. Please try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? "s" : ""}.`,
} as const;

export const CONTACT_MESSAGES = {
  sent: "Thanks for your message! We've received it and will reply by email as soon as we can. A confirmation is on its way to your inbox.",
  invalid: "Please correct the highlighted fields.",
  rateLimited: (seconds: number) =>
    `You've sent several messages in a short time. Please try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? "s" : ""}.`,
} as const;
