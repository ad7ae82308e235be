import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { NONCE_HEADER, NonceContext } from "./lib/nonce.ts";
import { readHydrationData, renderDocument } from "../server/http/document.ts";
import { rendersIsland } from "./islands/island-scripts.tsx";
import { withMatchedRoutes } from "./lib/matched-routes.ts";
import { ServerFragments } from "./lib/server-fragments.ts";
import { documentFragments, serverFragmentHtml } from "./lib/server-fragments.server.ts";

export const streamTimeout = 5_000;

/**
 * Renders the whole document before answering: every loader has finished before rendering starts
 * (no deferred data), so streaming would gain nothing, and one string is far cheaper to render and
 * send than React's chunks (server/http/document.ts).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const nonce = request.headers.get(NONCE_HEADER) ?? "";
  const timeoutMs = streamTimeout + 1000;
  // An island page writes its own data block instead of React Router's hydration data, so the
  // encoded copy React Router made of the same data is never read.
  const beforeStreaming = rendersIsland(routerContext.staticHandlerContext) ? undefined : await readHydrationData(routerContext, timeoutMs);
  const document = (
    <NonceContext value={nonce}>
      {/* Not under `react-router dev`: an edited component would keep showing its cached HTML. */}
      <ServerFragments value={import.meta.env.DEV ? null : serverFragmentHtml}>
        <ServerRouter context={withMatchedRoutes(routerContext)} url={request.url} nonce={nonce} />
      </ServerFragments>
    </NonceContext>
  );
  return renderDocument(document, { nonce, status: responseStatusCode, headers: responseHeaders, timeoutMs, beforeStreaming, fragments: import.meta.env.DEV ? undefined : documentFragments });
}
