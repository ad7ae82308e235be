import { isRouteErrorResponse, Link, useLocation, useRouteLoaderData } from "react-router";
import { NOT_FOUND_TEXT } from "../../lib/site.ts";
import { useRequestId } from "../../lib/request-id.ts";
import type { RootData } from "../../root.tsx";

/** Where a failed page belongs: each family says what failed and where to go next in its own words. */
export type RouteFamily = "storefront" | "account" | "trade" | "backOffice";

const TO_ACCOUNT = { to: "/account", label: "Your account" };

const FAMILY: Record<RouteFamily, { failed: string; next: { to: string; label: string } }> = {
  storefront: {
    failed:
      "We couldn't load this page. Please try again in a moment — if it keeps happening, our support team is here to help.",
    next: { to: "/", label: "Go Home" },
  },
  account: {
    failed:
      "We couldn't load this part of your account. Nothing you saved was lost: try again in a moment, or go back to your account.",
    next: TO_ACCOUNT,
  },
  trade: {
    failed:
      "We couldn't load this trade page. Your cart and lists are as you left them: try again in a moment, or go back to your account.",
    next: TO_ACCOUNT,
  },
  backOffice: {
    failed:
      "This back-office page failed to load. Nothing was changed by loading it: try again, or go back to the dashboard. If it keeps happening, give the reference below to whoever runs the store.",
    next: { to: "/admin", label: "Back to the dashboard" },
  },
};

function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <p className="text-7xl font-black text-brand-600" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold">Page not found</h1>
      <p className="mt-4 text-slate-700">{NOT_FOUND_TEXT}</p>
      <Link to="/" className="btn-primary mt-8">
        Go Home
      </Link>
    </section>
  );
}

function NotFoundDocument() {
  const location = useLocation();
  const root = useRouteLoaderData<RootData>("root");
  const url = `${root?.siteUrl ?? ""}${location.pathname}`;
  return (
    <>
      <title>Page not found | ToolHub Wholesale</title>
      <meta name="description" content={NOT_FOUND_TEXT} />
      <meta name="robots" content="noindex" />
      <link rel="canonical" href={url} />
      <meta property="og:title" content="Page not found | ToolHub Wholesale" />
      <meta property="og:description" content={NOT_FOUND_TEXT} />
      <meta property="og:type" content="website" />
      <meta property="og:url" content={url} />
      <NotFoundPage />
    </>
  );
}

/**
 * A route family's error page, inside the store's frame: a 404 is the spec's not-found page; any
 * other refusal says its reason; a failure says, in the family's words, what happened and what to
 * do next, with the request's reference (the server logged the error under it).
 */
export function RouteErrorPage({ error, family }: { error: unknown; family: RouteFamily }) {
  const location = useLocation();
  const requestId = useRequestId();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundDocument />;
  // The server logs its own errors with their request id (entry.server.tsx); this is the browser's.
  if (typeof document !== "undefined" && (!isRouteErrorResponse(error) || error.status >= 500)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const reason = isRouteErrorResponse(error) && status < 500 && typeof error.data === "string" ? error.data : null;
  const { failed, next } = FAMILY[family];
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <title>Something went wrong | ToolHub Wholesale</title>
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-slate-700">{reason ?? failed}</p>
      <p className="mt-2 text-sm text-slate-600">Error {status}</p>
      {/* Known only to the server's render; the browser keeps the text the server sent. */}
      <p className="mt-1 text-sm text-slate-600" suppressHydrationWarning>
        {requestId ? `Reference: ${requestId}` : ""}
      </p>
      <div className="mt-8 flex gap-3">
        <a href={`${location.pathname}${location.search}`} className="btn-primary">
          Try again
        </a>
        <Link to={next.to} className="btn-outline">
          {next.label}
        </Link>
        {next.to !== "/" ? (
          <Link to="/" className="btn-outline">
            Go Home
          </Link>
        ) : null}
      </div>
    </section>
  );
}
