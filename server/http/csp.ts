import { createHash } from "node:crypto";
import type express from "express";
import helmet from "helmet";
import { checkoutPageOrigins } from "../payments/stripe.ts";

const HASHES_SLOT = "'__SCRIPT_HASHES__'";

const HELMET_OPTIONS = (): Parameters<typeof helmet>[0] => ({
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      // Scripts are files of our own; a document's inline scripts (React Router's hydration data)
      // are allowed by their hashes, which stay true when a cache stores the page (a nonce would not).
      "script-src": ["'self'", HASHES_SLOT],
      "img-src": ["'self'", "data:"],
      "frame-src": ["https://www.openstreetmap.org"],
      "connect-src": ["'self'"],
      // `npm run dev` only: Vite's client checks the dev server from a worker made from a blob.
      ...(process.env.NODE_ENV === "development" ? { "worker-src": ["'self'", "blob:"] } : {}),
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
});

export const CSP_HEADER = "Content-Security-Policy";

let computed: { headers: [string, string][]; policy: string } | undefined;

/** Helmet's headers, worked out once (helmet's middlewares are synchronous header setters). */
function helmetHeaders() {
  if (computed) return computed;
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let finished = false;
  helmet(HELMET_OPTIONS())({} as express.Request, res as unknown as express.Response, () => (finished = true));
  if (!finished) throw new Error("helmet did not finish synchronously");
  const policy = headers.get(CSP_HEADER) ?? "";
  headers.delete(CSP_HEADER);
  computed = { headers: [...headers], policy };
  return computed;
}

/** The security headers every answer carries, except the CSP (contentSecurityPolicy). */
export function securityHeaders(): readonly [string, string][] {
  return helmetHeaders().headers;
}

/** The CSP: no inline script at all, or only the ones with these hashes ('sha256-…'). */
export function contentSecurityPolicy(scriptHashes: readonly string[] = []): string {
  return helmetHeaders().policy.replace(scriptHashes.length ? HASHES_SLOT : ` ${HASHES_SLOT}`, scriptHashes.join(" "));
}

const SCRIPT_OPEN = Buffer.from("<script");
const SCRIPT_CLOSE = Buffer.from("</script>");
const TAG_END = 0x3e; // ">"
/** What may follow "<script" in a script's tag: ">" or white space (not "<scripts", say). */
const AFTER_NAME = new Set([TAG_END, 0x20, 0x09, 0x0a, 0x0c, 0x0d, 0x2f]);

/**
 * The CSP source of each distinct inline script in a document ('sha256-<base64>'). Reads the bytes
 * as they are (a document is 20–100 KB; its scripts are found without decoding it to a string).
 */
export function inlineScriptHashes(html: string | Buffer): string[] {
  const bytes = typeof html === "string" ? Buffer.from(html, "utf8") : html;
  const hashes = new Set<string>();
  let at = bytes.indexOf(SCRIPT_OPEN);
  while (at !== -1) {
    const tagEnd = bytes.indexOf(TAG_END, at);
    if (tagEnd === -1) break;
    let next = tagEnd + 1;
    if (AFTER_NAME.has(bytes[at + SCRIPT_OPEN.length]) && !/\ssrc=/.test(bytes.toString("latin1", at, tagEnd))) {
      const close = bytes.indexOf(SCRIPT_CLOSE, tagEnd + 1);
      if (close === -1) break;
      hashes.add(
        `'sha256-${createHash("sha256")
          .update(bytes.subarray(tagEnd + 1, close))
          .digest("base64")}'`,
      );
      next = close + SCRIPT_CLOSE.length;
    }
    at = bytes.indexOf(SCRIPT_OPEN, next);
  }
  return [...hashes];
}
