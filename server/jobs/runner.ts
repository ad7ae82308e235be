import { randomUUID } from "node:crypto";
import type { Db } from "../db/connection.ts";
import { claimJobLease, releaseJobLease } from "./lease.ts";

/** Periodic work that every app process offers to do; the lease makes one of them do it. */
export interface PeriodicJob {
  /** Unique, stable name: the lease row's key. */
  name: string;
  /** Start at most once per this many ms across all processes. */
  everyMs: number;
  /** How long one run may hold the lease before another process may take over (default: max(60 s, everyMs)). */
  leaseMs?: number;
  /** Does one batch of work; returns a short summary for the log, or nothing. */
  run(db: Db, now: Date): Promise<string | void>;
}

export interface JobRunner {
  /** Stops taking new runs and waits for the ones in flight. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  /** How often each process looks for due jobs, in ms. */
  tickMs?: number;
  log?: (line: string) => void;
  now?: () => Date;
}

/** Runs `job` once if this holder wins its lease. Returns whether it ran. */
export async function runJobIfDue(
  db: Db,
  job: PeriodicJob,
  holder: string,
  options: Pick<JobRunnerOptions, "log" | "now"> = {},
): Promise<boolean> {
  const now = options.now?.() ?? new Date();
  const leaseMs = job.leaseMs ?? Math.max(60_000, job.everyMs);
  if (!(await claimJobLease(db, job.name, holder, { leaseMs, everyMs: job.everyMs, now }))) return false;
  try {
    const summary = await job.run(db, now);
    if (summary) options.log?.(`Job ${job.name}: ${summary}`);
    await releaseJobLease(db, job.name, holder);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    options.log?.(`Job ${job.name} failed: ${message}`);
    await releaseJobLease(db, job.name, holder, { error: message }).catch(() => undefined);
  }
  return true;
}

/** Starts the periodic jobs in this process. Safe in every process of a fleet. */
export function startJobs(db: Db, jobs: PeriodicJob[], options: JobRunnerOptions = {}): JobRunner {
  const holder = randomUUID();
  const running = new Map<string, Promise<unknown>>();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    for (const job of jobs) {
      if (running.has(job.name)) continue;
      const run = runJobIfDue(db, job, holder, options)
        .catch((error) => options.log?.(`Job ${job.name}: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    }
  };
  const timer = setInterval(tick, options.tickMs ?? 5_000);
  timer.unref();
  setTimeout(tick, 1_000).unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled(running.values());
    },
  };
}
