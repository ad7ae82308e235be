/**
 * Quick order's limits per client as well as per cart (issue 48): a request without the cart
 * cookie gets a new cart each time, so only the client's window (an IPv4 address, an IPv6 /64)
 * holds it. Driven through the real Express app (client address from X-Forwarded-For behind a
 * trusted proxy) and the real route module (its action and headers) in a stand-in build whose
 * document is its answer as JSON; bad input answers 4xx.
 */
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { QUICK_ORDER_CLIENT_LIMIT, QUICK_ORDER_LIMIT } from "../../server/trade/quick-order-action.ts";
import * as quickOrderRoute from "../../app/routes/quick-order.tsx";
import { stubBuild } from "../support/stub-build.ts";
import { freshDb, type TestDb } from "./databases.ts";
import { testAuthConfig } from "./auth-db.ts";
import { restoreEnv, serveStoreApp, type StoreApp } from "./store-app.ts";

const SITE = "https://shop.example";
// config() is read once per process, some of it while modules load.
const savedEnv = vi.hoisted(() => {
  const saved = {
    SITE_URL: process.env.SITE_URL,
    TRUST_PROXY: process.env.TRUST_PROXY,
    REDIS_URL: process.env.REDIS_URL,
    AUTH_TRUSTED_ORIGINS: process.env.AUTH_TRUSTED_ORIGINS,
  };
  process.env.SITE_URL = "https://shop.example";
  process.env.TRUST_PROXY = "true";
  delete process.env.REDIS_URL;
  delete process.env.AUTH_TRUSTED_ORIGINS;
  return saved;
});

