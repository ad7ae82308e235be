/**
 * The 'Leave a message' form's server side, as a plain function of (db, request) so the route
 * stays thin and tests can drive it on SQLite and PostgreSQL.
 */
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  contactSchema,
  HONEYPOT_FIELD,
  type ContactField,
  type FieldErrors,
} from "../../app/lib/forms.ts";
import { config } from "../config.ts";
import { checkPublicForm, type PublicFormAction } from "../http/public-form.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
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

export const contactAction: PublicFormAction<ContactDeps, ContactActionData> = async (db, request, deps) => {
  const checked = await checkPublicForm(request, {
    fields: CONTACT_FIELDS,
    // Values are echoed back into the form, cut well below the request limit.
    maxLength: 10_000,
    schema: contactSchema,
    limiter: deps.limiter,
    messages: { invalid: () => CONTACT_MESSAGES.invalid, rateLimited: CONTACT_MESSAGES.rateLimited },
  });
  if (checked.refusal) {
    const { status, outcome, message } = checked.refusal;
    return { status, data: { ok: false, outcome, message, errors: checked.errors, values: checked.values } };
  }
  const honeypot = checked.form.get(HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    // A bot filled the field people never see: answer like a success, store and send nothing.
    return {
      status: 200,
      data: { ok: true, outcome: "sent", message: CONTACT_MESSAGES.sent, errors: {}, values: EMPTY },
    };
  }
  await submitContactMessage(db, checked.data, { storeInbox: deps.storeInbox, siteUrl: deps.siteUrl, ip: checked.ip });
  return {
    status: 200,
    data: { ok: true, outcome: "sent", message: CONTACT_MESSAGES.sent, errors: {}, values: EMPTY },
  };
};

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
