/**
 * The mail sender: a worker that works through `mail_queue`.
 *
 * Delivery guarantee — at most once, and nothing lost to an SMTP outage:
 *
 *   queued ──claim──▶ sending ──gate──▶ transmitting ──250──▶ sent
 *     ▲                  │                   │
 *     └── retry (backoff)┘                   ├── 4xx/5xx reply, or failure before the body's
 *     └──────────────────────────────────────┘   last byte was handed over → queued / failed
 *                                            └── failure after the body, no reply → unknown
 *
 * 1. Claim: one conditional UPDATE … WHERE status = 'queued' (plus FOR UPDATE SKIP LOCKED on
 *    PostgreSQL) moves one due row to 'sending' with a fresh fencing token (`locked_by`) and a
 *    lease (`locked_until`). Two senders — threads, processes or machines — can never both win it.
 * 2. Gate: right before the message body goes out (after the SMTP server answered DATA with 354),
 *    a second conditional UPDATE moves 'sending' → 'transmitting', only if our token still holds
 *    it. If not (our lease expired and another sender took the mail), we abort without sending
 *    the body: the server never sees the end-of-data marker, so it never accepts that copy.
 * 3. Lease recovery (every poll, by any sender): an expired 'sending' row goes back to 'queued' —
 *    safe, because its body was never handed over (and rule 2 fences the old owner). An expired
 *    'transmitting' row becomes 'unknown' and is NEVER sent again automatically: the process died
 *    (or hung) between handing over the body and recording the reply, so the server may have it.
 *    A person decides (requeueMail in queue.ts), using the stable Message-ID in the SMTP logs.
 * 4. Errors: a 4xx reply or a failure before the body was fully handed over → back to 'queued'
 *    with exponential backoff (30 s doubling to 1 h, with jitter), retried for up to 5 days — an
 *    SMTP outage loses nothing. A 5xx reply → 'failed'. A failure after the body without a
 *    reply → 'unknown'.
 *
 * So a mail is delivered at most once, always; and exactly once unless the process is killed (or
 * the connection breaks) in the window between handing the body to the socket and recording the
 * server's reply — milliseconds per mail — in which case it is flagged 'unknown', never resent.
 * A graceful stop() waits for the mail in flight, so only a hard kill can leave one 'unknown'.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { sql, type Updateable } from "kysely";
import MailComposer from "nodemailer/lib/mail-composer";
import { config } from "../config.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { MailQueueTable, MailRow, MailStatus } from "../db/schema.ts";
import { maskEmail } from "../ops/log.ts";
import { mailWakeSignal } from "./queue.ts";
import {
  createOutboxTransport,
  createSmtpTransport,
  DeliveryError,
  type ComposedMail,
  type MailTransport,
} from "./transport.ts";

export interface MailSenderOptions {
  /** How often to look for due mail, in ms (a mail queued in this process wakes the sender at once). */
  pollMs?: number;
  /** How long a claim is valid, in ms. Must exceed the longest SMTP session (timeouts are 30–60 s). */
  leaseMs?: number;
  /** First retry delay in ms; doubles per attempt up to retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Transient failures are retried until the mail is this old, in ms; then it is marked 'failed'. */
  giveUpAfterMs?: number;
  /** Defaults from the configuration: SMTP_URL, or the .eml outbox in OUTBOX_DIR. */
  smtpUrl?: string;
  outboxDir?: string;
  from?: string;
  transport?: MailTransport;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface MailSender {
  stop(): Promise<void>;
  drain(): Promise<void>;
}

const SENDER_DEFAULTS = {
  pollMs: 1000,
  leaseMs: 5 * 60_000,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  giveUpAfterMs: 5 * 24 * 60 * 60_000,
};

function transportFromConfig(options: Pick<MailSenderOptions, "smtpUrl" | "outboxDir"> = {}): MailTransport {
  const cfg = config();
  const smtpUrl = options.smtpUrl ?? cfg.SMTP_URL;
  return smtpUrl ? createSmtpTransport(smtpUrl) : createOutboxTransport(options.outboxDir ?? cfg.OUTBOX_DIR);
}

