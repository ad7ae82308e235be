/**
 * The durable mail queue. Every mail the store sends is a row in `mail_queue` first; the sender
 * (server/mail/sender.ts) delivers it. Enqueue inside the caller's transaction so that a record
 * (an order, a contact message, a subscriber) and its mail commit — or roll back — together.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Transaction } from "kysely";
import addressparser from "nodemailer/lib/addressparser";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import type { Database, MailRow, MailStatus } from "../db/schema.ts";
import { CONTROL_IN_HEADER } from "../../app/lib/control-characters.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

/** Thrown by enqueueMail when a mail could be used for header injection or is otherwise unusable. */
export class MailValidationError extends Error {
  readonly code = "MAIL_INVALID";
  readonly field: string;
  constructor(field: string, message: string) {
    super(`Invalid mail ${field}: ${message}`);
    this.name = "MailValidationError";
    this.field = field;
  }
}

const MAIL_LIMITS = {
  address: 320,
  subject: 500,
  headerValue: 2000,
  body: 1_000_000,
} as const;

/** Headers the queue sets itself; callers may not override them through `headers`. */
const RESERVED_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "reply-to",
  "sender",
  "date",
  "message-id",
  "return-path",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
]);

function checkHeaderText(field: string, value: unknown, max: number): string {
  if (typeof value !== "string") throw new MailValidationError(field, "must be a string");
  if (CONTROL_IN_HEADER.test(value))
    throw new MailValidationError(field, "must not contain line breaks or control characters");
  if (value.length > max) throw new MailValidationError(field, `must be at most ${max} characters`);
  return value;
}

function checkAddress(field: string, value: unknown): string {
  const text = checkHeaderText(field, value, MAIL_LIMITS.address).trim();
  const parsed = addressparser(text, { flatten: true });
  if (parsed.length !== 1 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(parsed[0]?.address ?? "")) {
    throw new MailValidationError(field, "must be exactly one email address");
  }
  return text;
}

/** Validates a mail without storing it; returns the normalised copy that would be queued. */
export function validateMail(mail: OutgoingMail): OutgoingMail {
  if (!mail || typeof mail !== "object") throw new MailValidationError("mail", "must be an object");
  const to = checkAddress("to", mail.to);
  const subject = checkHeaderText("subject", mail.subject, MAIL_LIMITS.subject);
  if (!subject.trim()) throw new MailValidationError("subject", "must not be empty");
  const replyTo = mail.replyTo == null ? undefined : checkAddress("replyTo", mail.replyTo);
  for (const part of ["text", "html"] as const) {
    if (typeof mail[part] !== "string") throw new MailValidationError(part, "must be a string");
    if (mail[part].length > MAIL_LIMITS.body)
      throw new MailValidationError(part, `must be at most ${MAIL_LIMITS.body} characters`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!/^[A-Za-z][A-Za-z0-9-]{0,75}$/.test(name))
      throw new MailValidationError(`header name`, `"${name.slice(0, 80)}" is not a valid header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new MailValidationError(`header ${name}`, "is set by the mail queue itself");
    headers[name] = checkHeaderText(`header ${name}`, value, MAIL_LIMITS.headerValue);
  }
  return { to, subject, text: mail.text, html: mail.html, replyTo, headers };
}

let lastDomain: { from: string; domain: string } | undefined;

function messageIdDomain(): string {
  const mailFrom = config().MAIL_FROM;
  if (lastDomain?.from === mailFrom) return lastDomain.domain;
  const from = addressparser(mailFrom, { flatten: true })[0]?.address ?? "";
  const found = from.split("@")[1]?.toLowerCase() ?? "";
  const domain = /^[a-z0-9.-]+$/.test(found) ? found : "toolhub.example";
  lastDomain = { from: mailFrom, domain };
  return domain;
}

let wake: EventEmitter | undefined;

/**
 * The process's signal that a mail was queued, so a sender in this process can start at once
 * instead of waiting for its next poll.
 */
export function mailWakeSignal(): EventEmitter {
  // Made on first use: a module-level one would be kept in a browser bundle that reaches this module.
  return (wake ??= new EventEmitter().setMaxListeners(100));
}

/**
 * Stores a mail in the queue. Works on the process-wide Db or inside a caller's transaction.
 * Throws MailValidationError (before touching the database) for CR/LF in to, subject, replyTo
 * or a header value, and for anything else that is not a single safe mail.
 */
export async function enqueueMail(db: Db | Transaction<Database>, mail: OutgoingMail): Promise<{ id: number }> {
  const clean = validateMail(mail);
  const now = new Date().toISOString();
  const row = await db
    .insertInto("mail_queue")
    .values({
      to_address: clean.to,
      subject: clean.subject,
      text_body: clean.text,
      html_body: clean.html,
      reply_to: clean.replyTo ?? null,
      headers: JSON.stringify(clean.headers ?? {}),
      message_id: `<${randomUUID()}@${messageIdDomain()}>`,
      status: "queued",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // A sender polling in this process picks it up; inside a transaction it may wake before the
  // commit and find nothing, in which case its next poll does.
  setImmediate(() => mailWakeSignal().emit("queued"));
  return { id: Number(row.id) };
}

// ---- Inspection and operator actions ----

export async function getMail(db: Db, id: number): Promise<MailRow | undefined> {
  return db.selectFrom("mail_queue").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function countMailByStatus(db: Db): Promise<Record<MailStatus, number>> {
  const rows = await db
    .selectFrom("mail_queue")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const out: Record<MailStatus, number> = { queued: 0, sending: 0, transmitting: 0, sent: 0, failed: 0, unknown: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

/**
 * Puts a 'failed' or 'unknown' mail back in the queue. For 'unknown' this is a decision a person
 * makes after checking the SMTP server's logs for the mail's Message-ID: it may be delivered twice.
 * A mail whose body the retention policy erased (body_erased_at) cannot be sent again.
 */
export async function requeueMail(db: Db, id: number): Promise<boolean> {
  const now = new Date().toISOString();
  const r = await db
    .updateTable("mail_queue")
    .set({ status: "queued", next_attempt_at: now, locked_by: null, locked_until: null, updated_at: now })
    .where("id", "=", id)
    .where("status", "in", ["failed", "unknown"])
    .where("body_erased_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
