import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpCatalogVersion } from "../../server/catalog/version.ts";
import { pageCache } from "../../server/http/page-cache.ts";
import { freshDb, type TestDb } from "./databases.ts";

describe("page micro-cache", () => {
  let t: TestDb;
  let base: string;
  let server: ReturnType<express.Express["listen"]>;
  let renders = 0;

  beforeAll(async () => {
    t = await freshDb("sqlite");
    const app = express();
    app.use((_req, res, next) => {
      res.locals.cspNonce = randomBytes(16).toString("base64");
      next();
    });
    app.use(pageCache(t.db, { paths: /^\/page$/ }));
    app.get("/page", (_req, res) => {
      renders++;
      const nonce = res.locals.cspNonce as string;
      res.type("html").send(`<script nonce="${nonce}">a()</script><p>Café — render ${renders}</p><script nonce="${nonce}">b()</script>`);
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.drop();
  });

  const nonces = (html: string) => [...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);

  it("stores a page the second time it is asked for, then serves it with this reply's nonce wherever the old one was", async () => {
    const once = await fetch(`${base}/page`);
    expect(once.headers.get("x-page-cache")).toBeNull();
    expect(await once.text()).toContain("render 1");
    const first = await fetch(`${base}/page`);
    const firstHtml = await first.text();
    expect(first.headers.get("x-page-cache")).toBeNull();
    expect(firstHtml).toContain("render 2");
    const second = await fetch(`${base}/page`);
    const secondHtml = await second.text();
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("content-type")).toMatch(/^text\/html/);
    expect(secondHtml).toContain("Café — render 2");
    expect(renders).toBe(2);
    const [a, b] = nonces(secondHtml);
    expect(a).toBe(b);
    expect(a).not.toBe(nonces(firstHtml)[0]);
    expect(secondHtml.replaceAll(a!, "N")).toBe(firstHtml.replaceAll(nonces(firstHtml)[0]!, "N"));
  });

  it("renders afresh once the catalog version moves, and never caches for a visitor with a cookie", async () => {
    await bumpCatalogVersion(t.db);
    expect(await (await fetch(`${base}/page`)).text()).toContain("render 3");
    const personal = await fetch(`${base}/page`, { headers: { cookie: "guest=abc" } });
    expect(personal.headers.get("x-page-cache")).toBeNull();
    expect(await personal.text()).toContain("render 4");
    expect(await (await fetch(`${base}/page`)).text()).toContain("render 3");
  });
});
