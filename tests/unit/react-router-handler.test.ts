import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentResponse } from "../../server/http/document.ts";
import { reactRouterHandler } from "../../server/http/react-router-handler.ts";
import { stubBuild } from "../support/stub-build.ts";

let aborted = 0;
let seenUrl = "";
let seenHeaders: Record<string, string> = {};

/** A build whose routes answer with each kind of response the handler must pass on. */
const build = stubBuild(
  {
    // The document renderer: a page rendered whole, as app/entry.server.tsx renders one.
    default: (_request: Request, status: number, headers: Headers) => documentResponse(Buffer.from("<!DOCTYPE html><html><body>Größe £5</body></html>"), headers, status),
  },
  {
    root: { id: "root", path: "", module: { default: () => null } },
    page: { id: "page", parentId: "root", path: "page", module: { default: () => null, headers: () => ({ "Cache-Control": "no-store" }) } },
    cookies: {
      id: "cookies",
      parentId: "root",
      path: "cookies",
      module: {
        loader: ({ request }: { request: Request }) => {
          seenUrl = request.url;
          seenHeaders = Object.fromEntries(request.headers);
          const headers = new Headers({ "content-type": "text/plain", "x-one": "1" });
          headers.append("set-cookie", "a=1; Path=/; HttpOnly");
          headers.append("set-cookie", "b=2; Path=/; HttpOnly");
          return new Response("cookies", { status: 201, statusText: "Made", headers });
        },
      },
    },
    stream: {
      id: "stream",
      parentId: "root",
      path: "stream",
      module: {
        loader: () => {
          const chunks = ["one,", "two,", "three"];
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              const next = chunks.shift();
              if (next === undefined) controller.close();
              else controller.enqueue(new TextEncoder().encode(next));
            },
          });
          return new Response(body, { headers: { "content-type": "text/plain" } });
        },
      },
    },
    slow: {
      id: "slow",
      parentId: "root",
      path: "slow",
      module: {
        loader: ({ request }: { request: Request }) =>
          new Promise((resolve) =>
            request.signal.addEventListener("abort", () => {
              aborted++;
              resolve(new Response("gone"));
            }),
          ),
      },
    },
    echo: {
      id: "echo",
      parentId: "root",
      path: "echo",
      module: { action: async ({ request }: { request: Request }) => new Response(`got ${(await request.formData()).get("name")}`, { headers: { "content-type": "text/plain" } }) },
    },
  },
);

let server: Server;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader("X-Request-Id", "from-express");
    res.append("set-cookie", "early=0; Path=/");
    next();
  });
  app.all("/{*splat}", reactRouterHandler(build, "production"));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the Express handler for React Router", () => {
  it("sends a document rendered whole as its bytes, with their length and the route's headers", async () => {
    const res = await fetch(`${base}/page`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(body.toString("utf8")).toBe("<!DOCTYPE html><html><body>Größe £5</body></html>");
    expect(res.headers.get("content-length")).toBe(String(body.byteLength));
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBe("from-express");
  });

  it("answers HEAD for a document with its headers and no body", async () => {
    const res = await fetch(`${base}/page`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("passes on status, status text, headers and every cookie, after those Express set", async () => {
    const res = await fetch(`${base}/cookies?x=1`, { headers: { cookie: "c=3", "x-many": "v" } });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe("Made");
    expect(res.headers.get("x-one")).toBe("1");
    expect(res.headers.getSetCookie()).toEqual(["early=0; Path=/", "a=1; Path=/; HttpOnly", "b=2; Path=/; HttpOnly"]);
    expect(await res.text()).toBe("cookies");
    expect(seenUrl).toBe(`${base}/cookies?x=1`);
    expect(seenHeaders).toMatchObject({ cookie: "c=3", "x-many": "v" });
  });

  it("streams any other body as it comes", async () => {
    const res = await fetch(`${base}/stream`);
    expect(await res.text()).toBe("one,two,three");
  });

  it("gives a posted form to the action", async () => {
    const res = await fetch(`${base}/echo`, { method: "POST", body: new URLSearchParams({ name: "Ada" }), headers: { origin: base } });
    expect(await res.text()).toBe("got Ada");
  });

  it("aborts the request's signal when the client goes away", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/slow`, { signal: controller.signal }).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await pending;
    for (let i = 0; i < 50 && aborted === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toBe(1);
  });

  it("answers 404 for a path no route matches", async () => {
    const res = await fetch(`${base}/nowhere`);
    expect(res.status).toBe(404);
  });
});
