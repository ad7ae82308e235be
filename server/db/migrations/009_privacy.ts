import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Privacy and retention (issue 11, items 6 and 7; server/privacy/).
 * - mail_queue.body_erased_at: when the retention job or an account deletion blanked the row's
 *   body and masked its address; such a row is never sent again.
 * - Indexes for the retention job (rows not yet erased, by state and age) and for an account's
 *   deletion (its mails and contact messages, found by address).
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema.alterTable("mail_queue").addColumn("body_erased_at", "text").execute();
  await sql`create index mail_queue_retention_idx on mail_queue (status, updated_at) where body_erased_at is null`.execute(
    db,
  );
  await sql`create index mail_queue_to_idx on mail_queue (lower(to_address))`.execute(db);
  // Mails with a reply-to relay a visitor's message (contact form); the retention job clears it.
  await sql`create index mail_queue_relayed_idx on mail_queue (id) where reply_to is not null`.execute(db);
  await sql`create index contact_messages_email_idx on contact_messages (lower(email))`.execute(db);
}
