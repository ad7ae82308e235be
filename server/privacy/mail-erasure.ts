import type { Transaction } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Database, MailRow, MailStatus } from "../db/schema.ts";
import { maskAddress, maskAddressesIn } from "./mask.ts";

type Executor = Db | Transaction<Database>;

/** Subject left on an erased mail that relayed a visitor's message: its subject was the visitor's own text. */
export const RELAYED_SUBJECT_REMOVED = "(subject removed)";

export type ErasableMail = Pick<MailRow, "id" | "status" | "to_address" | "reply_to" | "subject" | "last_error">;

export const ERASABLE_MAIL_COLUMNS = ["id", "status", "to_address", "reply_to", "subject", "last_error"] as const;

/**
 * Blanks one mail: empty bodies and headers (which may hold an unsubscribe token), the address
 * masked to its domain, no reply-to (a visitor's address), addresses in the last error masked.
 * Kept: the row, its status, dates, attempts and Message-ID (to match SMTP logs), and the subject
 * (the store's own wording, at most an order number) unless the mail relayed a visitor's message.
 * Only while the row is still in the status it was read in, so a mail a sender just claimed is
 * left alone. `status` moves a queued mail to 'failed' (it must not go out any more).
 */
export async function eraseMail(
  db: Executor,
  mail: ErasableMail,
  at: Date,
  change: { status?: MailStatus; reason?: string } = {},
): Promise<boolean> {
  const lastError = change.reason ?? (mail.last_error == null ? null : maskAddressesIn(mail.last_error));
  const result = await db
    .updateTable("mail_queue")
    .set({
      to_address: maskAddress(mail.to_address),
      text_body: "",
      html_body: "",
      headers: "{}",
      reply_to: null,
      subject: mail.reply_to ? RELAYED_SUBJECT_REMOVED : mail.subject,
      last_error: lastError,
      body_erased_at: at.toISOString(),
      ...(change.status
        ? { status: change.status, locked_by: null, locked_until: null, updated_at: at.toISOString() }
        : {}),
    })
    .where("id", "=", mail.id)
    .where("status", "=", mail.status)
    .where("body_erased_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
