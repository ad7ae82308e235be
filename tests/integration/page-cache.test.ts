import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_PAGE_CACHE_CONTROL } from "../../app/lib/cache-control.ts";
import { bumpCatalogVersion } from "../../server/catalog/version.ts";
import { pageCache, sharedMaxAge } from "../../server/http/page-cache.ts";
import { freshDb, type TestDb } from "./databases.ts";

/** An app whose /page renders its URL and a count behind the page cache; `?rule=` picks its Cache-Control. */
async function cachedApp(t: TestDb, maxBytes = 2 ** 20, onRender: (n: number) => Promise<void> | void = () => {}) {
  let renders = 0;
  const app = express();
  app.use(pageCache(t.db, { maxBytes }));
  app.get("/page", async (req, res) => {
    const n = ++renders;
    await onRender(n);
    res.setHeader("Cache-Control", typeof req.query.rule === "string" ? req.query.rule : SHARED_PAGE_CACHE_CONTROL);
    if (req.query.cookie) res.setHeader("Set-Cookie", "guest=new; HttpOnly");
    res.type("html").send(`<p>Café — ${req.originalUrl} render ${n}</p>${"x".repeat(Number(req.query.pad ?? 0))}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (url = "/page", headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${url}`, { headers });
    return { cache: response.headers.get("x-page-cache"), html: await response.text(), response };
  };
  return { get, renders: () => renders, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("sharedMaxAge: what a shared cache may keep, by the answer's own Cache-Control", () => {
  it("keeps public answers with an s-maxage, for that long", () => {
    expect(sharedMaxAge(SHARED_PAGE_CACHE_CONTROL)).toBe(30);
    expect(sharedMaxAge("public, s-maxage=5")).toBe(5);
  });
  it("keeps nothing private, unstorable or without a shared lifetime", () => {
    for (const rule of [
      "private, no-store",
      "public, max-age=60",
      "public, no-store, s-maxage=5",
      "private, s-maxage=5",
      "s-maxage=5",
      "",
      undefined,
    ]) {
      expect(sharedMaxAge(rule), String(rule)).toBeNull();
    }
  });
});

describe("the embedded store's page cache", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb("sqlite");
  });
  afterAll(() => t.drop());

  it("stores a shared page the second time it is asked for and serves it whole, headers included", async () => {
    const app = await cachedApp(t);
    try {
      expect((await app.get()).cache).toBeNull();
      const second = await app.get();
      expect(second.cache).toBeNull();
      const third = await app.get();
      expect(third.cache).toBe("hit");
      expect(third.html).toBe(second.html);
      expect(third.html).toContain("Café — /page render 2");
      expect(third.response.headers.get("cache-control")).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(third.response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(app.renders()).toBe(2);
    } finally {
      await app.close();
    }
  });

  it("never stores a personal answer, one with a Set-Cookie, or a request with a session cookie", async () => {
    const app = await cachedApp(t);
    try {
      for (const url of ["/page?rule=private,%20no-store", "/page?cookie=1"]) {
        for (let i = 0; i < 3; i++) expect((await app.get(url)).cache, url).toBeNull();
      }
      await app.get();
      await app.get();
      expect((await app.get()).cache).toBe("hit");
      const signedIn = await app.get("/page", { cookie: "better-auth.session_token=abc" });
      expect(signedIn.cache).toBeNull();
      expect(signedIn.html).toContain(`render ${app.renders()}`);
      expect((await app.get("/page", { cookie: "__Secure-better-auth.session_token=abc" })).cache).toBeNull();
    } finally {
      await app.close();
    }
  });

  it("renders afresh once the catalog version moves, and never serves a page from before the change", async () => {
    const app = await cachedApp(t);
    try {
      await app.get();
      await app.get();
      expect((await app.get()).html).toContain("render 2");
      await bumpCatalogVersion(t.db);
      expect((await app.get()).html).toContain("render 3");
      expect((await app.get()).html).toContain("render 3");
    } finally {
      await app.close();
    }
  });

  it("never keeps a render against a version older than a change committed during it", async () => {
    const app = await cachedApp(t, 2 ** 20, (n) => (n === 2 ? bumpCatalogVersion(t.db) : undefined));
    try {
      expect((await app.get()).html).toContain("render 1");
      expect((await app.get()).html).toContain("render 2");
      expect((await app.get()).html).toContain("render 3");
      expect((await app.get()).html).toContain("render 3");
      expect(app.renders()).toBe(3);
    } finally {
      await app.close();
    }
  });

  it("renders an expired page again, serving the stored one to others meanwhile", async () => {
    let release: () => void = () => {};
    const app = await cachedApp(t, 2 ** 20, (n) =>
      n === 3 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    );
    try {
      await app.get("/page?rule=public,%20s-maxage=1");
      await app.get("/page?rule=public,%20s-maxage=1");
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const refreshing = app.get("/page?rule=public,%20s-maxage=1");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const meanwhile = await app.get("/page?rule=public,%20s-maxage=1");
      expect(meanwhile.cache).toBe("stale");
      expect(meanwhile.html).toContain("render 2");
      release();
      expect((await refreshing).html).toContain("render 3");
      expect((await app.get("/page?rule=public,%20s-maxage=1")).cache).toBe("hit");
    } finally {
      await app.close();
    }
  });

  it("holds as many pages as its memory does, the oldest dropped first, and nothing with no memory", async () => {
    const app = await cachedApp(t, 16 * 1024);
    try {
      for (let i = 0; i < 30; i++) {
        await app.get(`/page?pad=1000&i=${i}`);
        await app.get(`/page?pad=1000&i=${i}`);
      }
      const newest = await Promise.all([29, 28, 27].map(async (i) => (await app.get(`/page?pad=1000&i=${i}`)).cache));
      const oldest = await Promise.all([0, 1, 2].map(async (i) => (await app.get(`/page?pad=1000&i=${i}`)).cache));
      expect(newest).toEqual(["hit", "hit", "hit"]);
      expect(oldest).toEqual([null, null, null]);
    } finally {
      await app.close();
    }
    const off = await cachedApp(t, 0);
    try {
      for (let i = 0; i < 4; i++) expect((await off.get()).cache).toBeNull();
    } finally {
      await off.close();
    }
  });
});
