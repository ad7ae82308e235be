import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { config } from "../config.ts";
import { getDb } from "../db/connection.ts";
import { prepareDatabase } from "../db/prepare.ts";
import { startMailSender } from "../mail/sender.ts";
import { createHttpApp } from "./app.ts";

const cfg = config();
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const workers = cfg.WEB_CONCURRENCY === 0 ? availableParallelism() : cfg.WEB_CONCURRENCY;

async function serve() {
  const db = getDb(cfg);
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
  const app = createHttpApp({ build, clientDir: path.join(buildDir, "client"), db });
  const server = app.listen(cfg.PORT, cfg.HOST, () => {
    if (!cluster.isWorker || cluster.worker?.id === 1) {
      console.log(`Store listening on ${cfg.siteUrl} (${cfg.databaseKind}, ${workers} process${workers > 1 ? "es" : ""})`);
    }
  });
  // Every HTTP process runs a mail sender; the queue's claim/lease scheme makes that safe.
  const mailSender = startMailSender(db);
  const shutdown = () => {
    // Stopping waits for the mail in flight, so a graceful stop never leaves one half-sent.
    const mailStopped = mailSender.stop();
    server.close(() => void mailStopped.finally(() => db.destroy()).finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

async function main() {
  if (cluster.isPrimary) {
    const db = getDb(cfg);
    await prepareDatabase(db, cfg, { log: console.log });
    if (workers > 1) {
      await db.destroy();
      for (let i = 0; i < workers; i++) cluster.fork();
      cluster.on("exit", (worker, code) => {
        if (code !== 0) console.error(`Worker ${worker.process.pid} exited with ${code}`);
      });
      const stop = () => {
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
        setTimeout(() => process.exit(0), 6000).unref();
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
      return;
    }
  }
  await serve();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
