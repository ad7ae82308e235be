/** Small pieces the people pages (customers, messages, newsletter, mail) share. */
import { useEffect, useRef, type ReactNode } from "react";
import { Link } from "react-router";

/** A URL with these query parameters, leaving out empty ones (and page 1). */
export function hrefWith(path: string, params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === "" || (key === "page" && Number(value) === 1)) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** A row of filter links (the current one marked with aria-current), as the list pages put above their table. */
export function FilterLinks<F extends string>({ label, filters, current, labels, hrefFor }: { label: string; filters: readonly F[]; current: F; labels: Record<F, string>; hrefFor: (filter: F) => string }) {
  return (
    <nav aria-label={label} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {filters.map((f) => (
          <li key={f}>
            <Link
              to={hrefFor(f)}
              aria-current={f === current ? "page" : undefined}
              className={`block rounded border px-3 py-1.5 text-sm font-medium ${f === current ? "border-ink bg-ink text-white" : "border-slate-300 text-ink hover:bg-slate-100"}`}
            >
              {labels[f]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function pageParam(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** A "Previous" and a "Next" link (either left out when there is no such page), with anything between them. */
export function PrevNextNav({
  label,
  prevHref,
  nextHref,
  prevText = "Previous page",
  nextText = "Next page",
  className = "mt-4 flex items-center gap-3",
  linkClassName = "rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100",
  children,
}: {
  label: string;
  prevHref: string | null;
  nextHref: string | null;
  prevText?: string;
  nextText?: string;
  className?: string;
  linkClassName?: string;
  children?: ReactNode;
}) {
  if (!prevHref && !nextHref) return null;
  return (
    <nav aria-label={label} className={className}>
      {prevHref ? (
        <Link to={prevHref} rel="prev" className={linkClassName}>
          {prevText}
        </Link>
      ) : null}
      {children}
      {nextHref ? (
        <Link to={nextHref} rel="next" className={linkClassName}>
          {nextText}
        </Link>
      ) : null}
    </nav>
  );
}

/** Previous / next pagination for lists that don't count their rows. */
export function Pager({ page, hasNext, hrefFor, label }: { page: number; hasNext: boolean; hrefFor: (page: number) => string; label: string }) {
  return (
    <PrevNextNav label={label} prevHref={page > 1 ? hrefFor(page - 1) : null} nextHref={hasNext ? hrefFor(page + 1) : null}>
      <span className="text-sm text-slate-700">Page {page}</span>
    </PrevNextNav>
  );
}

/** The answer to a form post: a status for success, an alert for a refusal; it takes focus when the button that was pressed went away. */
export function ResultMessage({ result }: { result?: { ok: boolean; message: string } | null }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (result && (document.activeElement === document.body || document.activeElement === null)) ref.current?.focus();
  }, [result]);
  if (!result) return null;
  return (
    <p ref={ref} tabIndex={-1} role={result.ok ? "status" : "alert"} className={`mt-4 rounded-md p-3 text-sm ${result.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}>
      {result.message}
    </p>
  );
}

/** The one field's error a refused post carries (`{ fieldError }`), if any. */
export function fieldErrorOf(actionData: object | undefined | null): string | undefined {
  return actionData && "fieldError" in actionData && typeof actionData.fieldError === "string" ? actionData.fieldError : undefined;
}

/** A "done" notice carried through the redirect of a no-JavaScript post (?done=...). */
export function doneMessage(url: URL, messages: Record<string, string>): { ok: true; message: string } | null {
  const key = url.searchParams.get("done");
  return key && Object.hasOwn(messages, key) ? { ok: true, message: messages[key]! } : null;
}

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${dateTime.format(d)} UTC`;
}

export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return <time dateTime={iso}>{formatWhen(iso)}</time>;
}

export const TABLE_CLASS = "mt-4 w-full border-collapse text-left text-sm";
export const TH_CLASS = "sticky top-0 border-b border-slate-300 bg-slate-50 px-3 py-2 font-semibold text-ink";
export const TD_CLASS = "border-b border-slate-200 px-3 py-2 align-top";
