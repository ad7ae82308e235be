import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { describeTrustedOrigins } from "../auth/origins.ts";
import { resolveAuthSecret } from "../auth/secret.ts";
import { config } from "../config.ts";
import { getDb, poolOf } from "../db/connection.ts";
import { prepareDatabase } from "../db/prepare.ts";
import { backgroundJobs } from "../jobs/registry.ts";
import { startJobs } from "../jobs/runner.ts";
import { startMailSender } from "../mail/sender.ts";
import { log, logLine } from "../ops/log.ts";
import { registerDatabaseGauges, serveClusterMetrics } from "../ops/metrics.ts";
import { createHttpApp } from "./app.ts";
import { shutDownGracefully } from "./shutdown.ts";

const cfg = config();
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const workers = cfg.WEB_CONCURRENCY === 0 ? availableParallelism() : cfg.WEB_CONCURRENCY;
const timeoutMs = cfg.SHUTDOWN_TIMEOUT_S * 1000;

async function serve() {
  const db = getDb(cfg);
  registerDatabaseGauges(db, poolOf(db));
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
  const app = createHttpApp({ build, clientDir: path.join(buildDir, "client"), db });
  const server = app.listen(cfg.PORT, cfg.HOST, () => {
    if (!cluster.isWorker || cluster.worker?.id === 1) {
      log().info(`Store listening on ${cfg.siteUrl} (${cfg.databaseKind}, ${workers} process${workers > 1 ? "es" : ""})`);
    }
  });
  // Longer than a proxy's idle keep-alive (nginx: 60 s), so the proxy, not the app, closes idle connections.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Every HTTP process runs a mail sender; the queue's claim/lease scheme makes that safe.
  const mailSender = startMailSender(db, { log: logLine });
  // Periodic jobs (retention, expired holds …) run in every process too, each claimed by a lease.
  const jobs = startJobs(db, backgroundJobs(), { log: logLine, tickMs: Math.min(5_000, cfg.PAYMENT_RECONCILE_SECONDS * 1000) });
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
}

async function main() {
  if (cluster.isPrimary) {
    // Before anything else: a missing secret on PostgreSQL stops the start with the reason.
    resolveAuthSecret(cfg, logLine);
    log().info(describeTrustedOrigins(cfg));
    const db = getDb(cfg);
    await prepareDatabase(db, cfg, { log: logLine });
    if (workers > 1) {
      await db.destroy();
      serveClusterMetrics();
      for (let i = 0; i < workers; i++) cluster.fork();
      let stopping = false;
      cluster.on("exit", (worker, code) => {
        if (code !== 0) log().error(`Worker ${worker.process.pid} exited with ${code}`);
        if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
      const stop = () => {
        if (stopping) return;
        stopping = true;
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
        setTimeout(() => process.exit(0), timeoutMs + 12_000).unref();
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
      return;
    }
  }
  await serve();
}

main().catch((error) => {
  log().fatal(error instanceof Error ? error.message : String(error));
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
