/**
 * The mail queue in the back office: the CLI's powers (server/mail/operator.ts) in a page, with an
 * audit row per requeue. A mail is stuck when it is 'failed' or 'unknown' (a person decides), or
 * still 'queued' more than STUCK_AFTER_MS past its next attempt (no sender is picking it up).
 * All of it reads mail_queue_due_idx (status, next_attempt_at, id).
 */
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import type { MailStatus } from "../db/schema.ts";
import { DomainError } from "../errors.ts";
import { maskAddress, maskAddressesIn } from "../privacy/mask.ts";
import { listMail, MAIL_ROW_COLUMNS, requeueChecked } from "./operator.ts";
import { countMailByStatus } from "./queue.ts";

export const STUCK_AFTER_MS = 15 * 60 * 1000;
const STUCK_SHOWN = 50;
/** "Requeue all failed" takes at most this many per click (each gets its audit row). */
const REQUEUE_ALL_LIMIT = 500;

export interface StuckMail {
  id: number;
  status: MailStatus;
  /** Masked to its domain: the page never shows a full address. */
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  updatedAt: string;
  bodyErasedAt: string | null;
  /** Only failed and unknown mails with their body kept can be requeued; an overdue queued mail is already queued. */
  canRequeue: boolean;
}

function overdueSince(now: Date): string {
  return new Date(now.getTime() - STUCK_AFTER_MS).toISOString();
}

export async function countStuckMail(db: Db, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("mail_queue")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where((eb) =>
      eb.or([
        eb("status", "in", ["failed", "unknown"]),
        eb.and([eb("status", "=", "queued"), eb("next_attempt_at", "<", overdueSince(now))]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function toStuck(row: Awaited<ReturnType<typeof listMail>>[number]): StuckMail {
  return {
    id: Number(row.id),
    status: row.status,
    to: maskAddress(row.to_address),
    subject: row.subject,
    attempts: Number(row.attempts),
    lastError: row.last_error ? maskAddressesIn(row.last_error) : null,
    updatedAt: row.updated_at,
    bodyErasedAt: row.body_erased_at,
    canRequeue: (row.status === "failed" || row.status === "unknown") && !row.body_erased_at,
  };
}

export interface MailQueueView {
  counts: Record<MailStatus, number>;
  stuck: StuckMail[];
  overdue: StuckMail[];
  stuckCount: number;
}

export async function mailQueueView(db: Db, now = new Date()): Promise<MailQueueView> {
  const [counts, stuck, overdue, stuckCount] = await Promise.all([
    countMailByStatus(db),
    listMail(db, ["failed", "unknown"], STUCK_SHOWN),
    db
      .selectFrom("mail_queue")
      .select(MAIL_ROW_COLUMNS)
      .where("status", "=", "queued")
      .where("next_attempt_at", "<", overdueSince(now))
      .orderBy("next_attempt_at")
      .limit(STUCK_SHOWN)
      .execute(),
    countStuckMail(db, now),
  ]);
  return { counts, stuck: stuck.map(toStuck), overdue: overdue.map(toStuck), stuckCount };
}

/** Requeues one failed or unknown mail, with its audit row in the same transaction. */
export async function requeueMailAsStaff(
  db: Db,
  actor: AuditActor,
  id: number,
  now = new Date(),
): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const outcome = await requeueChecked(trx, id);
    if (!outcome.ok) {
      throw new DomainError(
        outcome.reason === "missing" ? "not_found" : "conflict",
        `MAIL_${outcome.reason.toUpperCase().replace("-", "_")}`,
        capitalize(outcome.message),
      );
    }
    await writeAudit(
      trx,
      actor,
      {
        action: "mail.requeue",
        objectType: "mail",
        objectId: id,
        before: { status: outcome.status },
        after: { status: "queued" },
      },
      now,
    );
    return { message: capitalize(outcome.message) };
  });
}

/**
 * Requeues every failed mail (oldest first, up to REQUEUE_ALL_LIMIT), one audit row each, in one
 * transaction. 'unknown' mails are left alone: each may have been delivered already, so a person
 * checks the SMTP server's log for it and requeues it on its own.
 */
export async function requeueAllFailed(
  db: Db,
  actor: AuditActor,
  now = new Date(),
): Promise<{ count: number; message: string }> {
  const count = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("mail_queue")
      .select("id")
      .where("status", "=", "failed")
      .where("body_erased_at", "is", null)
      .orderBy("id")
      .limit(REQUEUE_ALL_LIMIT)
      .execute();
    let done = 0;
    for (const { id } of rows) {
      const outcome = await requeueChecked(trx, Number(id));
      if (!outcome.ok) continue;
      await writeAudit(
        trx,
        actor,
        {
          action: "mail.requeue",
          objectType: "mail",
          objectId: Number(id),
          before: { status: outcome.status },
          after: { status: "queued" },
        },
        now,
      );
      done++;
    }
    return done;
  });
  const message =
    count === 0
      ? "No failed mail to requeue."
      : `${count === 1 ? "1 failed mail was" : `${count} failed mails were`} queued again.`;
  return { count, message };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function parseMailId(raw: unknown): number | null {
  return typeof raw === "string" && /^\d{1,15}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}