describe("quick order is limited per client, not only per cart", () => {
  let t: TestDb;
  let app: StoreApp;
  let base: string;

  /** The document request's answer: its status, headers, and what the action returned or threw. */
  function build(): ServerBuild {
    const entry = {
      default: (
        _request: Request,
        status: number,
        headers: Headers,
        {
          staticHandlerContext: context,
        }: {
          staticHandlerContext: {
            actionData?: Record<string, unknown> | null;
            errors?: Record<string, { data?: unknown }> | null;
          };
        },
      ) => {
        const error = Object.values(context.errors ?? {})[0];
        headers.set("content-type", "application/json");
        return new Response(
          JSON.stringify({
            actionData: context.actionData ? Object.values(context.actionData)[0] : null,
            error: error ? (error.data ?? String(error)) : null,
          }),
          { status, headers },
        );
      },
    };
    return stubBuild(entry, {
      root: { id: "root", path: "", module: { default: () => null } },
      "routes/quick-order": {
        id: "routes/quick-order",
        parentId: "root",
        path: "quick-order",
        module: quickOrderRoute,
      },
    });
  }

  beforeAll(async () => {
    t = await freshDb("sqlite");
    await seedCatalog(t.db, { products: 5 });
    const cfg = testAuthConfig(SITE);
    app = await serveStoreApp(t.db, cfg, build(), { shareDb: true });
    base = app.base;
  });
  afterAll(async () => {
    await app?.close();
    restoreEnv(savedEnv);
    await t?.drop();
  });

  /** A browser's form post to SITE from `ip` through the proxy, without the cart cookie unless one is given. */
  const post = (ip: string, options: { cookie?: string; body?: BodyInit; type?: string | null } = {}) => {
    const headers: Record<string, string> = {
      origin: SITE,
      "x-forwarded-for": ip,
      "x-forwarded-host": "shop.example",
      "x-forwarded-proto": "https",
    };
    if (options.type !== null) headers["content-type"] = options.type ?? "application/x-www-form-urlencoded";
    if (options.cookie) headers.cookie = options.cookie;
    return fetch(`${base}/quick-order`, {
      method: "POST",
      headers,
      body: options.body ?? new URLSearchParams({ intent: "check", sku: "TH-0000001", quantity: "1" }),
      redirect: "manual",
    });
  };

  it("cookie-less checks from one address stop at the client's limit, with a reason and Retry-After; another address goes on", async () => {
    expect(QUICK_ORDER_CLIENT_LIMIT.max).toBeGreaterThan(QUICK_ORDER_LIMIT.max);
    const statuses: number[] = [];
    const carts = new Set<string>();
    for (let i = 0; i < QUICK_ORDER_CLIENT_LIMIT.max; i++) {
      const response = await post("203.0.113.7");
      statuses.push(response.status);
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith("guest="));
      if (cookie) carts.add(cookie.split(";")[0]);
      await response.arrayBuffer();
    }
    // Each answered, each with a cart of its own: the cart's limit never came into play.
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(carts.size).toBe(QUICK_ORDER_CLIENT_LIMIT.max);

    const refused = await post("203.0.113.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith("guest="))).toBe(false);
    // The page is shown again with the reason, and what was typed kept.
    const body = (await refused.json()) as {
      actionData: { ok: boolean; message: string; rows: { sku: string; quantity: string }[] };
    };
    expect(body.actionData).toMatchObject({ ok: false, rows: [{ sku: "TH-0000001", quantity: "1" }] });
    expect(body.actionData.message).toMatch(/^Too many checks in a short time\. Try again in \d+ seconds\.$/);
    // Even with a cart cookie from earlier: the client's window is full.
    expect((await post("203.0.113.7", { cookie: [...carts][0] })).status).toBe(429);

    const other = await post("203.0.113.8");
    expect(other.status).toBe(200);
    expect(((await other.json()) as { actionData: { message: string } }).actionData.message).toBe("1 line ready.");
  });

  it("an IPv6 client is one /64: rotating addresses inside it earns no fresh limit", async () => {
    for (let i = 0; i < QUICK_ORDER_CLIENT_LIMIT.max; i++) {
      const response = await post(`2001:db8:1:2::${(i + 1).toString(16)}`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect((await post("2001:db8:1:2:ffff:ffff:ffff:fffe")).status).toBe(429);
    expect((await post("2001:db8:1:3::1")).status).toBe(200);
  });

  it("the cart's own limit still holds for one cart", async () => {
    const first = await post("198.51.100.20");
    const cookie = first.headers
      .getSetCookie()
      .find((c) => c.startsWith("guest="))!
      .split(";")[0];
    let last = 200;
    for (let i = 1; i <= QUICK_ORDER_LIMIT.max; i++) {
      const response = await post("198.51.100.20", { cookie });
      last = response.status;
      await response.arrayBuffer();
    }
    expect(last).toBe(429);
    // A new cart from the same address, still under the client's limit, is served.
    expect((await post("198.51.100.20")).status).toBe(200);
  });

  it("refuses bad input with a 4xx, never a 500", async () => {
    const ip = "192.0.2.55";
    const lines = Array.from({ length: 501 }, (_, i) => `TH-${String(i + 1).padStart(7, "0")},1`).join("\n");
    const cases: [string, Parameters<typeof post>[1]][] = [
      ["JSON null", { body: "null", type: "application/json" }],
      ["no content type", { body: "intent=check", type: null }],
      [
        "a broken multipart body",
        {
          body: '--x\r\nContent-Disposition: form-data; name="csv"\r\n\r\nTH-1,1',
          type: "multipart/form-data; boundary=x",
        },
      ],
      ["more lines than allowed", { body: new URLSearchParams({ intent: "add", csv: lines }) }],
      [
        "quantities that are not numbers",
        { body: new URLSearchParams({ intent: "add", sku: "TH-0000001", quantity: "1e999" }) },
      ],
      [
        "mismatched row fields",
        {
          body: new URLSearchParams([
            ["intent", "add"],
            ["sku", "TH-0000001"],
            ["sku", "TH-0000002"],
            ["quantity", "-1"],
          ]),
        },
      ],
    ];
    for (const [name, options] of cases) {
      const response = await post(ip, options);
      expect(response.status, name).toBeGreaterThanOrEqual(200);
      expect(response.status, name).toBeLessThan(500);
      await response.arrayBuffer();
    }
  });
});
