import { createContext, type MiddlewareFunction } from "react-router";

/** Anything personal, and every answer that says nothing else: no cache may keep it. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/**
 * A catalog page, the same for every visitor: a shared cache (the fleet's nginx, the embedded
 * store's own) keeps it 30 s and may serve it 30 s more while it fetches it again, so a catalog
 * change reaches every shopper within a minute (at once on the embedded store, which also drops a
 * page when the catalog version moves). Browsers always ask again (max-age=0).
 */
export const SHARED_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";

/** The `headers` of a catalog route: shared when it rendered, personal when an error boundary did. */
export function sharedPageHeaders({ errorHeaders }: { errorHeaders?: Headers | undefined }): Record<string, string> {
  return { "Cache-Control": errorHeaders ? PERSONAL_CACHE_CONTROL : SHARED_PAGE_CACHE_CONTROL };
}

/** Set by a catalog route's middleware: the page will be shared, so it must hold nothing of the visitor (root.tsx). */
export const sharedPage = createContext(false);

/** A catalog route's `middleware`: marks its page as shared before any loader runs. */
export const sharedPageMiddleware: MiddlewareFunction<Response>[] = [
  ({ context }) => {
    context.set(sharedPage, true);
  },
];
