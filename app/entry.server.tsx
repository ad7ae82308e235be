import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { contentSecurityPolicy, CSP_HEADER, inlineScriptHashes } from "../server/http/csp.ts";
import { PERSONAL_CACHE_CONTROL } from "./lib/cache-control.ts";
import { RequestIdContext } from "./lib/request-id.ts";
import { log } from "../server/ops/log.ts";

/** The id server/http/request-log.ts gave this request (and sent back as X-Request-Id). */
const requestIdOf = (request: Request) => request.headers.get("x-request-id");

export const streamTimeout = 5_000;

/**
 * React Router's document render, whole before it answers: the page's CSP lists the hashes of its
 * inline scripts (React Router's hydration data), which a cache may store with the page, as it
 * could not store a nonce. No loader defers data, so waiting for all of it costs nothing.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    // Cleared once the document is whole: a pending timer holds the whole render (its tree, its
    // chunks) for six seconds, which under load moves every page's garbage into the old generation.
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <RequestIdContext value={requestIdOf(request)}>
        <ServerRouter context={routerContext} url={request.url} />
      </RequestIdContext>,
      {
        onAllReady() {
          const chunks: Buffer[] = [];
          const body = new PassThrough();
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            clearTimeout(timeout);
            const html = withLowPriorityModulePreloads(Buffer.concat(chunks));
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set(CSP_HEADER, contentSecurityPolicy(inlineScriptHashes(html)));
            if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", PERSONAL_CACHE_CONTROL);
            resolve(new Response(html, { headers: responseHeaders, status }));
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          status = 500;
          log().error({ reqId: requestIdOf(request), err: error }, "render failed");
        },
      },
    );
  });
}

/**
 * React Router lists the page's JavaScript as `<link rel="modulepreload">`, which Chrome fetches at
 * high priority, beside the stylesheet and the largest image the first paint waits for. The page is
 * whole without it (it only hydrates), so on a slow link the paint should not share the bandwidth
 * with it: `fetchpriority="low"` lets the browser fetch it after what the paint needs.
 */
function withLowPriorityModulePreloads(html: Buffer): string {
  return html.toString("utf8").replaceAll(MODULE_PRELOAD, `${MODULE_PRELOAD} fetchpriority="low"`);
}
const MODULE_PRELOAD = '<link rel="modulepreload"';

/** Data for React Router's client is personal unless its route says otherwise. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", PERSONAL_CACHE_CONTROL);
  return response;
};

/** A loader's or action's unexpected error, logged once under the request's id (the error page shows it). */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  log().error({ reqId: requestIdOf(request), err: error }, "route failed");
};
