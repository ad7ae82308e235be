import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ScrollToTop } from "./components/layout/ScrollToTop.tsx";
import { SiteFrame } from "./components/layout/SiteFrame.tsx";
import { NOT_FOUND_TEXT } from "./lib/site.ts";
import { sharedPage } from "./lib/cache-control.ts";
import type { Visitor } from "./lib/visitor.ts";
import { config } from "../server/config.ts";
import { googleConfigured } from "../server/auth/auth.ts";
import { trustedOrigins } from "../server/auth/origins.ts";
import { getDb } from "../server/db/connection.ts";
import { readVisitor as readVisitorOf } from "../server/shopper/visitor.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * What every page shares, and, on a page no cache shares (the cart, the account …), the visitor's
 * own data too, so its header is right without JavaScript. A catalog page gets none (its route's
 * middleware marks it shared): the browser reads the visitor from /visitor instead (useVisitor).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const cfg = config();
  const shared = {
    siteUrl: cfg.siteUrl,
    year: new Date().getFullYear(),
    googleEnabled: googleConfigured(cfg),
    authorizedOrigins: trustedOrigins(cfg),
  };
  const visitor: Visitor | null = context.get(sharedPage) ? null : await readVisitorOf(getDb(), request);
  return { ...shared, visitor };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f172a" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a href="#main" className="skip-link print:hidden">
          Skip to content
        </a>
        <SiteFrame>{children}</SiteFrame>
        <ScrollToTop />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function NotFoundPage() {
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  const root = useRouteLoaderData<typeof loader>("root");
  if (isRouteErrorResponse(error) && error.status === 404) {
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
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" ? error.data : null;
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <title>Something went wrong | ToolHub Wholesale</title>
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-slate-700">
        {message ??
          "We couldn't load this page. Please try again in a moment — if it keeps happening, our support team is here to help."}
      </p>
      <p className="mt-2 text-sm text-slate-600">Error {status}</p>
      <div className="mt-8 flex gap-3">
        <a href={`${location.pathname}${location.search}`} className="btn-primary">
          Try again
        </a>
        <Link to="/" className="btn-outline">
          Go Home
        </Link>
      </div>
    </section>
  );
}
