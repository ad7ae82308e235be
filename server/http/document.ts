import type { ReactNode } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";

const HEAD_END = "</head>";
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
/** React marks a Suspense boundary it could not finish on the server with this comment. */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";
const MAX_UTF8_CHAR_BYTES = 4;

/**
 * A server-rendered document as UTF-8 bytes (after `doctype`), without React Router's module preloads in its
 * <head>. On a slow connection twenty-odd script downloads in <head> compete with the stylesheet
 * and the images, and held the first paint back until they had all arrived (Lighthouse FCP 2.4 s →
 * 0.8 s without them). The page's module script still fetches every module in parallel once
 * parsed, and every form works before the page hydrates. React hydrates the document all the
 * same: the preload links are resources, which it does not match against the server's markup.
 *
 * The head and the rest are encoded straight into one buffer. Joined back into one string first,
 * a search results page (80 KB) was copied whole once more before its encoding: about a twentieth
 * of its server time on the day it was measured (decision 0022). The buffer is sized for a page
 * of mostly ASCII (an eighth more than its characters): it stays in memory until a slow client
 * has read the page, so three bytes for every character would hold three pages for one. A page
 * that does not fit is encoded again at its exact size.
 */
export function documentBytes(html: string, doctype = ""): Buffer<ArrayBuffer> {
  const headEnd = Math.max(0, html.indexOf(HEAD_END));
  const head = doctype + html.slice(0, headEnd).replace(MODULE_PRELOAD, "");
  const rest = html.slice(headEnd);
  const capacity = Math.ceil(1.125 * (head.length + rest.length)) + 1024;
  const bytes = encodeInto(capacity, head, rest);
  // write() stops short of a character that does not fit; one that fits leaves this much free.
  if (bytes.byteLength <= capacity - MAX_UTF8_CHAR_BYTES) return bytes;
  return encodeInto(Buffer.byteLength(head) + Buffer.byteLength(rest), head, rest);
}

function encodeInto(capacity: number, head: string, rest: string): Buffer<ArrayBuffer> {
  const bytes = Buffer.allocUnsafe(capacity);
  const headBytes = bytes.write(head);
  return bytes.subarray(0, headBytes + bytes.write(rest, headBytes)) as Buffer<ArrayBuffer>;
}

type HydrationData = Record<number, Promise<void> & { result?: { done: boolean; value: string } }>;
type DocumentContext = { serverHandoffStream?: ReadableStream<Uint8Array>; renderMeta?: { streamCache?: HydrationData } };

/**
 * Reads the hydration data React Router streams into a document (the loader data, encoded) before
 * the render, into the cache its <StreamTransfer> reads, decoded as StreamTransfer decodes it. The
 * render then never waits for it. Returns a function that hands the same data back as a fresh
 * stream, for a render that must read it as React Router does (renderDocument's streaming path).
 */
export async function readHydrationData(context: DocumentContext, timeoutMs: number): Promise<() => void> {
  const stream = context.serverHandoffStream;
  const renderMeta = context.renderMeta;
  if (!stream || !renderMeta) return () => {};
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const chunks: Uint8Array[] = [];
  const data: HydrationData = {};
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel();
  }, timeoutMs);
  try {
    for (let i = 0; ; i++) {
      const { done, value } = await reader.read();
      if (timedOut) throw new Error(`the page's hydration data took longer than ${timeoutMs} ms`);
      data[i] = Object.assign(Promise.resolve(), { result: { done, value: decoder.decode(value, { stream: true }) } });
      if (done) break;
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  renderMeta.streamCache = data;
  return () => {
    delete renderMeta.streamCache;
    context.serverHandoffStream = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
  };
}

type DocumentResponse = {
  nonce: string;
  status: number;
  headers: Headers;
  timeoutMs: number;
  /** Called before the streaming renderer starts (readHydrationData's result). */
  beforeStreaming?: () => void;
  /** Told when a render to one string begins and given its HTML once it is whole (documentFragments). */
  fragments?: { begin(): void; capture(html: string): void };
};

/**
 * Renders a whole document before answering, with a Content-Length. With every loader finished
 * and the hydration data read first, nothing suspends, so the document renders in one synchronous
 * pass to a string: about a fifth less server time per page than React's streaming renderer,
 * which encodes each piece of markup into byte chunks. Should anything suspend all the same, the
 * document is rendered again with the streaming renderer, which waits for it.
 */
export function renderDocument(document: ReactNode, response: DocumentResponse): Promise<Response> {
  response.headers.set("Content-Type", "text/html; charset=utf-8");
  let html: string;
  try {
    response.fragments?.begin();
    html = renderToString(document);
  } catch {
    return renderWhenReady(document, response);
  }
  // The first look at the string flattens React's many joined pieces into one (a page's size
  // copied); joined to anything after that, it would be flattened again. So the doctype, which the
  // streaming renderer writes before <html> and the string renderer leaves out, joins only the head.
  if (html.includes(CLIENT_RENDERED_BOUNDARY)) return renderWhenReady(document, response);
  response.fragments?.capture(html);
  const doctype = html.startsWith("<html") ? "<!DOCTYPE html>" : "";
  return Promise.resolve(documentResponse(documentBytes(html, doctype), response.headers, response.status));
}

/** Shared by name: the server reads it from the copy of this module bundled into the app's build. */
const DOCUMENT_BYTES = Symbol.for("toolstore.documentBytes");
type DocumentResponseBody = Response & { [DOCUMENT_BYTES]?: Buffer<ArrayBuffer> };

/**
 * The bytes as a response body, with their Content-Length. Given the bytes themselves, a Response
 * copies them (a fresh 20–80 KB for every page); a stream that hands over these bytes does not.
 * The server's handler (react-router-handler.ts) sends the bytes without reading the stream.
 */
export function documentResponse(bytes: Buffer<ArrayBuffer>, headers: Headers, status: number): Response {
  headers.set("Content-Length", String(bytes.byteLength));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const response: DocumentResponseBody = new Response(body, { headers, status });
  response[DOCUMENT_BYTES] = bytes;
  return response;
}

/** The whole body of a document documentResponse made, unread; undefined for any other response. */
export function documentBytesOf(response: Response): Buffer<ArrayBuffer> | undefined {
  return response.bodyUsed ? undefined : (response as DocumentResponseBody)[DOCUMENT_BYTES];
}

/** React's streaming renderer, answering once everything has rendered. */
function renderWhenReady(document: ReactNode, { nonce, status, headers, timeoutMs, beforeStreaming }: DocumentResponse): Promise<Response> {
  beforeStreaming?.();
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    // All React's pipe needs of a destination: write, end, destroy and events it listens to.
    const destination = {
      write(chunk: Uint8Array | string) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        return true;
      },
      destroy(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      end() {
        resolve(documentResponse(documentBytes(Buffer.concat(chunks).toString("utf8")), headers, status));
        return destination;
      },
      on() {
        return destination;
      },
    };
    const { pipe, abort } = renderToPipeableStream(document, {
      nonce,
      onAllReady() {
        clearTimeout(timer);
        pipe(destination as unknown as NodeJS.WritableStream);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        console.error(error);
      },
    });
    const timer = setTimeout(abort, timeoutMs);
  });
}
