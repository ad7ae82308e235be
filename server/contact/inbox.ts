/**
 * The contact inbox in the back office: list, read, mark handled or not, and reply by mail. Every
 * change writes its audit row in the same transaction; a reply also queues its mail there.
 * The unhandled filter and count want a partial index on contact_messages (id) where handled_at is null.
 */
import { replySchema, type MessageFilter } from "../../app/lib/admin/message-schema.ts";

import { listAudit, writeAudit, type AuditActor } from "../audit/audit.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { ContactMessageRow } from "../db/schema.ts";
import { ConflictError, InvalidError, NotFoundError, UnprocessableError } from "../errors.ts";
import { enqueueMail, MailValidationError } from "../mail/queue.ts";
import { contactReplyMail } from "./reply-mail.ts";

const MESSAGES_PER_PAGE = 25;
const MAX_MESSAGE_PAGE = 400;

export const INBOX_MESSAGES = {
  notFound: "This message doesn't exist.",
  handled: "Marked as handled.",
  unhandled: "Marked as unhandled.",
  alreadyHandled: "This message was already marked as handled.",
  alreadyUnhandled: "This message was already unhandled.",
  replied: "Reply sent. The message is marked as handled.",
  undeliverable: "This sender's address can't receive mail, so no reply was sent.",
  staleReply: "Someone replied to this message while you were writing. Read their reply below before sending another.",
} as const;

export interface InboxQuery {
  filter?: MessageFilter;
  page?: number;
}

export type InboxRow = Pick<
  ContactMessageRow,
  "id" | "name" | "email" | "subject" | "created_at" | "handled_at" | "replied_at"
>;

