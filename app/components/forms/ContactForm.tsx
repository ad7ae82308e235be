import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { Field } from "./Field.tsx";
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  FORM_LIMITS,
  HONEYPOT_FIELD,
  readFields,
  type ContactField,
  type FieldErrors,
} from "./rules.ts";

/** The shared zod schema, loaded when the visitor starts on the form rather than with the page. */
const loadRules = () => import("../../lib/forms.ts");

/** The shape the /contact action answers with (server/contact/action.ts). */
export interface ContactFormResult {
  ok: boolean;
  outcome: string;
  message: string;
  errors: FieldErrors<ContactField>;
  values: Record<ContactField, string>;
}

const LABELS: Record<ContactField, string> = { name: "Name", email: "Email", subject: "Subject", message: "Message" };

/**
 * 'Leave a message'. Without JavaScript it is a plain POST to /contact that the server answers
 * with the page, its errors and the typed values; with JavaScript it checks the same zod schema
 * first and then submits through a fetcher, without a page load.
 */
export function ContactForm({ result }: { result?: ContactFormResult }) {
  const fetcher = useFetcher<ContactFormResult>({ key: "contact" });
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors<ContactField> | null>(null);
  const server = fetcher.data ?? result;
  const errors = clientErrors ?? server?.errors ?? {};
  const busy = fetcher.state !== "idle";
  const success = !clientErrors && server?.ok === true;
  const formMessage = clientErrors ? CONTACT_MESSAGES.invalid : server?.message;

  function focusFirstError(found: FieldErrors<ContactField>) {
    const first = CONTACT_FIELDS.find((f) => found[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`#contact-${first}`)?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    try {
      const { contactSchema, validate } = await loadRules();
      const check = validate(contactSchema, readFields(data, CONTACT_FIELDS));
      if (!check.ok) {
        setClientErrors(check.errors);
        focusFirstError(check.errors);
        return;
      }
    } catch {
      // The rules could not be loaded: the server checks everything anyway.
    }
    setClientErrors(null);
    await fetcher.submit(data, { method: "post", action: "/contact" });
  }

  // After the server answers: clear the form on success and move focus to what changed.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      formRef.current?.reset();
      statusRef.current?.focus();
    } else if (Object.keys(fetcher.data.errors).length) {
      focusFirstError(fetcher.data.errors);
    } else {
      statusRef.current?.focus();
    }
  }, [fetcher.state, fetcher.data]);

  const values = server && !server.ok ? server.values : undefined;
  const field = (f: ContactField) => ({
    id: `contact-${f}`,
    name: f,
    label: LABELS[f],
    maxLength: FORM_LIMITS[f],
    error: errors[f],
    defaultValue: values?.[f],
  });
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/contact"
      className="mt-4 space-y-4"
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadRules().catch(() => undefined)}
    >
      <p className="text-sm text-slate-700">All fields are required.</p>
      <div
        id="contact-status"
        ref={statusRef}
        tabIndex={-1}
        aria-live="polite"
        className={
          formMessage
            ? `rounded-md px-4 py-3 text-sm font-medium ${success ? "border border-green-700 bg-green-50 text-green-900" : "border border-red-700 bg-red-50 text-red-800"}`
            : "sr-only"
        }
      >
        {formMessage}
      </div>
      <Field {...field("name")} autoComplete="name" />
      <Field {...field("email")} type="email" autoComplete="email" />
      <Field {...field("subject")} autoComplete="off" />
      <Field {...field("message")} multiline />
      {/* Honeypot: off-screen, out of the tab order and hidden from assistive tech; people never fill it. */}
      <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
        <label htmlFor="contact-website">Leave this field empty</label>
        <input
          id="contact-website"
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>
        Send
      </button>
    </fetcher.Form>
  );
}
