import type { NextFunction, Request, Response } from "express";
import { readCatalogVersion } from "../catalog/version.ts";
import type { Db } from "../db/connection.ts";
import { metrics } from "../ops/metrics.ts";

interface CachedPage {
  version: number;
  storedAt: number;
  headers: [string, string][];
  /** The body cut where the CSP nonce of the reply that rendered it appeared. */
  segments: Buffer[];
}

export interface PageCacheOptions {
  /** Which paths may be cached (anonymous GETs only). */
  paths: RegExp;
  maxEntries?: number;
  maxAgeMs?: number;
}

const STORED_HEADERS = new Set(["content-type", "cache-control", "link", "content-language"]);
const PERSONAL_COOKIE = /(?:^|;\s*)(?:[\w.-]*session_token|guest)=/;

/**
 * A per-process micro-cache for the server-rendered HTML that anonymous visitors get. An entry is
 * reused only while the catalog version in the database is unchanged (every stock or price change
 * bumps it in the same transaction), so no process serves stale stock or prices, and each reply
 * gets its own CSP nonce.
 */
export function pageCache(db: Db, options: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  // At most ~60 MB per process (a product page is ~28 KB), held in Buffers outside the JS heap.
  const maxEntries = options.maxEntries ?? 2000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  // Admission: a page is stored the second time it is asked for. Most of 100,000 product pages are
  // seen once in a while; copying each of those into the cache only to evict it unused cost time
  // and memory on every such request.
  const askedOnce = new Set<string>();

  return async function pageCacheMiddleware(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" || !options.paths.test(req.path) || PERSONAL_COOKIE.test(req.headers.cookie ?? "")) return next();
    const counter = metrics().pageCache;
    const nonce = String(res.locals.cspNonce ?? "");
    const key = req.originalUrl;
    const hit = entries.get(key);
    if (!hit && !askedOnce.has(key)) {
      if (askedOnce.size >= maxEntries * 4) askedOnce.clear();
      askedOnce.add(key);
      counter.inc({ result: "miss" });
      return next();
    }
    let version: number;
    try {
      version = await readCatalogVersion(db);
    } catch {
      counter.inc({ result: "miss" });
      return next();
    }
    if (hit && hit.version === version && Date.now() - hit.storedAt < maxAgeMs) {
      res.status(200);
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", "hit");
      counter.inc({ result: "hit" });
      res.send(joinWithNonce(hit.segments, nonce));
      return;
    }

    counter.inc({ result: "miss" });
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === "function") return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const type = String(res.getHeader("content-type") ?? "");
      if (res.statusCode === 200 && type.startsWith("text/html") && !res.getHeader("set-cookie") && nonce) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        // Only the page's own headers: security headers (with this reply's CSP nonce) are set afresh.
        const headers = Object.entries(res.getHeaders())
          .filter(([name]) => STORED_HEADERS.has(name))
          .map(([name, value]) => [name, String(value)] as [string, string]);
        entries.set(key, { version, storedAt: Date.now(), headers, segments: splitAtNonce(Buffer.concat(chunks), nonce) });
      }
      return end(chunk, ...rest);
    }) as Response["end"];
    next();
  };
}

function splitAtNonce(body: Buffer, nonce: string): Buffer[] {
  const needle = Buffer.from(nonce);
  const segments: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, from)) {
    segments.push(body.subarray(from, at));
    from = at + needle.length;
  }
  segments.push(body.subarray(from));
  return segments;
}

function joinWithNonce(segments: Buffer[], nonce: string): Buffer {
  if (segments.length === 1) return segments[0]!;
  const needle = Buffer.from(nonce);
  const parts: Buffer[] = [];
  segments.forEach((segment, i) => {
    if (i > 0) parts.push(needle);
    parts.push(segment);
  });
  return Buffer.concat(parts);
}
