/**
 * Contact messages: stored, mailed to the store's inbox (Reply-To = the sender) and acknowledged
 * to the sender in the store's own words (acknowledgementMail) — all in one transaction with the mail queue, so a message is never stored
 * without its mails or mailed without being stored.
 */
import { contactSchema, type ContactInput } from "../../app/lib/forms.ts";
import { STORE_HOURS } from "../../app/lib/site.ts";
import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";

export class ContactValidationError extends Error {
  readonly code = "CONTACT_INVALID";
  readonly fields: string[];
  constructor(fields: string[]) {
    super(`Invalid contact message: ${fields.join(", ")}`);
    this.name = "ContactValidationError";
    this.fields = fields;
  }
}

/** "Name" <address> with the name quoted, so commas or angle brackets in it stay part of the name. */
function mailbox(name: string, address: string): string {
  return `"${name.replace(/[\\"]/g, "\\$&")}" <${address}>`;
}

/**
 * The acknowledgement to the address typed in the form: only the store's own words and the
 * message's number. Nothing the visitor typed (name, subject, message) is echoed, so the form
 * can't be used to send someone else a text of one's choosing under the store's name.
 */
function acknowledgementMail(input: { to: string; id: number; siteUrl: string }) {
  return {
    to: input.to,
    subject: "We've received your message — ToolHub Wholesale",
    ...renderMail({
      heading: "Thanks for getting in touch",
      paragraphs: [
        "Hello,",
        "We've received the message sent through the contact form on our website and will reply to this address as soon as we can.",
        `Your reference: message #${input.id}.`,
        `Our opening hours: ${STORE_HOURS.map((h) => `${h.days} ${h.hours}`).join("; ")}.`,
      ],
      action: { label: "Visit ToolHub Wholesale", url: `${input.siteUrl}/` },
      footer: `You're getting this email because this address was entered in the contact form on ${input.siteUrl}. If that wasn't you, you can ignore it.`,
    }),
  };
}

/** An identical message from the same address within this time is a duplicate. */
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export interface ContactOptions {
  storeInbox: string;
  siteUrl: string;
  ip?: string;
  now?: Date;
}

export async function submitContactMessage(
  db: Db,
  input: ContactInput,
  options: ContactOptions,
): Promise<{ id: number; mailIds: number[] }> {
  // The action validated already; the domain checks again so no caller can skip it.
  const parsed = contactSchema.safeParse(input);
  if (!parsed.success)
    throw new ContactValidationError([...new Set(parsed.error.issues.map((i) => String(i.path[0])))]);
  const { name, email, subject, message } = parsed.data;
  const at = (options.now ?? new Date()).toISOString();

  const postgres = dbKind(db) === "postgres";
  return db.transaction().execute(async (trx) => {
    // The same message sent again within minutes (a double click, a re-posted form) is the one
    // already stored and mailed. PostgreSQL: one sender's submissions take turns (SQLite's
    // transactions already do), so two at once can't both miss each other.
    if (postgres) await sql`select pg_advisory_xact_lock(hashtext(${`contact:${email.toLowerCase()}`}))`.execute(trx);
    const since = new Date(Date.parse(at) - DUPLICATE_WINDOW_MS).toISOString();
    const same = await trx
      .selectFrom("contact_messages")
      .select("id")
      .where("email", "=", email)
      .where("subject", "=", subject)
      .where("message", "=", message)
      .where("created_at", ">=", since)
      .executeTakeFirst();
    if (same) return { id: Number(same.id), mailIds: [] };
    const row = await trx
      .insertInto("contact_messages")
      .values({ name, email, subject, message, ip: options.ip ?? null, created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);

    const toStore = await enqueueMail(trx, {
      to: options.storeInbox,
      replyTo: mailbox(name, email),
      subject: `Contact form: ${subject}`,
      ...renderMail({
        heading: `New message from ${name}`,
        paragraphs: [`From: ${name} <${email}>`, `Subject: ${subject}`, message],
        footer: `Contact message #${id}, received ${at}. Reply to this email to answer ${name}.`,
      }),
    });
    const ack = await enqueueMail(trx, acknowledgementMail({ to: email, id, siteUrl: options.siteUrl }));
    return { id, mailIds: [toStore.id, ack.id] };
  });
}
