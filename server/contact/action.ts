/**
 * The 'Leave a message' form's server side, as a plain function of (db, request) so the route
 * stays thin and tests can drive it on SQLite and PostgreSQL.
 */
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  contactSchema,
  HONEYPOT_FIELD,
  readFields,
  validate,
  type ContactField,
  type FieldErrors,
} from "../../app/lib/forms.ts";
import type { Db } from "../db/connection.ts";
import { config } from "../config.ts";
import { readFormOrTooLarge } from "../http/form-action.ts";
import { clientIp, createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { submitContactMessage } from "./contact.ts";

export interface ContactActionData {
  ok: boolean;
  outcome: "sent" | "invalid" | "rate-limited" | "too-large";
  /** Message for the whole form. */
  message: string;
  errors: FieldErrors<ContactField>;
  /** What to put back into the fields (empty after a success). */
  values: Record<ContactField, string>;
}

export interface ContactDeps {
  storeInbox: string;
  siteUrl: string;
  /** Per client IP; counts every well-formed submission, including ones the honeypot catches. */
  limiter: RateLimiter;
}

const EMPTY: Record<ContactField, string> = { name: "", email: "", subject: "", message: "" };

export async function contactAction(
  db: Db,
  request: Request,
  deps: ContactDeps,
): Promise<{ status: number; data: ContactActionData }> {
  const form = await readFormOrTooLarge(request);
  if ("tooLarge" in form) {
    return {
      status: 413,
      data: { ok: false, outcome: "too-large", message: form.tooLarge, errors: {}, values: EMPTY },
    };
  }
  // Values are echoed back into the form, cut well below the request limit.
  const values = readFields(form, CONTACT_FIELDS, 10_000);
  const result = validate(contactSchema, values);
  if (!result.ok) {
    return {
      status: 400,
      data: { ok: false, outcome: "invalid", message: CONTACT_MESSAGES.invalid, errors: result.errors, values },
    };
  }
  const ip = clientIp(request);
  const limit = await deps.limiter.hit(ip);
  if (!limit.allowed) {
    return {
      status: 429,
      data: {
        ok: false,
        outcome: "rate-limited",
        message: CONTACT_MESSAGES.rateLimited(limit.retryAfterSeconds),
        errors: {},
        values,
      },
    };
  }
  const honeypot = form.get(HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    // A bot filled the field people never see: answer like a success, store and send nothing.
    return {
      status: 200,
      data: { ok: true, outcome: "sent", message: CONTACT_MESSAGES.sent, errors: {}, values: EMPTY },
    };
  }
  await submitContactMessage(db, result.data, { storeInbox: deps.storeInbox, siteUrl: deps.siteUrl, ip });
  return {
    status: 200,
    data: { ok: true, outcome: "sent", message: CONTACT_MESSAGES.sent, errors: {}, values: EMPTY },
  };
}

/** Contact submissions allowed per client IP per window. */
const CONTACT_RATE_LIMIT = { windowSeconds: 15 * 60, max: 5 } as const;

let defaults: ContactDeps | undefined;

/** The dependencies the /contact route uses, built once from the configuration. */
export function defaultContactDeps(): ContactDeps {
  const { STORE_INBOX, siteUrl, REDIS_URL } = config();
  defaults ??= {
    storeInbox: STORE_INBOX,
    siteUrl,
    limiter: createRateLimiter({ name: "contact", ...CONTACT_RATE_LIMIT, redisUrl: REDIS_URL }),
  };
  return defaults;
}
