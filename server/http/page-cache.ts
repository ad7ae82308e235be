import { DEFAULT_MARKET, marketFromCookieHeader } from "../../app/lib/markets.ts";
import type { NextFunction, Request, Response } from "express";
import { readCatalogVersion } from "../catalog/version.ts";
import type { Db } from "../db/connection.ts";
import { metrics } from "../ops/metrics.ts";
// A sign-in session: such requests are never answered from, nor stored in, the cache (as nginx's bypass).
import { SESSION_COOKIE } from "../../app/lib/cache-control.ts";

interface CachedPage {
  /** The catalog version read before the page was rendered: while it holds, so does the page. */
  version: number;
  expiresAt: number;
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export interface PageCacheOptions {
  /** Memory for stored answers, per process; 0 turns the cache off. */
  maxBytes: number;
}

const SHARED_MAX_AGE = /(?:^|,)\s*s-maxage=(\d+)/;
/** Headers that belong to the page; the security headers are set afresh on every answer. */
const STORED_HEADERS = new Set(["content-type", "cache-control", "content-security-policy", "link", "vary"]);

/** Whether a response may be stored by a shared cache, and for how long (seconds), by its own headers. */
export function sharedMaxAge(cacheControl: string | undefined): number | null {
  if (
    !cacheControl ||
    !/(?:^|,)\s*public\b/.test(cacheControl) ||
    /\b(?:private|no-store|no-cache)\b/.test(cacheControl)
  )
    return null;
  const seconds = SHARED_MAX_AGE.exec(cacheControl)?.[1];
  return seconds ? Number(seconds) : null;
}

/**
 * The embedded store's shared cache, the single-process stand-in for the fleet's nginx: it stores
 * only what the app's own `Cache-Control` lets a shared cache store (public, s-maxage; no
 * Set-Cookie), bypasses requests with a session cookie, and also drops an answer as soon as the
 * catalog version moves, so in one process a change shows at once. While one request renders an
 * expired page again, others get the stored one (nginx's `use_stale updating`).
 */
export function pageCache(db: Db, { maxBytes }: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  const refreshing = new Set<string>();
  let bytes = 0;
  // A page is stored the second time it is asked for, so a crawl of rarely seen pages does not
  // push the busy ones out.
  const askedOnce = new Set<string>();
  const maxAskedOnce = Math.max(1000, Math.round(maxBytes / 8192));

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.byteLength;
    entries.delete(key);
  }

  function store(key: string, entry: CachedPage) {
    remove(key);
    if (entry.body.byteLength > maxBytes / 4) return;
    entries.set(key, entry);
    bytes += entry.body.byteLength;
    // Oldest first: a Map keeps insertion order.
    for (const oldest of entries.keys()) {
      if (bytes <= maxBytes) break;
      remove(oldest);
    }
  }

  return async function pageCacheMiddleware(req: Request, res: Response, next: NextFunction) {
    if (maxBytes === 0 || req.method !== "GET" || SESSION_COOKIE.test(req.headers.cookie ?? "")) return next();
    const counter = metrics().pageCache;
    // A catalog page is priced in the visitor's chosen market (its cookie): part of the key.
    const key = `${req.protocol}://${req.host}${req.originalUrl}|${marketFromCookieHeader(req.headers.cookie) ?? DEFAULT_MARKET}`;
    let version: number;
    try {
      version = await readCatalogVersion(db);
    } catch {
      return next();
    }
    const hit = entries.get(key);
    const current = hit?.version === version;
    const fresh = current && Date.now() < hit.expiresAt;
    // An expired page may be served while another request renders it again; a page from before a
    // catalog change never is.
    if (hit && current && (fresh || refreshing.has(key))) {
      counter.inc({ result: fresh ? "hit" : "stale" });
      res.status(hit.status);
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", fresh ? "hit" : "stale");
      res.end(hit.body);
      return;
    }
    counter.inc({ result: "miss" });
    if (!hit && !askedOnce.has(key)) {
      if (askedOnce.size >= maxAskedOnce) askedOnce.clear();
      askedOnce.add(key);
      return next();
    }
    refreshing.add(key);
    res.once("close", () => refreshing.delete(key));
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === "function") return;
      chunks.push(
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array),
      );
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const seconds = sharedMaxAge(String(res.getHeader("cache-control") ?? ""));
      if (res.statusCode === 200 && seconds && !res.getHeader("set-cookie")) {
        const headers = Object.entries(res.getHeaders())
          .filter(([name]) => STORED_HEADERS.has(name))
          .map(([name, value]) => [name, String(value)] as [string, string]);
        store(key, {
          version,
          expiresAt: Date.now() + seconds * 1000,
          status: 200,
          headers,
          body: Buffer.concat(chunks),
        });
      } else if (hit) {
        remove(key);
      }
      refreshing.delete(key);
      return end(chunk, ...rest);
    }) as Response["end"];
    next();
  };
}
