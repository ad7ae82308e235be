import { lazy, Suspense } from "react";
import { Links, Meta, Outlet, Scripts } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ScrollToTop } from "./components/layout/ScrollToTop.tsx";
import { SiteFrame } from "./components/layout/SiteFrame.tsx";
import { sharedPage } from "./lib/cache-control.ts";
import type { Visitor } from "./lib/visitor.ts";
import { config } from "../server/config.ts";
import { googleConfigured } from "../server/auth/auth.ts";
import { trustedOrigins } from "../server/auth/origins.ts";
import { getDb } from "../server/db/connection.ts";
import { readVisitor as readVisitorOf } from "../server/shopper/visitor.ts";
import { pageMarket } from "../server/shopper/market.ts";
import { pageMarketContext } from "./lib/market-context.ts";

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
  const { market, shopper: shopperMarket, trade } = context.get(pageMarketContext);
  const shared = {
    siteUrl: cfg.siteUrl,
    year: new Date().getFullYear(),
    googleEnabled: googleConfigured(cfg),
    authorizedOrigins: trustedOrigins(cfg),
    market,
    shopperMarket,
    tradeMarket: trade,
  };
  const visitor: Visitor | null = context.get(sharedPage) ? null : await readVisitorOf(getDb(), request);
  return { ...shared, visitor };
}

/** Which market every route of this request shows (server/shopper/market.ts). */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    context.set(pageMarketContext, await pageMarket(getDb(), request));
    return next();
  },
];

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

// Loaded only when a page fails: not part of every page's first load. The server renders it
// whole, and the browser keeps that HTML until the module has arrived to hydrate it.
const RouteErrorPage = lazy(() =>
  import("./components/errors/RouteErrorPage.tsx").then(
    (m) => ({ default: m.RouteErrorPage }),
    () => ({ default: ErrorPageUnavailable }),
  ),
);

/** What a failed page says when even the error page can't load (an old tab after a deploy). */
function ErrorPageUnavailable() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-4">
        This page couldn't load.{" "}
        <button type="button" className="underline" onClick={() => window.location.reload()}>
          Reload the page
        </button>{" "}
        or <a href="/">go to the home page</a>.
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Suspense fallback={null}>
      <RouteErrorPage error={error} family="storefront" />
    </Suspense>
  );
}
