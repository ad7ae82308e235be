import { createContext, type MiddlewareFunction } from "react-router";
import { pageMarketContext } from "./market-context.ts";
import { marketFromSearch, unclearMarketCookie } from "./markets.ts";

/** Anything personal, and every answer that says nothing else: no cache may keep it. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/**
 * A catalog page as every anonymous visitor gets it: a shared cache (the fleet's nginx, the
 * embedded store's own) keeps it 30 s and may serve it 30 s more while it fetches it again, so a
 * catalog change reaches every shopper within a minute (at once on the embedded store, which also
 * drops a page when the catalog version moves). Browsers always ask again (max-age=0).
 */
export const SHARED_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";

/** A sign-in session's cookie: its requests are personal (and bypass every shared cache). */
export const SESSION_COOKIE = /(?:^|;\s*)[\w.-]*session_token=/;

/** Set while rendering a page a cache will share: it must hold nothing of the visitor (root.tsx). */
export const sharedPage = createContext(false);

/**
 * A catalog route's `middleware`. The page shows the market its URL names, if any (not to a
 * trade buyer, who buys in the US market). For an anonymous visitor the page is shared: nothing of theirs
 * is rendered into it (their cart count, wishlist and a guest's header come from /visitor in the
 * browser) and a shared cache may keep it. A signed-in visitor's page is rendered for them (their
 * header, a trade buyer's prices), so it reads right without JavaScript too, and is never stored.
 */
export const sharedPageMiddleware: MiddlewareFunction<Response>[] = [
  async ({ request, context }, next) => {
    // A catalog page's URL may name the market it shows (hreflang alternates, the sitemap).
    const named = marketFromSearch(new URL(request.url).searchParams);
    const shopper = context.get(pageMarketContext);
    if (named && !shopper.trade) context.set(pageMarketContext, { ...shopper, market: named });
    const cookie = request.headers.get("cookie") ?? "";
    if (SESSION_COOKIE.test(cookie) || unclearMarketCookie(cookie)) return next();
    context.set(sharedPage, true);
    const response = await next();
    if (response.status === 200 && !response.headers.has("Set-Cookie"))
      response.headers.set("Cache-Control", SHARED_PAGE_CACHE_CONTROL);
    return response;
  },
];
