import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../server/db/connection.ts";
import { lifecycle } from "../../server/http/lifecycle.ts";
import { opsRouter } from "../../server/http/ops-routes.ts";
import { requestLog } from "../../server/http/request-log.ts";
import { shutDownGracefully } from "../../server/http/shutdown.ts";
import { countPlacedOrder, registerDatabaseGauges } from "../../server/ops/metrics.ts";
import { freshDb, type TestDb } from "./databases.ts";

const redisUrl = process.env.REDIS_URL;

async function listen(app: express.Express): Promise<{ base: string; server: http.Server }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
const close = (server: http.Server) => new Promise((resolve) => server.close(resolve));

describe("/healthz, /readyz and /metrics", () => {
  let t: TestDb;
  const servers: http.Server[] = [];
  const start = async (db: TestDb["db"], cfg: { REDIS_URL?: string; METRICS_ALLOW: string }) => {
    const app = express();
    app.use(opsRouter(db, cfg));
    const s = await listen(app);
    servers.push(s.server);
    return s.base;
  };
  beforeAll(async () => {
    t = await freshDb("sqlite");
    registerDatabaseGauges(t.db);
  });
  afterEach(() => {
    lifecycle.draining = false;
  });
  afterAll(async () => {
    await Promise.all(servers.map(close));
    await t.drop();
  });

  it("/healthz says the process is alive; /readyz checks the database, the migrations and Redis when configured", async () => {
    const base = await start(t.db, { REDIS_URL: redisUrl, METRICS_ALLOW: "loopback" });
    const alive = await fetch(`${base}/healthz`);
    expect(alive.status).toBe(200);
    expect(alive.headers.get("cache-control")).toBe("no-store");
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      ok: true,
      checks: { database: "ok", migrations: "ok", ...(redisUrl ? { redis: "ok" } : {}) },
    });
  });

  it("/readyz answers 503 when Redis is unreachable, when migrations are pending, and while draining", async () => {
    const noRedis = await start(t.db, { REDIS_URL: "redis://127.0.0.1:1", METRICS_ALLOW: "loopback" });
    const r1 = await fetch(`${noRedis}/readyz`);
    expect(r1.status).toBe(503);
    expect((await r1.json()).checks.redis).toBe("unreachable");

    const unmigrated = createDb({ kind: "sqlite", sqlitePath: ":memory:" });
    const pending = await start(unmigrated, { METRICS_ALLOW: "loopback" });
    const r2 = await fetch(`${pending}/readyz`);
    expect(r2.status).toBe(503);
    expect((await r2.json()).checks.migrations).toMatch(/^pending: 001/);
    await unmigrated.destroy();

    const base = await start(t.db, { METRICS_ALLOW: "loopback" });
    lifecycle.draining = true;
    const r3 = await fetch(`${base}/readyz`);
    expect(r3.status).toBe(503);
    expect(await r3.json()).toEqual({ ok: false, checks: { process: "shutting down" } });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("/metrics serves Prometheus text to allowed addresses only", async () => {
    countPlacedOrder("pay_on_delivery");
    const base = await start(t.db, { METRICS_ALLOW: "loopback" });
    const scrape = await fetch(`${base}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await scrape.text();
    for (const name of [
      "http_request_duration_seconds",
      "page_cache_requests_total",
      "mail_queue_depth",
      "db_pool_connections",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(body).toContain(`# TYPE ${name}`);
    }
    expect(body).toMatch(/orders_placed_total\{payment="pay_on_delivery"\} [1-9]/);
    expect(body).toContain('mail_queue_depth{status="queued"} 0');

    const elsewhere = await start(t.db, { METRICS_ALLOW: "10.0.0.0/8, 192.168.1.7" });
    const refused = await fetch(`${elsewhere}/metrics`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain("# TYPE");
  });
});

describe("request logs", () => {
  it("write one JSON line per request with its id, route pattern, status and duration, none for probes, and no path details", async () => {
    const lines: string[] = [];
    const pino = (await import("pino")).default;
    const { log, useLoggerForTests } = await import("../../server/ops/log.ts");
    const original = log();
    useLoggerForTests(
      pino({ base: null }, new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) })),
    );
    try {
      const app = express();
      app.use(requestLog({ trustRequestId: () => false }));
      app.get("/healthz", (_req, res) => void res.send("ok"));
      app.get("/orders/:token", (_req, res) => void res.status(404).send("no"));
      const { base, server } = await listen(app);
      await fetch(`${base}/healthz`);
      const token = "A".repeat(32);
      const reply = await fetch(`${base}/orders/${token}?email=jane.doe@example.com`, {
        headers: { "x-request-id": "chosen-by-client-123" },
      });
      await close(server);
      expect(reply.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0]);
      expect(entry).toMatchObject({
        msg: "request",
        method: "GET",
        route: "/orders/:token",
        status: 404,
        reqId: reply.headers.get("x-request-id"),
      });
      expect(typeof entry.ms).toBe("number");
      expect(lines[0]).not.toContain(token);
      expect(lines[0]).not.toContain("example.com");
    } finally {
      useLoggerForTests(original);
    }
  });
});