export async function composeMail(row: MailRow, from: string): Promise<ComposedMail> {
  const headers = JSON.parse(row.headers || "{}") as Record<string, string>;
  const node = new MailComposer({
    from,
    to: row.to_address,
    replyTo: row.reply_to ?? undefined,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    messageId: row.message_id,
    date: new Date(),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { prepared: true, value: v }])),
  }).compile();
  const envelope = node.getEnvelope();
  const raw = await node.build();
  return {
    id: row.id,
    messageId: row.message_id,
    to: row.to_address,
    subject: row.subject,
    envelope: { from: envelope.from || "", to: envelope.to },
    raw,
  };
}

export function retryDelayMs(
  attempts: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(exp * (0.8 + 0.4 * random()));
}

const iso = (d: Date) => d.toISOString();

/** Lease recovery, exported for tests and tooling: see rule 3 above. */
export async function recoverExpiredLeases(db: Db, now: Date): Promise<{ requeued: number[]; unknown: number[] }> {
  const at = iso(now);
  const requeued = await db
    .updateTable("mail_queue")
    .set({
      status: "queued",
      locked_by: null,
      locked_until: null,
      next_attempt_at: at,
      updated_at: at,
      last_error: "lease expired before the message body was sent; queued again",
    })
    .where("status", "=", "sending")
    .where("locked_until", "<", at)
    .returning("id")
    .execute();
  const unknown = await db
    .updateTable("mail_queue")
    // locked_by stays, so a sender that was only slow can still record the outcome it got.
    .set({
      status: "unknown",
      locked_until: null,
      updated_at: at,
      last_error: "lease expired while the message body was being sent; it may have been delivered — not resent",
    })
    .where("status", "=", "transmitting")
    .where("locked_until", "<", at)
    .returning("id")
    .execute();
  return { requeued: requeued.map((r) => Number(r.id)), unknown: unknown.map((r) => Number(r.id)) };
}

