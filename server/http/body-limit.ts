/**
 * One cap on request bodies, in front of every handler that reads one (the auth API, the page
 * cache, the React Router app). A declared Content-Length over the limit is answered 413 at once;
 * any other body (chunked included) is counted as the HTTP parser hands it to the request stream,
 * and the request is answered 413 and cut off the moment the count passes the limit. Nothing is
 * buffered here, and nothing downstream ever sees more than the limit.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { matchPage } from "./page-routes.ts";

/** What the store's forms post (sign-in, register, password, account, cart, checkout …). */
export const MAX_FORM_BYTES = 16 * 1024;
/** JSON to /api/auth/*. */
export const AUTH_BODY_LIMIT_BYTES = 64 * 1024;
/**
 * The contact form: 5,000 characters of message, which URL-encoded non-Latin text makes up to
 * 9 bytes each (what app/lib/forms.ts readFormData accepts).
 */
const CONTACT_BODY_LIMIT_BYTES = 128 * 1024;

/**
 * A file of up to 10 MB as multipart, with room for the form's other fields: back-office product
 * photos and CSV imports, and a trade company's exemption certificate.
 */
export const ADMIN_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024 + 64 * 1024;
/** Back office: the product form (a 5,000-character description, features …), URL-encoded. */
export const ADMIN_PRODUCT_FORM_LIMIT_BYTES = 128 * 1024;
/**
 * Quick order: up to 500 lines as typed rows, a pasted CSV and an uploaded one (with a SKU of up
 * to 64 characters each), as multipart.
 */
export const QUICK_ORDER_BODY_LIMIT_BYTES = 256 * 1024;

const BODY_TOO_LARGE_MESSAGE = "The request body is too large.";

/** The pages (route patterns of app/routes.ts) that take more than MAX_FORM_BYTES. */
export const PAGE_BODY_LIMITS: Readonly<Record<string, number>> = {
  "/contact": CONTACT_BODY_LIMIT_BYTES,
  "/quick-order": QUICK_ORDER_BODY_LIMIT_BYTES,
  "/admin/products/new": ADMIN_PRODUCT_FORM_LIMIT_BYTES,
  "/admin/products/import": ADMIN_UPLOAD_LIMIT_BYTES,
  "/admin/products/:id": ADMIN_UPLOAD_LIMIT_BYTES,
  "/admin/tax": ADMIN_UPLOAD_LIMIT_BYTES,
  "/account/company/tax-exemptions": ADMIN_UPLOAD_LIMIT_BYTES,
};

/** The limit for a request path (React Router's `.data` requests count as their page). */
export function storeBodyLimit(path: string): number {
  if (path.startsWith("/api/auth/")) return AUTH_BODY_LIMIT_BYTES;
  const page = matchPage(path.replace(/\.data$/, ""));
  return (page && PAGE_BODY_LIMITS[page]) || MAX_FORM_BYTES;
}

class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor() {
    super(BODY_TOO_LARGE_MESSAGE);
    this.name = "BodyTooLargeError";
  }
}

const STATE = Symbol("toolstore.body-limit");
type Limited = Request & { [STATE]?: { refused: boolean } };

/**
 * The whole body of a request that bodyLimit guards (so never more than its limit), or null when
 * it never arrives whole: refused with 413, or the client went away.
 */
export function collectBody(req: Request): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", () => resolve(null));
    req.once("close", () => resolve(null));
  });
}

function refuse(req: Request, res: Response) {
  const state = ((req as Limited)[STATE] ??= { refused: false });
  if (state.refused) return;
  state.refused = true;
  // Whoever is reading the body gets an error (never a clean end of a cut-off body) once the 413
  // is on its way; destroying the request earlier would close the socket before the answer left.
  req.socket.once("close", () => req.destroy(new BodyTooLargeError()));
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res.status(413).set("Connection", "close").type("text/plain").end(BODY_TOO_LARGE_MESSAGE);
}

/**
 * An answer that leaves part of the request body unread on the socket (a redirect or 404 decided
 * before the body was read: the back office's guard answers first) closes the connection after
 * it. Kept alive, the unread bytes would sit in front of the client's next request on that
 * socket, and that request would never be answered.
 */
function closeIfBodyUnread(req: Request, res: Response) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with apply(this)
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadClosingIfUnread(this: Response, ...args: unknown[]) {
    if (!req.complete && !this.headersSent) this.setHeader("Connection", "close");
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
}

/**
 * Caps the body of every request but GET and HEAD at `limitFor(path)` bytes. Mounting it twice
 * is harmless: the first mount decides.
 */
export function bodyLimit(limitFor: (path: string) => number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const limited = req as Limited;
    if (req.method === "GET" || req.method === "HEAD" || limited[STATE]) return next();
    limited[STATE] = { refused: false };
    closeIfBodyUnread(req, res);
    const limit = limitFor(req.path);
    if (Number(req.headers["content-length"]) > limit) return refuse(req, res);

    // Bytes the parser already handed over before this ran (none when mounted early), then every chunk.
    let received = req.readableLength;
    if (received > limit) return refuse(req, res);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with apply(this)
    const push = req.push;
    req.push = function countingPush(chunk: unknown, encoding?: BufferEncoding) {
      if (limited[STATE]!.refused) return false;
      if (chunk !== null && chunk !== undefined) {
        received += typeof chunk === "string" ? Buffer.byteLength(chunk, encoding) : (chunk as Uint8Array).byteLength;
        if (received > limit) {
          refuse(req, res);
          return false;
        }
      }
      return push.call(this, chunk, encoding);
    };
    next();
  };
}