describe("graceful shutdown", () => {
  afterEach(() => {
    lifecycle.draining = false;
    lifecycle.inFlight = 0;
  });

  it("stops taking connections, finishes the request in flight, then stops background work", async () => {
    const events: string[] = [];
    const app = express();
    app.use(requestLog({ trustRequestId: () => false }));
    app.get("/slow", (_req, res) => void setTimeout(() => res.send("finished"), 600));
    const { base, server } = await listen(app);
    const slow = fetch(`${base}/slow`).then(async (r) => ({ status: r.status, body: await r.text() }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = shutDownGracefully(server, {
      timeoutMs: 5000,
      graceMs: 50,
      stopWork: async () => void events.push("work stopped"),
      log: (line) => events.push(line),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(fetch(`${base}/slow`)).rejects.toThrow();
    expect(await slow).toEqual({ status: 200, body: "finished" });
    await stopped;
    expect(events[0]).toBe("work stopped");
    expect(events[1]).toMatch(/^Stopped cleanly in \d+ ms$/);
  });

  it("leaves an idle keep-alive connection for its client to close: a request sent on it meanwhile is answered, with Connection: close", async () => {
    const app = express();
    app.use(requestLog({ trustRequestId: () => false }));
    app.post("/cart", (_req, res) => void res.send("added"));
    const { base, server } = await listen(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const request = http.request(`${base}/cart`, { method: "POST", agent }, (response) => {
          let body = "";
          response.on("data", (chunk) => (body += chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
          );
        });
        request.on("error", reject);
        request.end();
      });
    expect((await post()).connection).toBe("keep-alive");
    const started = Date.now();
    const stopped = shutDownGracefully(server, {
      timeoutMs: 5000,
      graceMs: 2000,
      stopWork: async () => undefined,
      log: () => undefined,
    });
    // Well after the stop began, the pooled connection is still open and serves a POST.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await post()).toEqual({ status: 200, connection: "close", body: "added" });
    // The client closed its connection (Connection: close): the stop ends then, not at the end of the grace period.
    await stopped;
    expect(Date.now() - started).toBeLessThan(1500);
    agent.destroy();
  });

  it("closes a connection its client keeps idle once the grace period ends", async () => {
    const app = express();
    app.use(requestLog({ trustRequestId: () => false }));
    app.get("/", (_req, res) => void res.send("ok"));
    const { base, server } = await listen(app);
    const agent = new http.Agent({ keepAlive: true });
    await new Promise((resolve) => http.get(`${base}/`, { agent }, (r) => r.resume().on("end", resolve)));
    const started = Date.now();
    const lines: string[] = [];
    await shutDownGracefully(server, {
      timeoutMs: 5000,
      graceMs: 300,
      stopWork: async () => undefined,
      log: (line) => lines.push(line),
    });
    expect(lines[0]).toBe("Closing 1 idle connection(s) left open by their clients");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await new Promise((resolve) => server.getConnections((_e, n) => resolve(n)))).toBe(0);
    agent.destroy();
  });

  it("cuts off what is still running at SHUTDOWN_TIMEOUT_S and says so", async () => {
    const events: string[] = [];
    const app = express();
    app.use(requestLog({ trustRequestId: () => false }));
    app.get("/stuck", () => undefined);
    const { base, server } = await listen(app);
    const stuck = fetch(`${base}/stuck`).catch(() => "cut");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await shutDownGracefully(server, {
      timeoutMs: 300,
      graceMs: 50,
      stopWork: async () => undefined,
      log: (line) => events.push(line),
    });
    expect(await stuck).toBe("cut");
    expect(events).toEqual(["Stopped after 300 ms with 1 request(s) cut off"]);
  });
});

describe("TRUST_PROXY", () => {
  const clientIpWith = async (setting: string, forwardedFor: string) => {
    const { trustProxySetting } = await import("../../server/http/app.ts");
    const app = express();
    app.set("trust proxy", trustProxySetting(setting));
    app.get("/ip", (req, res) => void res.send(req.ip));
    const { base, server } = await listen(app);
    const ip = await (await fetch(`${base}/ip`, { headers: { "x-forwarded-for": forwardedFor } })).text();
    await close(server);
    return ip;
  };

  it("off by default: a client talking to the app directly cannot choose its IP with X-Forwarded-For", async () => {
    expect(await clientIpWith("false", "203.0.113.9")).toBe("127.0.0.1");
  });

  it("set to the proxy's address: the app counts the client the proxy names, and only the last hop it added", async () => {
    expect(await clientIpWith("127.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
    expect(await clientIpWith("127.0.0.1", "198.51.100.1, 203.0.113.9")).toBe("203.0.113.9");
    expect(await clientIpWith("10.1.2.3", "203.0.113.9")).toBe("127.0.0.1");
  });
});
