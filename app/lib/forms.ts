/**
 * The newsletter and contact forms' rules: one zod schema per form, used by the browser (before
 * submitting) and by the server actions (always, whatever the browser did).
 */
import { z } from "zod";

export const NEWSLETTER_EMAIL_FIELD = "userEmail";
export const HONEYPOT_FIELD = "website";

export const FORM_LIMITS = {
  email: 254,
  name: 100,
  subject: 150,
  message: 5000,
} as const;

const LINE_BREAK = /[\r\n\u2028\u2029]/;
// Other control characters (NUL, escape …) are never part of a name or a subject line.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function email(required: string, invalid: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(FORM_LIMITS.email, { error: `Email must be ${FORM_LIMITS.email} characters or fewer.` })
    .pipe(z.email({ error: invalid }));
}

function singleLine(label: string, missing: string, max: number) {
  return z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .max(max, { error: `${label} must be ${max} characters or fewer.` })
    .refine((v) => !LINE_BREAK.test(v), { error: `${label} must be on one line, without line breaks.` })
    .refine((v) => !CONTROL.test(v), { error: `${label} contains characters that aren't allowed.` });
}

export const newsletterSchema = z.object({
  [NEWSLETTER_EMAIL_FIELD]: email("Enter your email address.", "Enter a valid email address, like name@example.com."),
});
export type NewsletterInput = z.infer<typeof newsletterSchema>;

export const contactSchema = z.object({
  name: singleLine("Name", "Enter your name.", FORM_LIMITS.name),
  email: email("Enter your email address.", "Enter a valid email address, like name@example.com."),
  subject: singleLine("Subject", "Enter a subject.", FORM_LIMITS.subject),
  message: z
    .string({ error: "Enter your message." })
    .trim()
    .min(1, { error: "Enter your message." })
    .max(FORM_LIMITS.message, { error: `Message must be ${FORM_LIMITS.message.toLocaleString("en-US")} characters or fewer.` })
    .refine((v) => !/\u0000/.test(v), { error: "Message contains characters that aren't allowed." }),
});
export type ContactInput = z.infer<typeof contactSchema>;
export const CONTACT_FIELDS = ["name", "email", "subject", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Parsed values or the first message per field. */
export type Validation<T extends Record<string, unknown>> =
  | { ok: true; data: T }
  | { ok: false; errors: FieldErrors<Extract<keyof T, string>> };

export function validate<S extends z.ZodType<Record<string, unknown>>>(schema: S, input: unknown): Validation<z.infer<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return { ok: false, errors: errors as FieldErrors<Extract<keyof z.infer<S>, string>> };
}

/**
 * Reads text fields from a submitted form. Files and repeated fields are ignored; values are cut
 * at `maxLength` characters so an oversized post can't make the page echo megabytes back.
 */
export function readFields<K extends string>(form: FormData, fields: readonly K[], maxLength = 20_000): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const f of fields) {
    const v = form.get(f);
    out[f] = typeof v === "string" ? v.slice(0, maxLength) : "";
  }
  return out;
}

/** The message every field gets when the request itself is too large to read. */
export const TOO_LARGE_MESSAGE = "That's more text than this form accepts. Please shorten your message.";

export class FormTooLargeError extends Error {
  constructor() {
    super(TOO_LARGE_MESSAGE);
    this.name = "FormTooLargeError";
  }
}

/**
 * Reads a form post, refusing bodies over `maxBytes` (by Content-Length, and by counting when the
 * length is not declared) before anything is buffered beyond the limit.
 */
export async function readFormData(request: Request, maxBytes = 128 * 1024): Promise<FormData> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw new FormTooLargeError();
  if (!request.body) return new FormData();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new FormTooLargeError();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    body.set(c, offset);
    offset += c.byteLength;
  }
  const contentType = request.headers.get("content-type") ?? "application/x-www-form-urlencoded";
  try {
    return await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    return new FormData();
  }
}

/** What the newsletter pages and the Subscribe form say in each case. */
export const NEWSLETTER_MESSAGES = {
  confirmationSent: (email: string) => `Almost there! We've sent a confirmation link to ${email}. Open it to finish subscribing.`,
  alreadySubscribed: (email: string) => `${email} is already subscribed to our newsletter. Thanks for being with us!`,
  confirmed: "Your subscription is confirmed. Welcome aboard — look out for trade deals, new arrivals and member offers.",
  alreadyConfirmed: "This link has already been used: your subscription is confirmed.",
  expired: "This confirmation link has expired. Enter your email in the newsletter form again and we'll send you a new one.",
  invalid: "This confirmation link has expired or has already been used. Enter your email in the newsletter form to get a new one.",
  unsubscribed: "You've been unsubscribed. You won't get any more newsletter emails from us.",
  alreadyUnsubscribed: "This address is already unsubscribed. You won't get any more newsletter emails from us.",
  unsubscribeInvalid: "This unsubscribe link isn't valid. Please use the link from the newest newsletter email.",
  rateLimited: (seconds: number) => `Too many attempts. Please try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? "s" : ""}.`,
} as const;

export const CONTACT_MESSAGES = {
  sent: "Thanks for your message! We've received it and will reply by email as soon as we can. A confirmation is on its way to your inbox.",
  invalid: "Please correct the highlighted fields.",
  rateLimited: (seconds: number) => `You've sent several messages in a short time. Please try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? "s" : ""}.`,
} as const;
