// The one way the test suites, benchmarks and the fleet start and stop the store's server process:
// `node server/http/main.ts` in production mode on 127.0.0.1, in a process group of its own (its
// cluster workers stop with it), its output written to a log file.
import { spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Spawns the server of the checkout `appRoot`; `env` adds to (or overrides) this process's variables. */
export function spawnStore({ appRoot, port, env, logPath, appendLog = false }) {
  const out = createWriteStream(logPath, appendLog ? { flags: "a" } : undefined);
  const child = spawn(process.execPath, [path.join(appRoot, "server/http/main.ts")], {
    cwd: appRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  return child;
}

/** Sends `signal` to the child's process group (or to the child alone when the group is gone). */
export function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Resolves true once the child has exited, false when `ms` pass first. */
export async function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return Promise.race([new Promise((resolve) => child.once("exit", () => resolve(true))), sleep(ms).then(() => false)]);
}

/** The last lines of a log file ("" when there is none). */
export function tail(file, lines = 20) {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