export function parseMessageId(raw: unknown): number | null {
  return typeof raw === "string" && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

export async function countUnhandledMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom("contact_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("handled_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first, LIMIT/OFFSET with a cap. */
export async function listMessages(
  db: Db,
  query: InboxQuery = {},
): Promise<{ rows: InboxRow[]; page: number; hasNext: boolean }> {
  const page = Math.min(Math.max(Math.trunc(query.page ?? 1) || 1, 1), MAX_MESSAGE_PAGE);
  let select = db
    .selectFrom("contact_messages")
    .select(["id", "name", "email", "subject", "created_at", "handled_at", "replied_at"]);
  if (query.filter === "unhandled") select = select.where("handled_at", "is", null);
  if (query.filter === "handled") select = select.where("handled_at", "is not", null);
  const rows = await select
    .orderBy("id", "desc")
    .limit(MESSAGES_PER_PAGE + 1)
    .offset((page - 1) * MESSAGES_PER_PAGE)
    .execute();
  return {
    rows: rows.slice(0, MESSAGES_PER_PAGE).map((r) => ({ ...r, id: Number(r.id) })),
    page,
    hasNext: rows.length > MESSAGES_PER_PAGE && page < MAX_MESSAGE_PAGE,
  };
}

interface SentReply {
  at: string;
  by: string;
  text: string;
}

export interface MessageDetail {
  message: ContactMessageRow;
  handledByName: string | null;
  /** Replies sent from the back office, oldest first (their text is kept in the audit log). */
  replies: SentReply[];
}

export async function getMessage(db: Db, id: number): Promise<MessageDetail | null> {
  const message = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirst();
  if (!message) return null;
  const [handler, audit] = await Promise.all([
    message.handled_by
      ? db.selectFrom("user").select("name").where("id", "=", message.handled_by).executeTakeFirst()
      : undefined,
    listAudit(db, { objectType: "contact_message", objectId: String(id), limit: 200 }),
  ]);
  const replies = audit.rows
    .filter((row) => row.action === "message.reply" && row.after)
    .map((row) => ({
      at: row.created_at,
      by: row.actor_name,
      text: (JSON.parse(row.after!) as { reply?: string }).reply ?? "",
    }))
    .reverse();
  return { message: { ...message, id: Number(message.id) }, handledByName: handler?.name ?? null, replies };
}

const notFound = () => new NotFoundError("MESSAGE_NOT_FOUND", INBOX_MESSAGES.notFound);

/** Marks a message handled (or not). Marking it as it already is changes nothing and writes no audit row. */
export async function setMessageHandled(
  db: Db,
  actor: AuditActor,
  id: number,
  handled: boolean,
  now = new Date(),
): Promise<{ changed: boolean; message: string }> {
  const at = now.toISOString();
  const changed = await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("contact_messages")
      .select(["handled_at", "handled_by"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!before) throw notFound();
    const after = handled ? { handled_at: at, handled_by: actor.userId } : { handled_at: null, handled_by: null };
    const updated = await trx
      .updateTable("contact_messages")
      .set(after)
      .where("id", "=", id)
      .where("handled_at", handled ? "is" : "is not", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await writeAudit(
      trx,
      actor,
      {
        action: handled ? "message.handle" : "message.unhandle",
        objectType: "contact_message",
        objectId: id,
        before,
        after,
      },
      now,
    );
    return true;
  });
  if (changed) return { changed, message: handled ? INBOX_MESSAGES.handled : INBOX_MESSAGES.unhandled };
  return { changed, message: handled ? INBOX_MESSAGES.alreadyHandled : INBOX_MESSAGES.alreadyUnhandled };
}

export interface ReplyOptions {
  storeInbox: string;
  siteUrl: string;
  now?: Date;
}

/** The reply form checked with its zod schema: the values, or the message to show beside the field. */
export function checkReply(input: {
  reply: unknown;
  seen?: unknown;
}): { ok: true; reply: string; seen: string } | { ok: false; message: string } {
  const parsed = replySchema.safeParse(input);
  return parsed.success
    ? { ok: true, ...parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? "Write your reply." };
}

/**
 * Replies to a message: queues the mail to the sender, sets replied_at, marks it handled and writes
 * the audit row (with the reply's text), all in one transaction. `seen` is the replied_at the
 * page showed: if another reply went out since, nothing is sent.
 */
export async function replyToMessage(
  db: Db,
  actor: AuditActor,
  id: number,
  input: { reply: unknown; seen?: unknown },
  options: ReplyOptions,
): Promise<{ mailId: number; message: string }> {
  const checked = checkReply(input);
  if (!checked.ok) throw new InvalidError("REPLY_INVALID", checked.message);
  const { reply, seen } = checked;
  const at = (options.now ?? new Date()).toISOString();
  const postgres = dbKind(db) === "postgres";
  const mailId = await db.transaction().execute(async (trx) => {
    const query = trx.selectFrom("contact_messages").selectAll().where("id", "=", id);
    const message = await (postgres ? query.forUpdate() : query).executeTakeFirst();
    if (!message) throw notFound();
    const updated = await trx
      .updateTable("contact_messages")
      .set({
        replied_at: at,
        handled_at: message.handled_at ?? at,
        handled_by: message.handled_at ? message.handled_by : actor.userId,
      })
      .where("id", "=", id)
      .where("replied_at", seen ? "=" : "is", seen || null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new ConflictError("REPLY_STALE", INBOX_MESSAGES.staleReply);
    const mail = await enqueueMail(trx, contactReplyMail(message, reply, options)).catch((error: unknown) => {
      if (error instanceof MailValidationError)
        throw new UnprocessableError("REPLY_UNDELIVERABLE", INBOX_MESSAGES.undeliverable);
      throw error;
    });
    await writeAudit(
      trx,
      actor,
      {
        action: "message.reply",
        objectType: "contact_message",
        objectId: id,
        before: { replied_at: message.replied_at, handled_at: message.handled_at },
        after: { replied_at: at, handled_at: message.handled_at ?? at, mail_id: mail.id, reply },
      },
      new Date(at),
    );
    return mail.id;
  });
  return { mailId, message: INBOX_MESSAGES.replied };
}
