/**
 * The storefront's one cross-site check (server/security/cross-site.ts, issue 48) in the real
 * Express app (createHttpApp) in front of a stand-in build whose routes count the actions that ran:
 * /cart, /wishlist, /logout and /contact (and their .data twins) refuse a POST that a browser says
 * came from another site, whatever its Origin; the store's own forms and non-browser clients pass;
 * Stripe's webhook and Better Auth's handler keep their own checks.
 */
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { STRIPE_WEBHOOK_PATH } from "../../server/http/payment-routes.ts";
import { CROSS_SITE_REFUSED, isCrossSiteRequest } from "../../server/security/cross-site.ts";
import { stubBuild } from "../support/stub-build.ts";
import { freshDb, type TestDb } from "./databases.ts";
import { testAuthConfig } from "./auth-db.ts";
import { restoreEnv, serveStoreApp, type StoreApp } from "./store-app.ts";

const SITE = "https://shop.example";
// config() is read once per process, some of it while modules load: the store as deployed at SITE.
const savedEnv = vi.hoisted(() => {
  const saved = { SITE_URL: process.env.SITE_URL, AUTH_TRUSTED_ORIGINS: process.env.AUTH_TRUSTED_ORIGINS };
  process.env.SITE_URL = "https://shop.example";
  delete process.env.AUTH_TRUSTED_ORIGINS;
  return saved;
});
const STOREFRONT_POSTS = ["/cart", "/wishlist", "/logout", "/contact"];

describe("the storefront refuses state-changing requests from another site", () => {
  let t: TestDb;
  let app: StoreApp;
  let base: string;
  const ran: string[] = [];

  function build(): ServerBuild {
    const route = (id: string, path: string) => ({
      id,
      parentId: "root",
      path,
      module: {
        action: async ({ request }: { request: Request }) => {
          ran.push(`${request.method} ${new URL(request.url).pathname}`);
          return new Response("done", { headers: { "content-type": "text/plain" } });
        },
        loader: () => new Response("page", { headers: { "content-type": "text/plain" } }),
      },
    });
    return stubBuild(
      { default: () => new Response("document") },
      {
        root: { id: "root", path: "", module: { default: () => null } },
        ...Object.fromEntries(STOREFRONT_POSTS.map((p) => [p.slice(1), route(p.slice(1), p.slice(1))])),
      },
    );
  }

  beforeAll(async () => {
    t = await freshDb("sqlite");
    const cfg = testAuthConfig(SITE);
    app = await serveStoreApp(t.db, cfg, build());
    base = app.base;
  });
  afterAll(async () => {
    await app?.close();
    restoreEnv(savedEnv);
    await t?.drop();
  });

  const post = (path: string, headers: Record<string, string>, body = "quantity=1") =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body,
      redirect: "manual",
    });

  it.each(STOREFRONT_POSTS)(
    "%s: Sec-Fetch-Site cross-site is refused with a reason, with no Origin or a trusted one",
    async (path) => {
      ran.length = 0;
      const variants: Record<string, string>[] = [
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "cross-site", origin: SITE },
        { "sec-fetch-site": "Cross-Site" },
      ];
      for (const headers of variants) {
        const response = await post(path, headers);
        expect(response.status, JSON.stringify(headers)).toBe(403);
        expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(await response.text()).toBe(CROSS_SITE_REFUSED);
      }
      expect(ran).toEqual([]);
    },
  );

  it.each(STOREFRONT_POSTS)("%s: an Origin that is not trusted is refused, also on the .data request", async (path) => {
    ran.length = 0;
    for (const [target, headers] of [
      [path, { origin: "https://evil.example" }],
      [path, { origin: "https://evil.example", "sec-fetch-site": "same-origin" }],
      [path, { origin: "null" }],
      [path, { "sec-fetch-site": "same-site" }],
      [`${path}.data`, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
    ] as const) {
      const response = await post(target, headers);
      expect(response.status, `${target} ${JSON.stringify(headers)}`).toBe(403);
      expect(await response.text()).toBe(CROSS_SITE_REFUSED);
    }
    expect(ran).toEqual([]);
  });

  it.each(STOREFRONT_POSTS)(
    "%s: the store's own form post, a same-origin fetch and a client without browser headers pass",
    async (path) => {
      ran.length = 0;
      expect((await post(path, { origin: SITE })).status).toBe(200);
      expect((await post(path, { origin: `${SITE}/`, "sec-fetch-site": "same-origin" })).status).toBe(200);
      expect((await post(path, {})).status).toBe(200);
      expect(ran).toEqual([`POST ${path}`, `POST ${path}`, `POST ${path}`]);
    },
  );

  it("reading a page from another site is not refused: only state-changing methods are checked", async () => {
    const page = await fetch(`${base}/cart`, {
      headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    });
    expect(page.status).toBe(200);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const response = await fetch(`${base}/cart`, { method, headers: { "sec-fetch-site": "cross-site" } });
      expect(response.status, method).toBe(403);
    }
  });

  it("Stripe's webhook (server to server, signed) and Better Auth's handler are left to their own checks", async () => {
    // Card payments are off in this app: the webhook's own answer, not the cross-site refusal.
    const webhook = await post(
      STRIPE_WEBHOOK_PATH,
      { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      "{}",
    );
    expect(webhook.status).toBe(404);
    expect(await webhook.text()).not.toContain(CROSS_SITE_REFUSED);
    const auth = await fetch(`${base}/api/auth/sign-out`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: "{}",
    });
    expect(await auth.text()).not.toBe(CROSS_SITE_REFUSED);
  });
});

describe("isCrossSiteRequest", () => {
  const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });
  const policy = { allowed: ["https://shop.example"], sameLoopbackHost: false };
  const loopback = { allowed: ["http://127.0.0.1:3000", "http://localhost:3000"], sameLoopbackHost: true };

  it("refuses cross-site whatever the Origin, and untrusted origins", () => {
    expect(isCrossSiteRequest(headers({ "sec-fetch-site": "cross-site" }), policy)).toBe(true);
    expect(
      isCrossSiteRequest(headers({ "sec-fetch-site": "cross-site", origin: "https://shop.example" }), policy),
    ).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: "https://evil.example" }), policy)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: "null" }), policy)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: "http://localhost:3000", host: "127.0.0.1:3000" }), loopback)).toBe(
      true,
    );
  });

  it("lets the store's own origin and non-browser clients through", () => {
    expect(isCrossSiteRequest(headers({ origin: "https://shop.example" }), policy)).toBe(false);
    expect(
      isCrossSiteRequest(headers({ origin: "https://shop.example", "sec-fetch-site": "same-origin" }), policy),
    ).toBe(false);
    expect(isCrossSiteRequest(headers({ "sec-fetch-site": "none" }), policy)).toBe(false);
    expect(isCrossSiteRequest(headers({}), policy)).toBe(false);
    expect(isCrossSiteRequest(headers({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }), loopback)).toBe(
      false,
    );
  });
});
