import { UnavailableError } from "../errors.ts";

/**
 * True for errors that mean "this transaction lost a race; run it again": PostgreSQL's deadlock
 * (40P01) and serialization failure (40001), and SQLite's busy or locked database (another
 * process held the write lock past busy_timeout).
 */
export function isRetryableTransactionError(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (e.code === "40P01" || e.code === "40001") return true;
  if (e.errcode === 5 || e.errcode === 6) return true; // SQLITE_BUSY, SQLITE_LOCKED
  return typeof e.message === "string" && /database (table )?is locked|SQLITE_BUSY/i.test(e.message);
}

export interface RetryOptions {
  /** Runs in all, the first included. */
  attempts?: number;
  /** The n-th retry waits about n × this many ms, plus up to as much again of jitter. */
  baseDelayMs?: number;
}

/**
 * Runs `work` (one whole transaction) again when it failed with a retryable error, a bounded
 * number of times with a little jitter so that the racers spread out. When every attempt lost,
 * the shopper gets a 503 asking to try again, never a raw database error.
 */
export async function withTransactionRetry<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 6;
  const base = options.baseDelayMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
      if (attempt >= attempts) {
        throw new UnavailableError(
          "STORE_BUSY",
          "The store is very busy right now and could not finish this. Nothing was changed; please try again in a moment.",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, base * attempt + Math.random() * base * attempt));
    }
  }
}
