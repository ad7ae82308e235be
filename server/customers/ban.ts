/**
 * Banning and unbanning a customer from the back office, on Better Auth's admin-plugin columns
 * (user.banned, banReason, banExpires). A ban, in one transaction: the user row, every session
 * deleted (sessions live only in the `session` table, so the next request of each device is
 * signed out), and the audit row. Bans don't expire. Staff and admin accounts are refused: staff
 * are managed on the Staff page, by admins.
 *
 * Better Auth refuses to create a session for a banned user (403 BANNED_USER with the
 * bannedUserMessage configured in server/auth/auth.ts), which is what the sign-in page shows.
 */
import { sql, type SqlBool } from "kysely";
import { BAN_MESSAGES } from "../../app/lib/admin/customer-labels.ts";
import { banSchema } from "../../app/lib/admin/customer-schema.ts";
import { STAFF_ROLES, roleOf } from "../auth/permissions.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import { dbKind, type Db } from "../db/connection.ts";
import { ConflictError, DomainError, InvalidError, NotAllowedError, NotFoundError } from "../errors.ts";
import { authDate } from "../privacy/retention.ts";
import { plausibleUserId } from "./detail.ts";

export { BAN_MESSAGES };

const notFound = () => new NotFoundError("CUSTOMER_NOT_FOUND", BAN_MESSAGES.notFound);

/** The value stored for a boolean in Better Auth's columns: 0/1 on SQLite, boolean on PostgreSQL. */
function flag(db: Db, value: boolean): boolean | number {
  return dbKind(db) === "postgres" ? value : value ? 1 : 0;
}

const customerOnly = sql<SqlBool>`("role" is null or "role" not in (${sql.join(STAFF_ROLES.map((r) => sql.lit(r)))}))`;
const isBanned = sql<SqlBool>`coalesce("banned", ${sql.lit(false)}) = ${sql.lit(true)}`;

async function explainRefusal(db: Db, userId: string, whenUnchanged: DomainError): Promise<never> {
  const row = await db.selectFrom("user").select(["role"]).where("id", "=", userId).executeTakeFirst();
  if (!row) throw notFound();
  if (STAFF_ROLES.includes(roleOf(row.role))) throw new NotAllowedError("CANNOT_BAN_STAFF", BAN_MESSAGES.staff);
  throw whenUnchanged;
}

/** The ban form's reason, checked with its zod schema: the value to store, or the message to show beside the field. */
export function checkBanReason(raw: unknown): { ok: true; reason: string } | { ok: false; message: string } {
  const parsed = banSchema.safeParse({ reason: raw });
  return parsed.success
    ? { ok: true, reason: parsed.data.reason }
    : { ok: false, message: parsed.error.issues[0]?.message ?? "Enter the reason for the ban." };
}

export async function banCustomer(
  db: Db,
  actor: AuditActor,
  userId: string,
  input: { reason: unknown },
  now = new Date(),
): Promise<{ sessionsEnded: number; message: string }> {
  if (!plausibleUserId(userId)) throw notFound();
  const checked = checkBanReason(input.reason);
  if (!checked.ok) throw new InvalidError("BAN_INVALID", checked.message);
  const reason = checked.reason;
  const outcome = await db.transaction().execute(async (trx) => {
    // One conditional UPDATE: the role and ban checks and the change can't be split by another writer.
    const updated = await trx
      .updateTable("user")
      .set({ banned: flag(db, true), banReason: reason, banExpires: null, updatedAt: authDate(db, now) })
      .where("id", "=", userId)
      .where(customerOnly)
      .where((eb) => eb.not(isBanned))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    const deleted = await trx.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
    const sessionsEnded = Number(deleted.numDeletedRows);
    await writeAudit(
      trx,
      actor,
      {
        action: "customer.ban",
        objectType: "user",
        objectId: userId,
        before: { banned: false },
        after: { banned: true, banReason: reason, sessionsEnded },
      },
      now,
    );
    return { sessionsEnded };
  });
  if (!outcome) return explainRefusal(db, userId, new ConflictError("ALREADY_BANNED", BAN_MESSAGES.alreadyBanned));
  return { ...outcome, message: BAN_MESSAGES.banned(outcome.sessionsEnded) };
}

export async function unbanCustomer(
  db: Db,
  actor: AuditActor,
  userId: string,
  now = new Date(),
): Promise<{ message: string }> {
  if (!plausibleUserId(userId)) throw notFound();
  const done = await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("user")
      .select(["banReason"])
      .where("id", "=", userId)
      .where(customerOnly)
      .where(isBanned)
      .executeTakeFirst();
    if (!before) return false;
    const updated = await trx
      .updateTable("user")
      .set({ banned: flag(db, false), banReason: null, banExpires: null, updatedAt: authDate(db, now) })
      .where("id", "=", userId)
      .where(customerOnly)
      .where(isBanned)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await writeAudit(
      trx,
      actor,
      {
        action: "customer.unban",
        objectType: "user",
        objectId: userId,
        before: { banned: true, banReason: before.banReason },
        after: { banned: false },
      },
      now,
    );
    return true;
  });
  if (!done) return explainRefusal(db, userId, new ConflictError("NOT_BANNED", BAN_MESSAGES.notBanned));
  return { message: BAN_MESSAGES.unbanned };
}
