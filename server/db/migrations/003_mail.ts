import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Durable mail queue, newsletter subscribers and contact messages (issue 6).
 * Timestamps are ISO-8601 UTC strings (`Date#toISOString()`), like the catalog's, so they sort
 * and compare the same way on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const id = kind === "postgres" ? "serial" : "integer";
  const pk = (c: any) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement());

  // See server/mail/sender.ts and docs/decisions/0002-durable-mail.md for the state machine:
  // queued → sending → transmitting → sent, with failed and unknown as the end states that
  // need a person (unknown = the SMTP server may or may not have accepted it).
  await db.schema
    .createTable("mail_queue")
    .addColumn("id", id, pk)
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("reply_to", "text")
    /** JSON object of extra headers (List-Unsubscribe …). */
    .addColumn("headers", "text", (c) => c.notNull().defaultTo("{}"))
    /** Stable Message-ID, chosen at enqueue time and used for every attempt. */
    .addColumn("message_id", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`status in ('queued', 'sending', 'transmitting', 'sent', 'failed', 'unknown')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    /** Lease: the claim is valid until then; a stale lease is recovered by any sender. */
    .addColumn("locked_until", "text")
    /** Fencing token of the claim that holds the lease. */
    .addColumn("locked_by", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema
    .createIndex("mail_queue_due_idx")
    .on("mail_queue")
    .columns(["status", "next_attempt_at", "id"])
    .execute();
  await db.schema.createIndex("mail_queue_lease_idx").on("mail_queue").columns(["status", "locked_until"]).execute();

  await db.schema
    .createTable("newsletter_subscribers")
    .addColumn("id", id, pk)
    /** Lower-cased, trimmed address. */
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'confirmed', 'unsubscribed')`))
    /** SHA-256 (hex) of the current double opt-in token; null once used. */
    .addColumn("confirm_token_hash", "text", (c) => c.unique())
    .addColumn("confirm_expires_at", "text")
    /** Random token in every newsletter mail's unsubscribe link (needed in clear to build links). */
    .addColumn("unsubscribe_token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("confirmation_sent_at", "text")
    .addColumn("confirmed_at", "text")
    .addColumn("unsubscribed_at", "text")
    .execute();

  await db.schema
    .createTable("contact_messages")
    .addColumn("id", id, pk)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("contact_messages_created_idx").on("contact_messages").column("created_at").execute();
}
