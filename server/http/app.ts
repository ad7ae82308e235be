import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express, type RequestHandler } from "express";
import onHeaders from "on-headers";
import type { ServerBuild } from "react-router";
import { CLIENT_IP_HEADER, getAuth } from "../auth/auth.ts";
import { originPolicy } from "../auth/origins.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { authRouter } from "./auth-routes.ts";
import { opsRouter } from "./ops-routes.ts";
import { paymentRouter, STRIPE_WEBHOOK_PATH } from "./payment-routes.ts";
import { refuseCrossSite } from "../security/cross-site.ts";
import { requestLog } from "./request-log.ts";
import { PERSONAL_CACHE_CONTROL } from "../../app/lib/cache-control.ts";
import { bodyLimit, storeBodyLimit } from "./body-limit.ts";
import { contentSecurityPolicy, CSP_HEADER, securityHeaders } from "./csp.ts";
import { pageCache } from "./page-cache.ts";

/** TRUST_PROXY as Express understands it: "false" → trust nobody; "true" → everybody; a hop count; or addresses. */
export function trustProxySetting(value: string): boolean | number | string {
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** A Host header as browsers and proxies send it: a name or IP address, and maybe a port. */
const PLAIN_HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export interface HttpAppOptions {
  /** The React Router build, or (in development) a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The browser's files: the production build's client folder, or Vite's middleware in development. */
  clientFiles: string | RequestHandler;
  db: Db;
  /** Memory for the in-process page cache in MiB (PAGE_CACHE_MB by default; 0: off). */
  pageCacheMb?: number;
}

export function createHttpApp({ build, clientFiles, db, pageCacheMb }: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  const cfg = config();
  // Only the proxies named in TRUST_PROXY may say who the client is; by default nobody can.
  app.set("trust proxy", trustProxySetting(cfg.TRUST_PROXY));
  const fromTrustedProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  app.use(requestLog({ trustRequestId: (req) => fromTrustedProxy(req.socket.remoteAddress ?? "", 0) }));

  const headers = securityHeaders();
  const defaultPolicy = contentSecurityPolicy();
  app.use((req, res, next) => {
    // The only client address the app trusts; a value sent by the client is overwritten.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    for (const [name, value] of headers) res.setHeader(name, value);
    // Set last, so an answer's own CSP (a document's, with its scripts' hashes) and caching rule
    // win: React Router's adapter appends headers, and two CSPs would both apply.
    onHeaders(res, () => {
      if (!res.hasHeader(CSP_HEADER)) res.setHeader(CSP_HEADER, defaultPolicy);
      if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", PERSONAL_CACHE_CONTROL);
    });
    next();
  });
  // Handlers build each request's URL from Host, X-Forwarded-Host and X-Forwarded-Proto (Better
  // Auth reads X-Forwarded-Proto whoever sent it): a host that isn't a plain host[:port], or a
  // protocol other than http(s), is the client's error (400, not a 500 from `new URL`), and the
  // forwarded headers are reduced to what Express trusted.
  app.use((req, res, next) => {
    const protocol = req.protocol;
    const hosts = [req.headers.host, req.host].filter((h): h is string => typeof h === "string");
    if (
      (protocol !== "http" && protocol !== "https") ||
      hosts.some((h) => !PLAIN_HOST.test(h) || !URL.canParse(`${protocol}://${h}`))
    ) {
      res.status(400).type("text/plain").send("Bad Request");
      return;
    }
    if (req.headers["x-forwarded-proto"] !== undefined) req.headers["x-forwarded-proto"] = protocol;
    // The host Express trusted, whole, in both headers: React Router's adapter takes the port from
    // Host when X-Forwarded-Host names none, and reads X-Forwarded-Host from any client when some
    // proxy is trusted; either way its URL would not be the page's origin, and actions would 400.
    req.headers.host = req.host;
    if (req.headers["x-forwarded-host"] !== undefined) req.headers["x-forwarded-host"] = req.host;
    next();
  });
  // The Google popup passes through the OAuth callback to its landing page; neither may switch
  // browsing-context group (COOP applies to redirects too), or the popup would lose its opener.
  app.use(["/auth/google/done", "/api/auth/callback"], (_req, res, next) => {
    res.setHeader("Cross-Origin-Opener-Policy", "unsafe-none");
    next();
  });
  // Before anything reads a body: one byte-counting cap for every form and API post (413 past it).
  app.use(bodyLimit(storeBodyLimit));
  app.use(compression());

  app.use(opsRouter(db, cfg));
  app.use(paymentRouter(db, cfg));
  app.use(authRouter(getAuth(), originPolicy(cfg)));
  // Every state-changing storefront request (each action, plain form or .data) from another site: 403.
  app.use(refuseCrossSite(originPolicy(cfg), { except: [STRIPE_WEBHOOK_PATH, "/api/auth/"] }));

  if (typeof clientFiles === "string") {
    app.use(
      "/assets",
      express.static(path.join(clientFiles, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    // Only paths that look like files reach the disk; page URLs go straight to the app.
    const publicFiles = express.static(clientFiles, { maxAge: "1h", index: false });
    app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  } else {
    app.use(clientFiles);
  }
  app.use(pageCache(db, { maxBytes: (pageCacheMb ?? cfg.PAGE_CACHE_MB) * 2 ** 20 }));
  app.all("/{*splat}", createRequestHandler({ build }));
  return app;
}
