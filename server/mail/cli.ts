/**
 * Operator commands for the mail queue (honours DATABASE_URL / SQLITE_PATH):
 *
 *   node server/mail/cli.ts status              counts per status
 *   node server/mail/cli.ts list [status]       the 50 newest mails (default: unknown and failed)
 *   node server/mail/cli.ts requeue <id>        send a 'failed' or 'unknown' mail again
 *
 * Before requeueing an 'unknown' mail, look its Message-ID up in the SMTP server's logs: it may
 * have been delivered already (see docs/decisions/0002-durable-mail.md).
 */
import { getDb } from "../db/connection.ts";
import type { MailStatus } from "../db/schema.ts";
import { countMailByStatus, requeueMail } from "./queue.ts";

const [command = "status", arg] = process.argv.slice(2);
const db = getDb();
try {
  if (command === "status") {
    console.table(await countMailByStatus(db));
  } else if (command === "list") {
    const statuses = (arg ? [arg] : ["unknown", "failed"]) as MailStatus[];
    const rows = await db
      .selectFrom("mail_queue")
      .select(["id", "status", "to_address", "subject", "attempts", "message_id", "last_error", "updated_at"])
      .where("status", "in", statuses)
      .orderBy("id", "desc")
      .limit(50)
      .execute();
    console.table(rows);
  } else if (command === "requeue" && arg && /^\d+$/.test(arg)) {
    const ok = await requeueMail(db, Number(arg));
    console.log(ok ? `mail #${arg} queued again` : `mail #${arg} is not failed or unknown; nothing changed`);
    process.exitCode = ok ? 0 : 1;
  } else {
    console.error("usage: node server/mail/cli.ts status | list [status] | requeue <id>");
    process.exitCode = 2;
  }
} finally {
  await db.destroy();
}
