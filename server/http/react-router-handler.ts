import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler as createRouterHandler, type ServerBuild } from "react-router";
import { documentBytesOf } from "./document.ts";

/**
 * Express → React Router, as @react-router/express does it, with less work per request: the URL
 * from Express's own (already checked) protocol and host, one listener for a client that goes
 * away, headers set without Express's `append`, and a document the server rendered whole
 * (server/http/document.ts) sent as its bytes in one `end`, not read back through its stream.
 * Every other response (data, redirects, files, streams) is streamed as the adapter streams it.
 */
export function reactRouterHandler(build: ServerBuild, mode = process.env.NODE_ENV) {
  const handleRequest = createRouterHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      await sendResponse(res, await handleRequest(fetchRequest(req, res)));
    } catch (error) {
      next(error);
    }
  };
}

function fetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.set(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(`${req.protocol}://${req.host}${req.originalUrl}`, init);
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.append("set-cookie", cookies);
  const bytes = documentBytesOf(response);
  if (bytes) {
    res.end(bytes);
    return;
  }
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
