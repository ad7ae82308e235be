/**
 * The newsletter and contact forms' validation: one zod schema per form. Every server action
 * validates with it, whatever the browser did; the browser loads this module (and zod) only when
 * a form is submitted, so pages don't carry zod up front. Names, limits and texts live in
 * app/components/forms/rules.ts (re-exported here).
 */
import { z } from "zod";
import { FORM_LIMITS, NEWSLETTER_EMAIL_FIELD, TOO_LARGE_MESSAGE, type FieldErrors } from "../components/forms/rules.ts";
import { formatCount } from "./numbers.ts";
import { CONTROL_IN_TEXT, NUL } from "./control-characters.ts";

export * from "../components/forms/rules.ts";

const LINE_BREAK = /[\r\n\u2028\u2029]/;

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
    .refine((v) => !CONTROL_IN_TEXT.test(v), { error: `${label} contains characters that aren't allowed.` });
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
    .max(FORM_LIMITS.message, { error: `Message must be ${formatCount(FORM_LIMITS.message)} characters or fewer.` })
    .refine((v) => !NUL.test(v), { error: "Message contains characters that aren't allowed." }),
});
export type ContactInput = z.infer<typeof contactSchema>;

/** Parsed values or the first message per field. */
export type Validation<T extends Record<string, unknown>> =
  { ok: true; data: T } | { ok: false; errors: FieldErrors<Extract<keyof T, string>> };

export function validate<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  input: unknown,
): Validation<z.infer<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return { ok: false, errors: errors };
}

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

/**
 * The token a newsletter link's POST carries: the posted field, else the one in the URL (the
 * one-click unsubscribe sends it there). Null when the body is too large to read.
 */
export async function readPostedToken(request: Request): Promise<string | null> {
  let token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    const posted = (await readFormData(request, 4096)).get("token");
    if (typeof posted === "string" && posted) token = posted;
  } catch {
    return null;
  }
  return token;
}
