import { Worker } from "node:worker_threads";

/**
 * Moves SQLite's WAL checkpoints off the thread that serves requests. By default the connection
 * that commits the 1,000th page of the WAL copies it into the database file and syncs it, inside
 * that commit: on this kind of machine that made every order's commit cost about 0.6 ms more on
 * average, and one in a hundred several milliseconds (issue 15). Instead the connection never
 * checkpoints (`wal_autocheckpoint = 0`) and this worker thread, with its own connection, runs a
 * PASSIVE checkpoint (never waits for readers or writers) every `intervalMs`.
 *
 * The worker raises `done` once its connection is closed (or could not be opened), so `stop()`
 * returns only when the worker no longer touches the database files.
 */
const WORKER_SOURCE = `
const { DatabaseSync } = require("node:sqlite");
const { parentPort, workerData } = require("node:worker_threads");
const done = new Int32Array(workerData.done);
const finish = () => { Atomics.store(done, 0, 1); Atomics.notify(done, 0); parentPort.close(); };
let db;
try { db = new DatabaseSync(workerData.path); db.exec("PRAGMA busy_timeout = 100"); }
catch (error) { finish(); throw error; }
const checkpoint = () => { try { db.exec("PRAGMA wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", () => { clearInterval(timer); checkpoint(); db.close(); finish(); });
`;

/** How long `stop()` waits for the worker's last checkpoint before ending it regardless. */
const STOP_WAIT_MS = 2000;

export interface Checkpointer {
  /** Has the worker checkpoint once more and close its connection, and waits until it has; it never keeps the process alive. */
  stop(): void;
}

export function startCheckpointer(path: string, intervalMs = 250): Checkpointer {
  const done = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs, done } });
  worker.unref();
  worker.on("error", (error: Error) => console.error(`sqlite checkpointer: ${error.message}`));
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage("stop");
      // Blocks, like the close of the connection beside it: whoever deletes or copies the files
      // next must not race the worker's last checkpoint.
      if (Atomics.wait(new Int32Array(done), 0, 0, STOP_WAIT_MS) === "timed-out") void worker.terminate();
    },
  };
}
