import type { Db } from "../db/connection.ts";
import type { MailStatus } from "../db/schema.ts";
import { countMailByStatus, getMail, requeueMail } from "./queue.ts";

export const MAIL_CLI_USAGE = "usage: node server/mail/cli.ts status | list [status] | requeue <id>";
const STATUSES: MailStatus[] = ["queued", "sending", "transmitting", "sent", "failed", "unknown"];

export interface CliOutput {
  table(rows: unknown): void;
  line(text: string): void;
  error(text: string): void;
}

/**
 * The mail queue's operator commands (server/mail/cli.ts is the shell entry). Returns the exit code.
 * Rows the retention policy blanked show "erased <date>" for their body and cannot be requeued.
 */
export async function runMailCommand(db: Db, args: string[], out: CliOutput): Promise<number> {
  const [command = "status", arg] = args;
  if (command === "status") {
    out.table(await countMailByStatus(db));
    return 0;
  }
  if (command === "list") {
    if (arg && !STATUSES.includes(arg as MailStatus)) {
      out.error(`unknown status "${arg}"; one of ${STATUSES.join(", ")}`);
      return 2;
    }
    const statuses = (arg ? [arg] : ["unknown", "failed"]) as MailStatus[];
    const rows = await db
      .selectFrom("mail_queue")
      .select(["id", "status", "to_address", "subject", "attempts", "message_id", "last_error", "updated_at", "body_erased_at"])
      .where("status", "in", statuses)
      .orderBy("id", "desc")
      .limit(50)
      .execute();
    out.table(rows.map(({ body_erased_at, ...row }) => ({ ...row, body: body_erased_at ? `erased ${body_erased_at.slice(0, 10)}` : "kept" })));
    return 0;
  }
  if (command === "requeue" && arg && /^\d{1,15}$/.test(arg)) {
    const id = Number(arg);
    const mail = await getMail(db, id);
    if (!mail) {
      out.error(`mail #${id} does not exist`);
      return 1;
    }
    if (mail.body_erased_at) {
      out.error(`mail #${id}'s body was erased on ${mail.body_erased_at.slice(0, 10)} (retention policy); it cannot be sent again`);
      return 1;
    }
    const ok = await requeueMail(db, id);
    if (ok) out.line(`mail #${id} queued again`);
    else out.error(`mail #${id} is not failed or unknown; nothing changed`);
    return ok ? 0 : 1;
  }
  out.error(MAIL_CLI_USAGE);
  return 2;
}
