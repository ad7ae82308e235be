import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { NONCE_HEADER, NonceContext } from "./lib/nonce.ts";
import { withoutModulePreloads } from "../server/http/document.ts";

export const streamTimeout = 5_000;

/**
 * Renders the whole document before answering. Every loader has finished before rendering starts
 * (no deferred data), so streaming would gain nothing, and one buffer is far cheaper to send than
 * React's chunks passed through three streams; it also gets a Content-Length.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const nonce = request.headers.get(NONCE_HEADER) ?? "";
  return new Promise<Response>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    // All React's pipe needs of a destination: write, end, destroy and events it listens to.
    // React hands over a fresh array (or a long string) each time, so chunks are kept as they come
    // and joined once at the end.
    const document = {
      write(chunk: Uint8Array | string) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        return true;
      },
      destroy(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      end() {
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        const html = withoutModulePreloads(chunks);
        const body = new Uint8Array(html.buffer as ArrayBuffer, html.byteOffset, html.byteLength);
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        return document;
      },
      on() {
        return document;
      },
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        onAllReady() {
          clearTimeout(timer);
          pipe(document as unknown as NodeJS.WritableStream);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          console.error(error);
        },
      },
    );
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}
