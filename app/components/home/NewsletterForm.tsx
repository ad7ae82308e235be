import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { FORM_LIMITS, NEWSLETTER_EMAIL_FIELD, readFields } from "../forms/rules.ts";

/** The shared zod schema, loaded when the visitor starts on the form rather than with the page. */
const loadRules = () => import("../../lib/forms.ts");

/** The shape the /newsletter action answers with (server/newsletter/action.ts). */
export interface NewsletterFormResult {
  ok: boolean;
  outcome: string;
  message: string;
  email: string;
}

/**
 * The home page's newsletter signup. Without JavaScript it is a plain POST to /newsletter, which
 * answers with a page holding this form, its message and the typed address; with JavaScript it
 * checks the shared zod schema first and then submits through a fetcher, without a page load.
 */
export function NewsletterForm({ result, headingLevel = 2 }: { result?: NewsletterFormResult; headingLevel?: 1 | 2 }) {
  const fetcher = useFetcher<NewsletterFormResult>({ key: "newsletter" });
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [clientError, setClientError] = useState<string | null>(null);
  const server = fetcher.data ?? result;
  const message = clientError ?? server?.message;
  const isError = clientError != null || server?.ok === false;
  const Heading = headingLevel === 1 ? "h1" : "h2";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    try {
      const { newsletterSchema, validate } = await loadRules();
      const check = validate(newsletterSchema, readFields(data, [NEWSLETTER_EMAIL_FIELD]));
      if (!check.ok) {
        setClientError(check.errors[NEWSLETTER_EMAIL_FIELD] ?? "Enter a valid email address.");
        inputRef.current?.focus();
        return;
      }
    } catch {
      // The rules could not be loaded: the server checks everything anyway.
    }
    setClientError(null);
    await fetcher.submit(data, { method: "post", action: "/newsletter" });
  }

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) formRef.current?.reset();
    else inputRef.current?.focus();
  }, [fetcher.state, fetcher.data]);

  return (
    <section aria-labelledby="newsletter-heading" className="bg-brand-500">
      <div className="mx-auto flex max-w-7xl flex-col items-center gap-4 px-4 py-12 text-center">
        <Heading id="newsletter-heading" className="text-2xl font-bold text-ink">
          Subscribe to our newsletter
        </Heading>
        <p className="text-ink">Trade deals, new arrivals and member offers — straight to your inbox.</p>
        <fetcher.Form
          ref={formRef}
          method="post"
          action="/newsletter"
          noValidate
          onSubmit={onSubmit}
          onFocus={() => void loadRules().catch(() => undefined)}
          className="flex w-full max-w-md flex-col gap-2"
        >
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="newsletter-email" className="sr-only">
              Email address
            </label>
            <input
              ref={inputRef}
              id="newsletter-email"
              type="email"
              name={NEWSLETTER_EMAIL_FIELD}
              autoComplete="email"
              placeholder="Enter your email"
              className={`field flex-1 ${isError ? "border-red-700 ring-2 ring-red-700" : ""}`}
              maxLength={FORM_LIMITS.email}
              defaultValue={server && !server.ok ? server.email : undefined}
              required
              aria-invalid={isError ? true : undefined}
              aria-describedby={message ? "newsletter-message" : undefined}
            />
            <button type="submit" className="btn-primary" disabled={fetcher.state !== "idle"}>
              Subscribe
            </button>
          </div>
          <p
            id="newsletter-message"
            aria-live="polite"
            className={
              message
                ? `rounded-md bg-white px-3 py-2 text-left text-sm font-medium ${isError ? "text-red-700" : "text-ink"}`
                : "sr-only"
            }
          >
            {message}
          </p>
        </fetcher.Form>
      </div>
    </section>
  );
}
