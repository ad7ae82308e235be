import type { Db } from "../db/connection.ts";
import type { MailStatus } from "../db/schema.ts";
import { countMailByStatus, getMail, requeueMail } from "./queue.ts";

const MAIL_CLI_USAGE = "usage: node server/mail/cli.ts status | list [status] | requeue <id>";
const STATUSES: MailStatus[] = ["queued", "sending", "transmitting", "sent", "failed", "unknown"];

export interface CliOutput {
  table(rows: unknown): void;
  line(text: string): void;
  error(text: string): void;
}

/** The columns of a mail_queue row as the CLI and the back office list it. */
export const MAIL_ROW_COLUMNS = [
  "id",
  "status",
  "to_address",
  "subject",
  "attempts",
  "message_id",
  "last_error",
  "updated_at",
  "body_erased_at",
] as const;

/** The newest mails in these statuses, as the CLI's `list` and the back office's mail page show them. */
export async function listMail(db: Db, statuses: readonly MailStatus[], limit = 50) {
  return db
    .selectFrom("mail_queue")
    .select(MAIL_ROW_COLUMNS)
    .where("status", "in", [...statuses])
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export type RequeueOutcome =
  | { ok: true; message: string; status: MailStatus }
  | { ok: false; reason: "missing" | "erased" | "not-stuck"; message: string };

/**
 * Puts one 'failed' or 'unknown' mail back in the queue, with the reason when it can't be
 * (the CLI's `requeue` and the back office's Requeue button). Works inside a caller's transaction.
 */
export async function requeueChecked(db: Db, id: number): Promise<RequeueOutcome> {
  const mail = await getMail(db, id);
  if (!mail) return { ok: false, reason: "missing", message: `mail #${id} does not exist` };
  if (mail.body_erased_at) {
    return {
      ok: false,
      reason: "erased",
      message: `mail #${id}'s body was erased on ${mail.body_erased_at.slice(0, 10)} (retention policy); it cannot be sent again`,
    };
  }
  if (await requeueMail(db, id)) return { ok: true, message: `mail #${id} queued again`, status: mail.status };
  return { ok: false, reason: "not-stuck", message: `mail #${id} is not failed or unknown; nothing changed` };
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
    const rows = await listMail(db, statuses);
    out.table(
      rows.map(({ body_erased_at, ...row }) => ({
        ...row,
        body: body_erased_at ? `erased ${body_erased_at.slice(0, 10)}` : "kept",
      })),
    );
    return 0;
  }
  if (command === "requeue" && arg && /^\d{1,15}$/.test(arg)) {
    const outcome = await requeueChecked(db, Number(arg));
    if (outcome.ok) out.line(outcome.message);
    else out.error(outcome.message);
    return outcome.ok ? 0 : 1;
  }
  out.error(MAIL_CLI_USAGE);
  return 2;
}
