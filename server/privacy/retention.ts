/**
 * Retention (issue 11, item 6): what the store stops keeping, and when. Plain functions of a Db and
 * a `now`, each bounded per call (batches of `batchSize`, at most `maxBatches`), so a large backlog
 * is worked off over several runs in short transactions instead of one long lock.
 *
 * - A sent mail keeps its body and full address for MAIL_RETENTION_DAYS (default 30); a failed or
 *   unknown one for MAIL_FAILED_RETENTION_DAYS (default 90), since a person may still requeue it.
 *   Then the row is blanked (mail-erasure.ts) and kept with its status. Queued and in-flight
 *   mails are never touched.
 * - Expired Better Auth sessions and verification rows (sign-in links, reset tokens, OAuth state)
 *   are deleted.
 * - Better Auth's `rateLimit` table exists only with its "database" storage. The store keeps its
 *   limits in memory or in Redis with TTLs, so there is normally nothing to delete; if the table
 *   is there, rows idle for a day (far beyond every window) are deleted.
 */
import { sql } from "kysely";
import type { AppConfig } from "../config.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { MailStatus } from "../db/schema.ts";
import { tableExists } from "../db/tables.ts";
import type { PeriodicJob } from "../jobs/runner.ts";
import { ERASABLE_MAIL_COLUMNS, eraseMail } from "./mail-erasure.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionPolicy {
  sentMailDays: number;
  failedMailDays: number;
  /** Rows per batch (one short transaction each). */
  batchSize?: number;
  /** Batches per table per run. */
  maxBatches?: number;
}

export interface RetentionReport {
  sentMailsErased: number;
  failedMailsErased: number;
  sessionsDeleted: number;
  verificationsDeleted: number;
  rateLimitRowsDeleted: number;
}

const DEFAULT_BATCH = 500;
const DEFAULT_MAX_BATCHES = 20;

export function retentionPolicyFromConfig(
  cfg: Pick<AppConfig, "MAIL_RETENTION_DAYS" | "MAIL_FAILED_RETENTION_DAYS">,
): RetentionPolicy {
  return { sentMailDays: cfg.MAIL_RETENTION_DAYS, failedMailDays: cfg.MAIL_FAILED_RETENTION_DAYS };
}

/** Better Auth's date columns hold ISO strings on SQLite and timestamps on PostgreSQL. */
export function authDate(db: Db, date: Date): string | Date {
  return dbKind(db) === "postgres" ? date : date.toISOString();
}

async function inBatches(
  options: { batchSize: number; maxBatches: number },
  batch: (limit: number) => Promise<{ seen: number; done: number }>,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < options.maxBatches; i++) {
    const { seen, done } = await batch(options.batchSize);
    total += done;
    if (seen < options.batchSize) break;
  }
  return total;
}

function limits(policy: Pick<RetentionPolicy, "batchSize" | "maxBatches">) {
  return { batchSize: policy.batchSize ?? DEFAULT_BATCH, maxBatches: policy.maxBatches ?? DEFAULT_MAX_BATCHES };
}

/** Blanks mails in `statuses` whose last change is older than `days`. Returns how many it blanked. */
async function eraseOldMails(
  db: Db,
  now: Date,
  statuses: MailStatus[],
  days: number,
  policy: Pick<RetentionPolicy, "batchSize" | "maxBatches"> = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  return inBatches(limits(policy), async (limit) => {
    const rows = await db
      .selectFrom("mail_queue")
      .select(ERASABLE_MAIL_COLUMNS)
      .where("status", "in", statuses)
      .where("updated_at", "<", cutoff)
      .where("body_erased_at", "is", null)
      .orderBy("updated_at")
      .limit(limit)
      .execute();
    let done = 0;
    if (rows.length) {
      await db.transaction().execute(async (trx) => {
        for (const row of rows) if (await eraseMail(trx, row, now)) done++;
      });
    }
    return { seen: rows.length, done };
  });
}

/**
 * Deletes expired Better Auth rows: sessions, or verification rows (email links, reset tokens,
 * OAuth state).
 */
async function deleteExpiredAuthRows(
  db: Db,
  table: "session" | "verification",
  now: Date,
  policy: Pick<RetentionPolicy, "batchSize" | "maxBatches"> = {},
): Promise<number> {
  return inBatches(limits(policy), async (limit) => {
    const ids = (
      await db.selectFrom(table).select("id").where("expiresAt", "<", authDate(db, now)).limit(limit).execute()
    ).map((r) => r.id);
    if (!ids.length) return { seen: 0, done: 0 };
    const result = await db
      .deleteFrom(table)
      .where("id", "in", ids)
      .where("expiresAt", "<", authDate(db, now))
      .executeTakeFirst();
    return { seen: ids.length, done: Number(result.numDeletedRows) };
  });
}

/** Deletes Better Auth rate-limit rows idle for a day, when that table exists (database storage only). */
export async function deleteStaleRateLimitRows(
  db: Db,
  now: Date,
  policy: Pick<RetentionPolicy, "batchSize" | "maxBatches"> = {},
): Promise<number> {
  if (!(await tableExists(db, "rateLimit"))) return 0;
  const cutoff = now.getTime() - DAY_MS;
  return inBatches(limits(policy), async (limit) => {
    const { rows } = await sql<{
      id: string;
    }>`select id from ${sql.table("rateLimit")} where ${sql.ref("lastRequest")} < ${cutoff} limit ${limit}`.execute(db);
    if (!rows.length) return { seen: 0, done: 0 };
    const ids = rows.map((r) => r.id);
    const result = await sql`delete from ${sql.table("rateLimit")} where id in (${sql.join(ids)})`.execute(db);
    return { seen: rows.length, done: Number(result.numAffectedRows ?? 0) };
  });
}

/** One retention pass over every table it covers. */
export async function runRetention(db: Db, now: Date, policy: RetentionPolicy): Promise<RetentionReport> {
  return {
    sentMailsErased: await eraseOldMails(db, now, ["sent"], policy.sentMailDays, policy),
    failedMailsErased: await eraseOldMails(db, now, ["failed", "unknown"], policy.failedMailDays, policy),
    sessionsDeleted: await deleteExpiredAuthRows(db, "session", now, policy),
    verificationsDeleted: await deleteExpiredAuthRows(db, "verification", now, policy),
    rateLimitRowsDeleted: await deleteStaleRateLimitRows(db, now, policy),
  };
}

const RETENTION_JOB_NAME = "privacy-retention";

/** The periodic job (server/jobs/registry.ts): every 15 minutes, one process at a time. */
export function retentionJob(policy: RetentionPolicy): PeriodicJob {
  return {
    name: RETENTION_JOB_NAME,
    everyMs: 15 * 60_000,
    leaseMs: 10 * 60_000,
    async run(db, now) {
      const report = await runRetention(db, now, policy);
      const parts = Object.entries(report).filter(([, n]) => n > 0);
      return parts.length ? parts.map(([k, n]) => `${k} ${n}`).join(", ") : undefined;
    },
  };
}
