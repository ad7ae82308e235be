import cluster from "node:cluster";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import type { AppConfig } from "../config.ts";
import { getDb, poolOf } from "../db/connection.ts";
import { backgroundJobs } from "../jobs/registry.ts";
import { startJobs } from "../jobs/runner.ts";
import { startMailSender } from "../mail/sender.ts";
import { log, logLine } from "../ops/log.ts";
import { registerDatabaseGauges } from "../ops/metrics.ts";
import { createHttpApp } from "./app.ts";
import { shutDownGracefully } from "./shutdown.ts";

export interface ServeOptions {
  cfg: AppConfig;
  /** The React Router build, or (in development) a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The production build's client folder, or Vite's middleware in development. */
  clientFiles: string | RequestHandler;
  /** In-process page cache, MiB (default PAGE_CACHE_MB; development passes 0). */
  pageCacheMb?: number;
  /** How many processes serve (for the start-up line). */
  workers?: number;
  /** Called once the HTTP server listens (development attaches Vite's hot reload to it). */
  onListening?: (server: import("node:http").Server) => void;
}

/**
 * One serving process: the HTTP app on PORT/HOST, its mail sender and background jobs, and a
 * graceful stop on SIGTERM/SIGINT. The database must be prepared (prepareDatabase) first.
 */
export function serveStore({ cfg, build, clientFiles, pageCacheMb, workers = 1, onListening }: ServeOptions) {
  const timeoutMs = cfg.SHUTDOWN_TIMEOUT_S * 1000;
  const db = getDb(cfg);
  registerDatabaseGauges(db, poolOf(db));
  const app = createHttpApp({ build, clientFiles, db, pageCacheMb });
  const server = app.listen(cfg.PORT, cfg.HOST, () => {
    if (!cluster.isWorker || cluster.worker?.id === 1) {
      log().info(
        `Store listening on ${cfg.siteUrl} (${cfg.databaseKind}, ${workers} process${workers > 1 ? "es" : ""})`,
      );
    }
  });
  onListening?.(server);
  // Longer than a proxy's idle keep-alive (the fleet's nginx: 2 s), so the proxy, not the app, closes idle connections.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Every HTTP process runs a mail sender; the queue's claim/lease scheme makes that safe.
  const mailSender = startMailSender(db, { log: logLine });
  // Periodic jobs (retention, expired holds …) run in every process too, each claimed by a lease.
  const jobs = startJobs(db, backgroundJobs(), {
    log: logLine,
    tickMs: Math.min(5_000, cfg.PAYMENT_RECONCILE_SECONDS * 1000),
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log().info(`${signal}: finishing requests in flight (up to ${cfg.SHUTDOWN_TIMEOUT_S} s), then stopping`);
    void shutDownGracefully(server, {
      timeoutMs,
      // Stopping waits for the mail and jobs in flight, so a graceful stop never leaves one half-done.
      stopWork: () => Promise.allSettled([mailSender.stop(), jobs.stop()]).then(() => db.destroy()),
      log: logLine,
    }).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), timeoutMs + 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}
