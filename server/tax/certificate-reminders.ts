import type { Db } from "../db/connection.ts";
import type { PeriodicJob } from "../jobs/runner.ts";
import { enqueueMail } from "../mail/queue.ts";
import { certificateExpiringMail } from "./certificate-mails.ts";
import { certificateMailFacts } from "./certificates.ts";

/** Companies are mailed this many days before a verified certificate's last day. */
const REMINDER_DAYS = 30;

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Mails the uploader of every verified certificate whose last day is within REMINDER_DAYS, once
 * per certificate: the mail and the mark that it was sent commit together.
 */
export async function remindExpiringCertificates(db: Db, now: Date, siteUrl: string): Promise<number> {
  const until = day(new Date(now.getTime() + REMINDER_DAYS * 86_400_000));
  const due = await db
    .selectFrom("tax_exemption_certificates")
    .select("id")
    .where("status", "=", "verified")
    .where("reminded_at", "is", null)
    .where("expires_on", ">=", day(now))
    .where("expires_on", "<=", until)
    .limit(200)
    .execute();
  let sent = 0;
  for (const { id } of due) {
    const mailed = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("tax_exemption_certificates")
        .set({ reminded_at: now.toISOString() })
        .where("id", "=", id)
        .where("reminded_at", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      const facts = await certificateMailFacts(trx, id, siteUrl);
      if (facts) await enqueueMail(trx, certificateExpiringMail(facts));
      return Boolean(facts);
    });
    if (mailed) sent += 1;
  }
  return sent;
}

export function certificateRemindersJob(siteUrl: string, options: { everyMs?: number } = {}): PeriodicJob {
  return {
    name: "tax-certificate-reminders",
    everyMs: options.everyMs ?? 60 * 60_000,
    async run(db, now) {
      const n = await remindExpiringCertificates(db, now, siteUrl);
      return n ? `${n} exemption certificate reminder${n === 1 ? "" : "s"} mailed` : undefined;
    },
  };
}
