import type { NextFunction, Request, Response } from "express";
import { readCatalogVersion } from "../catalog/version.ts";
import type { Db } from "../db/connection.ts";
import { metrics } from "../ops/metrics.ts";
import { ByteRing } from "./byte-ring.ts";

interface CachedPage {
  /** A catalog version read before the page was rendered: while it holds, so does the page. */
  version: number;
  storedAt: number;
  headers: [string, string][];
  /** Where the page's bytes are in the ring, and how many. */
  at: number;
  length: number;
  /** Where the CSP nonce of the reply that rendered it stands in those bytes. */
  nonceAt: number[];
  nonceLength: number;
}

export interface PageCacheOptions {
  /** Which paths may be cached (anonymous GETs only). */
  paths: RegExp;
  /** The memory for pages, per process; 0 turns the cache off. */
  maxBytes?: number;
  maxAgeMs?: number;
}

const STORED_HEADERS = new Set(["content-type", "cache-control", "link", "content-language"]);
const PERSONAL_COOKIE = /(?:^|;\s*)(?:[\w.-]*session_token|guest)=/;
const DEFAULT_PAGE_CACHE_BYTES = 64 * 2 ** 20;

/**
 * A per-process micro-cache for the server-rendered HTML that anonymous visitors get. An entry is
 * reused only while the catalog version in the database is unchanged (every stock or price change
 * bumps it in the same transaction), so no process serves stale stock or prices, and each reply
 * gets its own CSP nonce. Pages are kept in one block of memory, the oldest overwritten first.
 */
export function pageCache(db: Db, options: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  const ring = new ByteRing(options.maxBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  /** The catalog version this process read last, once the read has finished. */
  let lastRead: number | undefined;
  // Admission: a page is stored the second time it is asked for. Most of 100,000 product pages are
  // seen once in a while; copying each of those into the cache only to overwrite it unused cost
  // their requests about a twentieth more time.
  const askedOnce = new Set<string>();
  const maxAskedOnce = Math.max(1000, Math.round(ring.capacity / 8192));

  async function readVersion(): Promise<number> {
    const version = await readCatalogVersion(db);
    lastRead = version;
    return version;
  }

  /** Entries are in the order they were written, so the overwritten ones are at the front. */
  function dropOverwritten() {
    for (const [key, entry] of entries) {
      if (ring.holds(entry.at)) return;
      entries.delete(key);
    }
  }

  return async function pageCacheMiddleware(req: Request, res: Response, next: NextFunction) {
    if (ring.capacity === 0 || req.method !== "GET" || !options.paths.test(req.path) || PERSONAL_COOKIE.test(req.headers.cookie ?? "")) return next();
    const counter = metrics().pageCache;
    const nonce = Buffer.from(String(res.locals.cspNonce ?? ""));
    const key = req.originalUrl;
    const hit = entries.get(key);
    if (!hit && !askedOnce.has(key)) {
      if (askedOnce.size >= maxAskedOnce) askedOnce.clear();
      askedOnce.add(key);
      counter.inc({ result: "miss" });
      return next();
    }
    // A page asked for the first time is rendered against the version read last: that read ended
    // before this render began, so if the version is the same when the page is next asked for,
    // nothing changed in between. A page found in the cache needs the version now.
    let version: number;
    try {
      version = hit || lastRead === undefined ? await readVersion() : lastRead;
    } catch {
      counter.inc({ result: "miss" });
      return next();
    }
    if (hit && hit.version === version && Date.now() - hit.storedAt < maxAgeMs && ring.holds(hit.at) && hit.nonceLength === nonce.byteLength) {
      const body = ring.read(hit.at, hit.length);
      for (const at of hit.nonceAt) nonce.copy(body, at);
      res.status(200);
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", "hit");
      res.setHeader("Content-Length", body.byteLength);
      counter.inc({ result: "hit" });
      res.end(body);
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
      if (res.statusCode === 200 && type.startsWith("text/html") && !res.getHeader("set-cookie") && nonce.byteLength > 0) {
        store(key, version, res, chunks, nonce);
      }
      return end(chunk, ...rest);
    }) as Response["end"];
    next();
  };

  function store(key: string, version: number, res: Response, chunks: Buffer[], nonce: Buffer) {
    const length = chunks.reduce((n, c) => n + c.byteLength, 0);
    const nonceAt = nonceOffsets(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length), nonce);
    const at = ring.write(chunks, length);
    entries.delete(key);
    if (at === null || nonceAt.length === 0) return;
    // Only the page's own headers: security headers (with this reply's CSP nonce) are set afresh.
    const headers = Object.entries(res.getHeaders())
      .filter(([name]) => STORED_HEADERS.has(name))
      .map(([name, value]) => [name, String(value)] as [string, string]);
    entries.set(key, { version, storedAt: Date.now(), headers, at, length, nonceAt, nonceLength: nonce.byteLength });
    dropOverwritten();
  }
}

function nonceOffsets(body: Buffer, nonce: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = body.indexOf(nonce); at >= 0; at = body.indexOf(nonce, at + nonce.byteLength)) offsets.push(at);
  return offsets;
}
