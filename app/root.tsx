import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ScrollToTop } from "./components/layout/ScrollToTop.tsx";
import { SiteFrame } from "./components/layout/SiteFrame.tsx";
import { NOT_FOUND_TEXT } from "./lib/site.ts";
import { VISITOR_PATH, type Visitor } from "./lib/visitor.ts";
import { config } from "../server/config.ts";
import { googleConfigured } from "../server/auth/auth.ts";
import { trustedOrigins } from "../server/auth/origins.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** What every page shares: nothing of one visitor, so a cache may keep any page (see clientLoader). */
export function loader() {
  const cfg = config();
  return {
    siteUrl: cfg.siteUrl,
    year: new Date().getFullYear(),
    googleEnabled: googleConfigured(cfg),
    authorizedOrigins: trustedOrigins(cfg),
  };
}

/** The visitor's own data (cart count, wishlist, user menu, trade prices), or null when it can't be read. */
async function readVisitor(): Promise<Visitor | null> {
  try {
    const response = await fetch(VISITOR_PATH, { credentials: "same-origin", headers: { accept: "application/json" } });
    return response.ok ? ((await response.json()) as Visitor) : null;
  } catch {
    return null;
  }
}

/**
 * In the browser the page's shared data gains the visitor's own, read from /visitor once the page
 * has hydrated (the server rendered it as any visitor's) and again after every form or fetcher
 * submission and revalidation: never on a plain navigation, as nothing of the visitor's changed.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [shared, visitor] = await Promise.all([serverLoader(), readVisitor()]);
  return { ...shared, visitor };
}
clientLoader.hydrate = true as const;

export function shouldRevalidate({ formMethod, currentUrl, nextUrl }: ShouldRevalidateFunctionArgs) {
  return Boolean(formMethod) || currentUrl.href === nextUrl.href;
}

export type RootData = Awaited<ReturnType<typeof loader>> & { visitor?: Visitor | null };

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
  const message = isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" ? error.data : null;
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <title>Something went wrong | ToolHub Wholesale</title>
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-slate-700">
        {message ?? "We couldn't load this page. Please try again in a moment — if it keeps happening, our support team is here to help."}
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
