/**
 * What a public form (contact, newsletter) checks before its own step, in this order: the body
 * within its size, the fields read and validated, then one hit on the client IP's rate limit.
 * Refused, it says so with the status, the outcome and the whole form's message.
 */
import type { z } from "zod";
import { readFields, validate, type FieldErrors } from "../../app/lib/forms.ts";
import type { Db } from "../db/connection.ts";
import { clientIp, type RateLimiter } from "../security/rate-limit.ts";
import { readFormOrTooLarge } from "./form-action.ts";

/** A public form's action: a plain function of (db, request) so the route stays thin and tests can drive it. */
export type PublicFormAction<Deps, Data> = (
  db: Db,
  request: Request,
  deps: Deps,
) => Promise<{ status: number; data: Data }>;

interface PublicForm<K extends string, S extends z.ZodType<Record<string, unknown>>> {
  fields: readonly K[];
  /** Each field is cut to this length: values are echoed back into the form. */
  maxLength: number;
  schema: S;
  limiter: RateLimiter;
  messages: { invalid: (errors: FieldErrors<K>) => string; rateLimited: (retryAfterSeconds: number) => string };
}

interface PublicFormRefusal {
  status: 413 | 400 | 429;
  outcome: "too-large" | "invalid" | "rate-limited";
  message: string;
}

type PublicFormCheck<K extends string, T> =
  /** `values` are empty when the body was too large to read. */
  | { refusal: PublicFormRefusal; values: Record<K, string>; errors: FieldErrors<K> }
  | { refusal: null; form: FormData; values: Record<K, string>; data: T; ip: string };

export async function checkPublicForm<K extends string, S extends z.ZodType<Record<string, unknown>>>(
  request: Request,
  spec: PublicForm<K, S>,
): Promise<PublicFormCheck<K, z.infer<S>>> {
  const form = await readFormOrTooLarge(request);
  if ("tooLarge" in form) {
    const empty = Object.fromEntries(spec.fields.map((field) => [field, ""])) as Record<K, string>;
    return { refusal: { status: 413, outcome: "too-large", message: form.tooLarge }, values: empty, errors: {} };
  }
  const values = readFields(form, spec.fields, spec.maxLength);
  const result = validate(spec.schema, values);
  if (!result.ok) {
    const errors: FieldErrors<K> = result.errors as FieldErrors<string>;
    return { refusal: { status: 400, outcome: "invalid", message: spec.messages.invalid(errors) }, values, errors };
  }
  const ip = clientIp(request);
  const limit = await spec.limiter.hit(ip);
  if (!limit.allowed) {
    const message = spec.messages.rateLimited(limit.retryAfterSeconds);
    return { refusal: { status: 429, outcome: "rate-limited", message }, values, errors: {} };
  }
  return { refusal: null, form, values, data: result.data, ip };
}
