import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpCatalogVersion } from "../../server/catalog/version.ts";
import { pageCache, type PageCacheOptions } from "../../server/http/page-cache.ts";
import { freshDb, type TestDb } from "./databases.ts";

const nonces = (html: string) => [...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);

/** An app whose /page renders its URL and a count, behind the page cache. */
async function cachedApp(t: TestDb, options: Omit<PageCacheOptions, "paths"> = {}, onRender: (n: number) => Promise<void> | void = () => {}) {
  let renders = 0;
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(pageCache(t.db, { paths: /^\/page$/, ...options }));
  app.get("/page", async (req, res) => {
    const n = ++renders;
    await onRender(n);
    const nonce = res.locals.cspNonce as string;
    res.type("html").send(`<script nonce="${nonce}">a()</script><p>Café — ${req.originalUrl} render ${n}</p>${"x".repeat(Number(req.query.pad ?? 0))}<script nonce="${nonce}">b()</script>`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, renders: () => renders, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("page micro-cache", () => {
  let t: TestDb;
  let app: Awaited<ReturnType<typeof cachedApp>>;

  beforeAll(async () => {
    t = await freshDb("sqlite");
    app = await cachedApp(t);
  });
  afterAll(async () => {
    await app.close();
    await t.drop();
  });

  it("stores a page the second time it is asked for, then serves it with this reply's nonce wherever the old one was", async () => {
    const once = await fetch(`${app.base}/page`);
    expect(once.headers.get("x-page-cache")).toBeNull();
    expect(await once.text()).toContain("render 1");
    const first = await fetch(`${app.base}/page`);
    const firstHtml = await first.text();
    expect(first.headers.get("x-page-cache")).toBeNull();
    expect(firstHtml).toContain("render 2");
    const second = await fetch(`${app.base}/page`);
    const secondHtml = await second.text();
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("content-type")).toMatch(/^text\/html/);
    expect(secondHtml).toContain("Café — /page render 2");
    expect(app.renders()).toBe(2);
    const [a, b] = nonces(secondHtml);
    expect(a).toBe(b);
    expect(a).not.toBe(nonces(firstHtml)[0]);
    expect(secondHtml.replaceAll(a!, "N")).toBe(firstHtml.replaceAll(nonces(firstHtml)[0]!, "N"));
    // Its length, and no ETag: with a fresh nonce in every reply, one could never match.
    expect(second.headers.get("content-length")).toBe(String(Buffer.byteLength(secondHtml)));
    expect(second.headers.get("etag")).toBeNull();
  });

  it("renders afresh once the catalog version moves, and never caches for a visitor with a cookie", async () => {
    await bumpCatalogVersion(t.db);
    expect(await (await fetch(`${app.base}/page`)).text()).toContain("render 3");
    const personal = await fetch(`${app.base}/page`, { headers: { cookie: "guest=abc" } });
    expect(personal.headers.get("x-page-cache")).toBeNull();
    expect(await personal.text()).toContain("render 4");
    expect(await (await fetch(`${app.base}/page`)).text()).toContain("render 3");
  });
});

describe("page micro-cache: what a page is kept against", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb("sqlite");
  });
  afterAll(() => t.drop());

  it("never serves a page whose render saw a change committed after the version it was kept against", async () => {
    // Another process commits a stock change while the second request renders the page.
    const app = await cachedApp(t, {}, (n) => (n === 2 ? bumpCatalogVersion(t.db) : undefined));
    try {
      const text = async () => (await fetch(`${app.base}/page`)).text();
      expect(await text()).toContain("render 1");
      expect(await text()).toContain("render 2");
      expect(await text()).toContain("render 3");
      expect(await text()).toContain("render 3");
      expect(app.renders()).toBe(3);
    } finally {
      await app.close();
    }
  });

  it("renders a page again, never serves stale, when the version moved before a page was first kept", async () => {
    const app = await cachedApp(t);
    try {
      const text = async (url = "/page") => (await fetch(`${app.base}${url}`)).text();
      await text();
      await text();
      expect(await text()).toContain("render 2"); // a hit: the version has been read
      await bumpCatalogVersion(t.db);
      // A new page, asked twice: the second render is kept against the version read last (before
      // the bump), so the next request reads the version, finds it moved and renders again.
      await text("/page?other");
      expect(await text("/page?other")).toContain("render 4");
      expect(await text("/page?other")).toContain("render 5");
      expect(await text("/page?other")).toContain("render 5");
    } finally {
      await app.close();
    }
  });

  it("holds as many pages as its memory does, the oldest overwritten first, each served whole and as its own", async () => {
    const pad = 1000;
    const app = await cachedApp(t, { maxBytes: 16 * 1024 });
    try {
      const get = async (i: number) => {
        const res = await fetch(`${app.base}/page?pad=${pad}&i=${i}`);
        return { hit: res.headers.get("x-page-cache") === "hit", html: await res.text() };
      };
      for (let i = 0; i < 30; i++) {
        await get(i);
        await get(i);
      }
      // 16 KiB holds about a dozen pages of 1 KB: the newest are hits, the oldest were overwritten.
      const newest = [];
      for (let i = 29; i >= 25; i--) newest.push({ i, ...(await get(i)) });
      const oldest = [];
      for (let i = 0; i < 5; i++) oldest.push({ i, ...(await get(i)) });
      for (const { i, html } of [...newest, ...oldest]) {
        expect(html).toContain(`/page?pad=${pad}&i=${i} render`);
        expect(html.length).toBeGreaterThan(pad);
      }
      expect(newest.map((r) => r.hit)).toEqual([true, true, true, true, true]);
      expect(oldest.map((r) => r.hit)).toEqual([false, false, false, false, false]);
    } finally {
      await app.close();
    }
  });

  it("keeps nothing with no memory, and nothing larger than a quarter of it", async () => {
    for (const [maxBytes, pad] of [[0, 0], [8 * 1024, 3000]] as const) {
      const app = await cachedApp(t, { maxBytes });
      try {
        for (let i = 0; i < 4; i++) expect((await fetch(`${app.base}/page?pad=${pad}`)).headers.get("x-page-cache")).toBeNull();
        expect(app.renders()).toBe(4);
      } finally {
        await app.close();
      }
    }
  });
});
