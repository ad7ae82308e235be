/**
 * Operator commands for the mail queue (honours DATABASE_URL / SQLITE_PATH):
 *
 *   node server/mail/cli.ts status              counts per status
 *   node server/mail/cli.ts list [status]       the 50 newest mails (default: unknown and failed)
 *   node server/mail/cli.ts requeue <id>        send a 'failed' or 'unknown' mail again
 *
 * Before requeueing an 'unknown' mail, look its Message-ID up in the SMTP server's logs: it may
 * have been delivered already (see docs/decisions/0002-durable-mail.md). A mail whose body the
 * retention policy erased (MAIL_RETENTION_DAYS, MAIL_FAILED_RETENTION_DAYS) cannot be requeued.
 */
import { getDb } from "../db/connection.ts";
import { runMailCommand } from "./operator.ts";

const db = getDb();
try {
  process.exitCode = await runMailCommand(db, process.argv.slice(2), {
    table: (rows) => console.table(rows),
    line: (text) => console.log(text),
    error: (text) => console.error(text),
  });
} finally {
  await db.destroy();
}
