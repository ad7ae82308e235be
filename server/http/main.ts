import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { describeTrustedOrigins } from "../auth/origins.ts";
import { resolveAuthSecret } from "../auth/secret.ts";
import { config } from "../config.ts";
import { getDb } from "../db/connection.ts";
import { prepareDatabase } from "../db/prepare.ts";
import { log, logLine } from "../ops/log.ts";
import { serveClusterMetrics } from "../ops/metrics.ts";
import { serveStore } from "./serve.ts";

const cfg = config();
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const workers = cfg.WEB_CONCURRENCY === 0 ? availableParallelism() : cfg.WEB_CONCURRENCY;
const timeoutMs = cfg.SHUTDOWN_TIMEOUT_S * 1000;

async function serve() {
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
  serveStore({ cfg, build, clientFiles: path.join(buildDir, "client"), workers });
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