/** Whether any mail is due, or any lease has expired. */
async function hasWork(db: Db, now: Date): Promise<boolean> {
  const at = iso(now);
  const row = await db
    .selectFrom("mail_queue")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "queued"), eb("next_attempt_at", "<=", at)]),
        eb.and([eb("status", "in", ["sending", "transmitting"]), eb("locked_until", "<", at)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Claims the next due mail for `token` (rule 1), or returns undefined when none is claimable. */
export async function claimNextMail(db: Db, token: string, now: Date, leaseMs: number): Promise<MailRow | undefined> {
  const at = iso(now);
  const postgres = dbKind(db) === "postgres";
  return db
    .updateTable("mail_queue")
    .set({
      status: "sending",
      locked_by: token,
      locked_until: iso(new Date(now.getTime() + leaseMs)),
      attempts: sql<number>`attempts + 1`,
      updated_at: at,
    })
    .where("status", "=", "queued")
    .where("id", "=", (eb) => {
      const next = eb
        .selectFrom("mail_queue")
        .select("id")
        .where("status", "=", "queued")
        .where("next_attempt_at", "<=", at)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(1);
      return postgres ? next.forUpdate().skipLocked() : next;
    })
    .returningAll()
    .executeTakeFirst();
}

/** Rule 2: records that the body is about to go out, if `token` still owns the mail. */
export async function markTransmitting(
  db: Db,
  id: number,
  token: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const r = await db
    .updateTable("mail_queue")
    .set({ status: "transmitting", locked_until: iso(new Date(now.getTime() + leaseMs)), updated_at: iso(now) })
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function startMailSender(db: Db, options: MailSenderOptions = {}): MailSender {
  const o = { ...SENDER_DEFAULTS, ...options };
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const from = options.from ?? config().MAIL_FROM;
  const transport = options.transport ?? transportFromConfig(options);
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let chain: Promise<unknown> = Promise.resolve();

  /** Runs fn after everything queued before it: one tick at a time per sender. */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  }

  async function update(
    id: number,
    token: string,
    states: MailStatus[],
    values: Updateable<MailQueueTable>,
    tries = 1,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await db
          .updateTable("mail_queue")
          .set({ updated_at: iso(now()), ...values })
          .where("id", "=", id)
          .where("locked_by", "=", token)
          .where("status", "in", states)
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      } catch (error) {
        if (attempt >= tries) throw error;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }

  async function processMail(row: MailRow, token: string): Promise<void> {
    // The address masked: `log` may be any line logger (console.log by default), not only pino's scrubbing one.
    const label = `mail #${row.id} to ${maskEmail(row.to_address)} "${row.subject.slice(0, 80)}"`;
    let composed: ComposedMail;
    try {
      composed = await composeMail(row, from);
    } catch (error) {
      await update(row.id, token, ["sending"], {
        status: "failed",
        locked_until: null,
        last_error: `could not build the message: ${String(error)}`,
      });
      log(`${label}: failed, could not build the message`);
      return;
    }
    try {
      const where = await transport.deliver(composed, () => markTransmitting(db, row.id, token, now(), o.leaseMs));
      // The server has the mail. Record it; retry the write a few times — if it still fails, the
      // row stays 'transmitting' and lease recovery flags it 'unknown' rather than resending.
      await update(
        row.id,
        token,
        ["transmitting", "unknown"],
        { status: "sent", sent_at: iso(now()), locked_until: null, last_error: null },
        5,
      );
      log(`${label}: ${transport.kind === "smtp" ? `sent (${where.replace(/\s+/g, " ").slice(0, 120)})` : where}`);
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError("retry", String(error));
      const reason = failure.message.slice(0, 1000);
      if (failure.outcome === "fenced") {
        log(`${label}: skipped, another sender owns it now`);
        return;
      }
      if (failure.outcome === "unknown") {
        await update(row.id, token, ["transmitting"], { status: "unknown", locked_until: null, last_error: reason }, 5);
        log(`${label}: UNKNOWN — ${reason}; not resent, needs review`);
        return;
      }
      const age = now().getTime() - Date.parse(row.created_at);
      if (failure.outcome === "permanent" || age >= o.giveUpAfterMs) {
        await update(
          row.id,
          token,
          ["sending", "transmitting"],
          { status: "failed", locked_until: null, last_error: reason },
          5,
        );
        log(`${label}: failed — ${reason}`);
        return;
      }
      const delay = retryDelayMs(row.attempts, o.retryBaseMs, o.retryMaxMs);
      // One clock reading for both, so the row records the delay exactly.
      const at = now();
      await update(
        row.id,
        token,
        ["sending", "transmitting"],
        {
          status: "queued",
          locked_by: null,
          locked_until: null,
          next_attempt_at: iso(new Date(at.getTime() + delay)),
          updated_at: iso(at),
          last_error: reason,
        },
        5,
      );
      log(`${label}: attempt ${row.attempts} failed, retry in ${Math.round(delay / 1000)} s — ${reason}`);
    }
  }

  /** Recovers stale leases, then sends every due mail it can claim. */
  async function tick(): Promise<void> {
    // An idle poll is one indexed read: no write (and on SQLite no write lock) unless there is work.
    if (!(await hasWork(db, now()))) return;
    const recovered = await recoverExpiredLeases(db, now());
    for (const id of recovered.requeued) log(`mail #${id}: lease expired before sending; queued again`);
    for (const id of recovered.unknown) log(`mail #${id}: lease expired while sending; marked unknown, not resent`);
    while (!stopped) {
      const token = `${workerId}:${randomUUID()}`;
      const row = await claimNextMail(db, token, now(), o.leaseMs);
      if (!row) break;
      await processMail(row, token);
    }
  }

  const onWake = () => wakeUp?.();
  mailWakeSignal().on("queued", onWake);

  const loop = (async () => {
    while (!stopped) {
      try {
        await exclusive(tick);
      } catch (error) {
        if (!stopped) log(`mail sender: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, o.pollMs);
        timer.unref?.();
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      });
    }
  })();

  return {
    async drain() {
      await exclusive(tick);
    },
    async stop() {
      if (stopped) return loop;
      stopped = true;
      mailWakeSignal().off("queued", onWake);
      wakeUp?.();
      await loop;
      await chain;
      await transport.close();
    },
  };
}
