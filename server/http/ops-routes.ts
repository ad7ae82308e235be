import express, { type Router } from "express";
import { Redis } from "ioredis";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { pendingMigrations } from "../db/migrate.ts";
import { metricsAllowList, metricsText } from "../ops/metrics.ts";
import { lifecycle } from "./lifecycle.ts";

interface Readiness {
  ok: boolean;
  checks: Record<string, string>;
}

const READINESS_TTL_MS = 1000;

/** Database reachable, migrations current, Redis reachable when configured. */
function readinessCheck(db: Db, redisUrl?: string): () => Promise<Readiness> {
  const redis = redisUrl
    ? new Redis(redisUrl, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        commandTimeout: 500,
        enableOfflineQueue: false,
      })
    : null;
  redis?.on("error", () => undefined);
  let cached: { at: number; value: Promise<Readiness> } | null = null;
  const run = async (): Promise<Readiness> => {
    const checks: Record<string, string> = {};
    try {
      const pending = await pendingMigrations(db);
      checks.database = "ok";
      checks.migrations = pending.length ? `pending: ${pending.join(", ")}` : "ok";
    } catch {
      checks.database = "unreachable";
    }
    if (redis) {
      try {
        if (redis.status === "wait" || redis.status === "end") await redis.connect().catch(() => undefined);
        checks.redis = (await redis.ping()) === "PONG" ? "ok" : "unreachable";
      } catch {
        checks.redis = "unreachable";
      }
    }
    return { ok: Object.values(checks).every((v) => v === "ok"), checks };
  };
  // Cheap under a probe storm: one check a second, shared by concurrent probes.
  return () => {
    if (!cached || Date.now() - cached.at > READINESS_TTL_MS) cached = { at: Date.now(), value: run() };
    return cached.value;
  };
}

/** /healthz (alive), /readyz (can serve) and /metrics (Prometheus, allow-listed addresses only). */
export function opsRouter(db: Db, cfg: Pick<AppConfig, "REDIS_URL" | "METRICS_ALLOW">): Router {
  const router = express.Router();
  const ready = readinessCheck(db, cfg.REDIS_URL);
  const mayReadMetrics = metricsAllowList(cfg.METRICS_ALLOW);
  router.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ ok: true });
  });
  router.get("/readyz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (lifecycle.draining) return void res.status(503).json({ ok: false, checks: { process: "shutting down" } });
    const result = await ready();
    res.status(result.ok ? 200 : 503).json(result);
  });
  router.get("/metrics", async (req, res) => {
    if (!mayReadMetrics(req.socket.remoteAddress)) return void res.status(404).type("text/plain").send("Not found");
    try {
      const { contentType, body } = await metricsText();
      res.setHeader("Cache-Control", "no-store");
      res.type(contentType).send(body);
    } catch (error) {
      res
        .status(503)
        .type("text/plain")
        .send(error instanceof Error ? error.message : "metrics unavailable");
    }
  });
  return router;
}
