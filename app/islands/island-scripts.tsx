import type { UIMatch } from "react-router";

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

export function islandOf(matches: readonly UIMatch[]): Island | null {
  const data = matches[matches.length - 1]?.loaderData;
  return hasIsland(data) ? { src: data.island, data } : null;
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
