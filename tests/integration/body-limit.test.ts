import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth, useAuthForTests } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import { createHttpApp } from "../../server/http/app.ts";
import { MAX_FORM_BYTES } from "../../server/http/body-limit.ts";
import { stubBuild as stubServerBuild } from "../support/stub-build.ts";
import { freshDb, type TestDb } from "./databases.ts";

const MB = 1024 * 1024;
const FORM_PATHS = [
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/account",
  "/cart",
  "/checkout",
  "/login.data",
];

/**
 * The real Express app (createHttpApp: security headers, the auth API, the page cache, React
 * Router) in front of a stand-in build whose one route reads the posted form the way an
 * unguarded action would, with request.formData(): whatever reaches it gets buffered.
 */
function stubBuild(onForm: (form: FormData) => void): ServerBuild {
  const action = async ({ request }: { request: Request }) => {
    const form = await request.formData();
    onForm(form);
    return new Response(`read ${String(form.get("name") ?? "").length}`, { headers: { "content-type": "text/plain" } });
  };
  return stubServerBuild(
    { default: () => new Response("document") },
    {
      root: { id: "root", path: "", module: { default: () => null } },
      any: { id: "any", parentId: "root", path: "*", module: { action } },
      // Like the back office's guard: answers (a redirect) before reading the body.
      answersFirst: {
        id: "answersFirst",
        parentId: "root",
        path: "admin/products/:id",
        module: { action: () => new Response(null, { status: 302, headers: { location: "/login" } }) },
      },
    },
  );
}

interface Answer {
  status: number;
  ms: number;
  body: string;
}

/**
 * Posts `total` bytes of a form field in 64 KiB writes, chunked unless `contentLength` is given,
 * honouring back-pressure; settles as soon as the server answers (the rest is never sent).
 */
function post(
  url: string,
  total: number,
  options: { contentLength?: number; contentType?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string | number> = {
      "content-type": options.contentType ?? "application/x-www-form-urlencoded",
    };
    if (options.contentLength !== undefined) headers["content-length"] = options.contentLength;
    const req = http.request(url, { method: "POST", headers });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const ms = performance.now() - started;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      const done = () => {
        resolve({ status: res.statusCode ?? 0, ms, body });
        req.destroy();
      };
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < total) {
        const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.write("name=");
    pump();
  });
}

describe("one cap on request bodies, in front of every form route", () => {
  let t: TestDb;
  let server: http.Server;
  let base: string;
  let formsRead = 0;

  beforeAll(async () => {
    t = await freshDb("sqlite");
    const cfg = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "integration-secret-0123456789abcdef0123" });
    await migrateAuth(t.db, cfg);
    useAuthForTests(createAuth(t.db, cfg));
    const app = createHttpApp({ build: stubBuild(() => formsRead++), clientFiles: "build/client", db: t.db });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    useAuthForTests(undefined);
    await t.drop();
  });

  it("closes the connection after an answer that left the body unread, so the next request on a kept-alive socket is answered", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (method: string, path: string, body?: Buffer, type = "multipart/form-data; boundary=x") =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request(
          `${base}${path}`,
          { agent, method, timeout: 5_000, headers: body ? { "content-type": type } : {} },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer`)));
        req.on("error", reject);
        req.end(body);
      });
    const first = await ask("POST", "/admin/products/1", Buffer.alloc(512 * 1024, "a"));
    expect(first).toEqual({ status: 302, connection: "close" });
    expect((await ask("POST", "/anything", Buffer.from("name=ok"), "application/x-www-form-urlencoded")).status).toBe(
      200,
    );
    agent.destroy();
  });

  it("answers a chunked 20 MB body with 413 at once, on every form route, and the route never reads it", async () => {
    const before = formsRead;
    for (const path of FORM_PATHS) {
      const answer = await post(`${base}${path}`, 20 * MB);
      expect(answer.status, path).toBe(413);
      expect(answer.ms, path).toBeLessThan(2000);
      expect(answer.body).toBe("The request body is too large.");
    }
    expect(formsRead).toBe(before);
  });

  it("answers a declared Content-Length over the cap with 413 before any of the body is read", async () => {
    for (const path of FORM_PATHS) {
      const answer = await post(`${base}${path}`, 64 * 1024, { contentLength: 20 * MB });
      expect(answer.status, path).toBe(413);
      expect(answer.ms, path).toBeLessThan(2000);
    }
  });

  it("holds memory flat while five 20 MB chunked bodies arrive at once", async () => {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const answers = await Promise.all(
      ["/login", "/register", "/forgot-password", "/reset-password", "/account"].map((p) =>
        post(`${base}${p}`, 20 * MB),
      ),
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(answers.map((a) => a.status)).toEqual([413, 413, 413, 413, 413]);
    expect(peak - baseline).toBeLessThan(20 * MB);
  });

  it("lets a normal form through, chunked or not, up to the cap", async () => {
    const small = await post(`${base}/login`, 2000, { contentLength: 2005 });
    expect(small).toMatchObject({ status: 200, body: "read 2000" });
    const chunked = await post(`${base}/register`, MAX_FORM_BYTES - 5);
    expect(chunked).toMatchObject({ status: 200, body: `read ${MAX_FORM_BYTES - 5}` });
    const justOver = await post(`${base}/register`, MAX_FORM_BYTES - 4);
    expect(justOver.status).toBe(413);
  });

  it("gives the contact form room for a long message in any script", async () => {
    const answer = await post(`${base}/contact`, 60 * 1024);
    expect(answer).toMatchObject({ status: 200, body: `read ${60 * 1024}` });
    expect((await post(`${base}/contact`, 20 * MB)).status).toBe(413);
  });

  it("accepts chunked JSON under the auth API's cap, and refuses more", async () => {
    const json = JSON.stringify({
      email: "nobody@example.com",
      password: "Wrong-Password-1",
      padding: "x".repeat(30 * 1024),
    });
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      for (let i = 0; i < json.length; i += 4096) req.write(json.slice(i, i + 4096));
      req.end();
    });
    expect(chunked).toBe(401);
    expect((await post(`${base}/api/auth/sign-in/email`, 20 * MB, { contentType: "application/json" })).status).toBe(
      413,
    );
    expect(
      (await post(`${base}/api/auth/sign-in/email`, 1024, { contentType: "application/json", contentLength: MB }))
        .status,
    ).toBe(413);
  });
});
