import { Worker } from "node:worker_threads";

/**
 * Moves SQLite's WAL checkpoints off the thread that serves requests. By default the connection
 * that commits the 1,000th page of the WAL copies it into the database file and syncs it, inside
 * that commit: on this kind of machine that made every order's commit cost about 0.6 ms more on
 * average, and one in a hundred several milliseconds (issue 15). Instead the connection never
 * checkpoints (`wal_autocheckpoint = 0`) and this worker thread, with its own connection, runs a
 * PASSIVE checkpoint (never waits for readers or writers) every `intervalMs`.
 */
const WORKER_SOURCE = `
const { DatabaseSync } = require("node:sqlite");
const { parentPort, workerData } = require("node:worker_threads");
const db = new DatabaseSync(workerData.path);
db.exec("PRAGMA busy_timeout = 100");
const checkpoint = () => { try { db.exec("PRAGMA wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

export interface Checkpointer {
  /** Asks the worker to checkpoint once more, close its connection and end (it never keeps the process alive). */
  stop(): void;
}

export function startCheckpointer(path: string, intervalMs = 250): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs } });
  worker.unref();
  worker.on("error", (error: Error) => console.error(`sqlite checkpointer: ${error.message}`));
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage("stop");
      setTimeout(() => void worker.terminate(), 2000).unref();
    },
  };
}
