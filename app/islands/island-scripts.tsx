import type { UIMatch } from "react-router";
import { DOCUMENT_REQUEST_HEADER } from "../lib/document-request.ts";

/**
 * Islands: a page whose loader returns `island` (the script URL from server/http/islands.ts) is
 * hydrated by that one script, which bundles React DOM, the page's components and a small stand-in
 * for React Router (app/islands/router-shim.tsx), instead of by React Router's client. The
 * document is rendered by React Router on the server as always; the island's script hydrates
 * the SiteFrame element from the loader data written beside it.
 */
export interface Island {
  src: string;
  data: unknown;
}

/** The JSON block holding the root's and the page's loader data for the island. */
export const ISLAND_DATA_ID = "island-data";

export interface IslandPayload<RouteData> {
  root: unknown;
  route: RouteData;
}

/** Where an island page's own data sits in its document's loader data (see islandLoaderData). */
const ISLAND_PAGE = Symbol.for("toolstore.islandPage");

/** The loader data of a page that may be an island: its own data and the island's script URL. */
export type IslandLoaderData<PageData extends object> = (PageData & { island: string | null }) | { island: string; [ISLAND_PAGE]: PageData };

/**
 * What an island page's loader returns. For the document of a page that is an island, its data
 * sits under a symbol, which React Router's encoder of hydration data leaves out: an island page
 * never sends that encoding, and building it was about a fortieth of an uncached product page's
 * server time. Anywhere else (a `.data` request of React Router's client navigating to the page,
 * or `react-router dev`, which hydrates every page whole) the data is plain, as React Router needs it.
 */
export function islandLoaderData<PageData extends object>(request: Request, page: PageData, island: string | null): IslandLoaderData<PageData> {
  if (island && request.headers.get(DOCUMENT_REQUEST_HEADER) === "1") return { island, [ISLAND_PAGE]: page };
  return { ...page, island };
}

/** A page's own data from what islandLoaderData returned. */
export function islandPageData<PageData extends object>(loaderData: IslandLoaderData<PageData>): PageData {
  return ISLAND_PAGE in loaderData ? loaderData[ISLAND_PAGE] : loaderData;
}

export function islandOf(matches: readonly UIMatch[]): Island | null {
  const data = matches[matches.length - 1]?.loaderData;
  return hasIsland(data) ? { src: data.island, data: islandPageData(data) } : null;
}

/**
 * Whether the document about to be rendered is an island page (app/entry.server.tsx): its leaf
 * route's loader data names an island script, as islandOf reads it during the render.
 */
export function rendersIsland(context: { matches: readonly { route: { id: string } }[]; loaderData: Record<string, unknown> }): boolean {
  const leaf = context.matches[context.matches.length - 1];
  return !!leaf && hasIsland(context.loaderData[leaf.route.id]);
}

function hasIsland(data: unknown): data is { island: string } {
  return typeof data === "object" && data !== null && typeof (data as { island?: unknown }).island === "string";
}

/** JSON for a <script> data block: every "<" escaped, so no "</script>" or "<!--" in the data can end it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export function IslandScripts({ island, root, nonce }: { island: Island; root: unknown; nonce: string }) {
  const payload: IslandPayload<unknown> = { root, route: island.data };
  return (
    <>
      <script type="application/json" id={ISLAND_DATA_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: scriptJson(payload) }} />
      <script type="module" src={island.src} nonce={nonce} fetchPriority="low" />
    </>
  );
}
