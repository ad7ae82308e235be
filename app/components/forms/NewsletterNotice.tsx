import type { ReactNode } from "react";
import { Link } from "react-router";

/** The card the newsletter confirm and unsubscribe pages show their message in. */
export function NewsletterNotice({
  title,
  message,
  tone,
  children,
}: {
  title: string;
  message?: string;
  tone: "success" | "error" | "info";
  children?: ReactNode;
}) {
  const toneClass =
    tone === "success"
      ? "border-green-700 bg-green-50 text-green-900"
      : tone === "error"
        ? "border-red-700 bg-red-50 text-red-800"
        : "border-slate-300 bg-white text-ink";
  return (
    <section className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold text-ink">{title}</h1>
      {message ? (
        <p role="status" className={`mt-6 rounded-md border px-4 py-3 font-medium ${toneClass}`}>
          {message}
        </p>
      ) : null}
      {children}
      <p className="mt-8">
        <Link to="/" className="font-semibold text-brand-800 underline">
          Back to the home page
        </Link>
      </p>
    </section>
  );
}
