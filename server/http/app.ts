import { randomBytes } from "node:crypto";
import path from "node:path";
import compression from "compression";
import express, { type Express } from "express";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import { DOCUMENT_REQUEST_HEADER } from "../../app/lib/document-request.ts";
import { NONCE_HEADER } from "../../app/lib/nonce.ts";
import { CLIENT_IP_HEADER, getAuth } from "../auth/auth.ts";
import { originPolicy } from "../auth/origins.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { authRouter } from "./auth-routes.ts";
import { opsRouter } from "./ops-routes.ts";
import { paymentRouter, STRIPE_WEBHOOK_PATH } from "./payment-routes.ts";
import { refuseCrossSite } from "../security/cross-site.ts";
import { checkoutPageOrigins } from "../payments/stripe.ts";
import { requestLog } from "./request-log.ts";
import { bodyLimit, storeBodyLimit } from "./body-limit.ts";
import { pageCache } from "./page-cache.ts";
import { reactRouterHandler } from "./react-router-handler.ts";
import { buildWithRoute, PAGES_WITH_OWN_TABLE } from "./route-table.ts";

const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
      "img-src": ["'self'", "data:"],
      "frame-src": ["https://www.openstreetmap.org"],
      "connect-src": ["'self'"],
      // A card checkout's form answers with a redirect to Stripe's payment page.
      "form-action": ["'self'", ...checkoutPageOrigins()],
      "upgrade-insecure-requests": null,
    },
  },
  crossOriginEmbedderPolicy: false,
  // The Google sign-in popup must keep its opener after it returns from the provider.
  crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
  // "no-referrer" would make browsers send `Origin: null` on form posts, which fails origin checks.
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  strictTransportSecurity: process.env.NODE_ENV === "production" && !/^http:/.test(process.env.SITE_URL ?? "http:"),
};

const NONCE_SLOT = "__CSP_NONCE__";

/**
 * Helmet's security headers, worked out once with a placeholder for the CSP nonce; every reply
 * sets them with its own nonce spliced in, instead of running helmet's dozen middlewares each time.
 */
function helmetHeaders(): [name: string, value: string, hasNonce: boolean][] {
  const headers = new Map<string, string>();
  const res = {
    locals: { cspNonce: NONCE_SLOT },
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let finished = false;
  helmet(HELMET_OPTIONS)({} as express.Request, res as unknown as express.Response, () => (finished = true));
  if (!finished) throw new Error("helmet did not finish synchronously");
  return [...headers].map(([name, value]) => [name, value, value.includes(NONCE_SLOT)]);
}

/** Catalog and content pages whose anonymous HTML may be micro-cached (see page-cache.ts). */
const CACHEABLE_PAGES = /^\/(?:shop(?:\/\d{1,10})?|about|faq|contact|blogs(?:\/[a-z0-9-]+)?)?\/?$/;

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
  build: ServerBuild;
  clientDir: string;
  db: Db;
}

export function createHttpApp({ build, clientDir, db }: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  const cfg = config();
  // Only the proxies named in TRUST_PROXY may say who the client is; by default nobody can.
  app.set("trust proxy", trustProxySetting(cfg.TRUST_PROXY));
  const fromTrustedProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  app.use(requestLog({ trustRequestId: (req) => fromTrustedProxy(req.socket.remoteAddress ?? "", 0) }));

  app.use((req, res, next) => {
    // The only client address the app trusts; a value sent by the client is overwritten.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    req.headers[NONCE_HEADER] = nonce;
    // Only this server says which requests are for a document (never the client).
    if (req.method === "GET" && !req.path.endsWith(".data")) req.headers[DOCUMENT_REQUEST_HEADER] = "1";
    else delete req.headers[DOCUMENT_REQUEST_HEADER];
    next();
  });
  const securityHeaders = helmetHeaders();
  app.use((_req, res, next) => {
    const nonce = String(res.locals.cspNonce);
    for (const [name, value, hasNonce] of securityHeaders) res.setHeader(name, hasNonce ? value.replaceAll(NONCE_SLOT, nonce) : value);
    next();
  });
  // Handlers build each request's URL from Host, X-Forwarded-Host and X-Forwarded-Proto (Better
  // Auth reads X-Forwarded-Proto whoever sent it): a host that isn't a plain host[:port], or a
  // protocol other than http(s), is the client's error (400, not a 500 from `new URL`), and
  // X-Forwarded-Proto is reduced to the protocol Express trusted.
  app.use((req, res, next) => {
    const protocol = req.protocol;
    const hosts = [req.headers.host, req.host].filter((h): h is string => typeof h === "string");
    if ((protocol !== "http" && protocol !== "https") || hosts.some((h) => !PLAIN_HOST.test(h) || !URL.canParse(`${protocol}://${h}`))) {
      res.status(400).type("text/plain").send("Bad Request");
      return;
    }
    if (req.headers["x-forwarded-proto"] !== undefined) req.headers["x-forwarded-proto"] = protocol;
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

  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // Only paths that look like files reach the disk; page URLs go straight to the app.
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  app.use(pageCache(db, { paths: CACHEABLE_PAGES, maxBytes: cfg.PAGE_CACHE_MB * 2 ** 20 }));
  for (const { path: pagePath, routeId } of PAGES_WITH_OWN_TABLE) {
    const ownBuild = buildWithRoute(build, routeId);
    if (!ownBuild) continue;
    const pages = reactRouterHandler(ownBuild);
    app.use((req, res, next) => (pagePath.test(req.path) ? pages(req, res, next) : next()));
  }
  app.all("/{*splat}", reactRouterHandler(build));
  return app;
}
