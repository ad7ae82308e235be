/**
 * Who is on the staff list. The one way an existing account is given a back-office role
 * (grantStaffRole) and the one way a role is taken away (removeStaffMember): the back office
 * (manage.ts: an invitation to an address that already has an account, the Remove button) and
 * `npm run staff` (staff.ts: add, remove) both call these, so the rules below hold on both.
 *
 * Granting a role to an account whose address was never verified: whoever set its password may
 * not own the address (someone can sign up newhire@<company> before the real new hire exists), so
 * in the same transaction as the role: every sign-in method of the account (its password, the
 * `account` rows), every session, its second factor (the `twoFactor` row, `twoFactorEnabled`) and
 * its pending verification values (trusted devices, reset links) are removed, the address is
 * marked verified, and a set-password link goes to the address (the invitation's token). From
 * then on the only ways in go through the mailbox, exactly like a new invitee's account (created
 * verified and without a password), which is why the address counts as verified at that moment
 * (docs/decisions/0040-staff-role-for-unverified-accounts.md).
 *
 * Granting a role to a verified account keeps its password and second factor but ends every
 * session, so the next one is made under the staff role (12 hours, a second factor).
 *
 * Each change writes one audit row and queues its mail in its transaction. Role removals and
 * demotions keep at least one admin: the admins' rows are locked first on PostgreSQL (SQLite runs
 * one write transaction at a time), so two admins removed at the same moment can't both go.
 */
import { randomBytes } from "node:crypto";
import { sql, type SqlBool, type Transaction } from "kysely";
import type { Auth } from "../auth/auth.ts";
import { roleOf, type Role } from "../auth/permissions.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, InvalidError, NotFoundError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { authDate } from "../privacy/retention.ts";
import { accessMail, INVITE_DAYS, reclaimedAccountMail } from "./mails.ts";
import { isStaffRole, type StaffRole } from "./roles.ts";

/** Better Auth's boolean columns hold 0/1 on SQLite and booleans on PostgreSQL; TRUE/FALSE literals suit both. */
const SQL_TRUE = sql.lit(true);
export const SQL_FALSE = sql.lit(false);
const isTrue = (value: unknown): boolean => value === true || value === 1;

/** `column` is true (null counts as false). */
export function flagIsTrue(column: "emailVerified" | "twoFactorEnabled") {
  return sql<SqlBool>`coalesce(${sql.ref(column)}, ${SQL_FALSE}) = ${SQL_TRUE}`;
}

const STAFF_CHANGED_MESSAGE = "That account changed at the same moment. Reload and try again.";
const LAST_ADMIN_MESSAGE = "There must always be at least one admin.";

/**
 * A set-password link's token: Better Auth's reset-password verification value (made through its
 * adapter, which may store the identifier hashed), valid for INVITE_DAYS. Returns the row's id too.
 */
export async function createInviteToken(
  auth: Pick<Auth, "$context">,
  userId: string,
  now: Date,
): Promise<{ token: string; id: string }> {
  const token = randomBytes(24).toString("base64url");
  const ctx = await auth.$context;
  const row = await ctx.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt: new Date(now.getTime() + INVITE_DAYS * 86400_000),
  });
  return { token, id: String(row.id) };
}

export function setPasswordLink(siteUrl: string, token: string): string {
  return `${siteUrl}/reset-password?token=${token}`;
}

/**
 * Refuses (LAST_ADMIN) unless an admin other than `leaving` remains. Call it in the transaction
 * that takes the admin role from `leaving`, before the change.
 */
export async function keepAnotherAdmin(trx: Transaction<Database>, leaving: string): Promise<void> {
  let query = trx.selectFrom("user").select("id").where("role", "=", "admin").orderBy("id");
  if (dbKind(trx) === "postgres") query = query.forUpdate();
  const admins = await query.execute();
  if (!admins.some((a) => a.id !== leaving)) throw new ConflictError("LAST_ADMIN", LAST_ADMIN_MESSAGE);
}

/** A member of the staff list, or NOT_STAFF (404). */
export async function staffMember(db: Db, userId: string) {
  const row = await db
    .selectFrom("user")
    .select(["id", "email", "name", "role"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row || !isStaffRole(row.role)) throw new NotFoundError("NOT_STAFF", "That person is not on the staff list.");
  return { ...row, role: row.role };
}

export interface GrantInput {
  userId: string;
  role: StaffRole;
  /** The name the admin or operator gave; replaces the name of an unverified account (someone else chose it). */
  name?: string;
}

export type GrantOutcome =
  | { kind: "unchanged"; userId: string; previousRole: Role }
  /** A verified account: the role, its sessions ended, a mail. */
  | { kind: "promoted"; userId: string; previousRole: Role; sessionsEnded: number }
  /** An unverified account: password, sessions and second factor removed, the role, a set-password link mailed. */
  | { kind: "reclaimed"; userId: string; previousRole: Role; sessionsEnded: number };

/**
 * Gives an existing account a staff role (see the module comment). `auth` makes the set-password
 * token; `siteUrl` is the start of the links mailed. Nothing changes when the account already has
 * that role.
 */
export async function grantStaffRole(
  db: Db,
  auth: Pick<Auth, "$context">,
  actor: AuditActor,
  input: GrantInput,
  siteUrl: string,
  now = new Date(),
): Promise<GrantOutcome> {
  if (!isStaffRole(input.role)) throw new InvalidError("INVALID_ROLE", "Choose staff or admin.");
  const role = input.role;
  const user = await db
    .selectFrom("user")
    .select(["id", "email", "name", "role", "emailVerified", "twoFactorEnabled"])
    .where("id", "=", input.userId)
    .executeTakeFirst();
  if (!user) throw new NotFoundError("NOT_FOUND", "There is no account with that email.");
  const previousRole = roleOf(user.role);
  if (user.role === role) return { kind: "unchanged", userId: user.id, previousRole };
  const verified = isTrue(user.emailVerified);
  // Made first, through Better Auth; if the change below rolls back, the token was never mailed.
  const invite = verified ? null : await createInviteToken(auth, user.id, now);
  const name = (!verified && input.name?.trim()) || user.name || input.name?.trim() || user.email.split("@")[0];

  return db.transaction().execute(async (trx) => {
    if (previousRole === "admin") await keepAnotherAdmin(trx, user.id);
    // One conditional update: a role or verification changed since the read refuses the whole change.
    const changed = await trx
      .updateTable("user")
      .set(
        verified
          ? { role, updatedAt: authDate(db, now) }
          : { role, name, emailVerified: SQL_TRUE, twoFactorEnabled: SQL_FALSE, updatedAt: authDate(db, now) },
      )
      .where("id", "=", user.id)
      .where("role", "is not distinct from", user.role)
      .where((eb) => (verified ? flagIsTrue("emailVerified") : eb.not(flagIsTrue("emailVerified"))))
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new ConflictError("STAFF_CHANGED", STAFF_CHANGED_MESSAGE);
    const sessionsEnded = Number(
      (await trx.deleteFrom("session").where("userId", "=", user.id).executeTakeFirst()).numDeletedRows,
    );

    const auditPromotion = (before: Record<string, unknown>, after: Record<string, unknown>) =>
      writeAudit(trx, actor, { action: "staff.promote", objectType: "user", objectId: user.id, before, after }, now);

    if (verified) {
      await auditPromotion({ role: previousRole, sessions: sessionsEnded }, { role, sessions: 0 });
      await enqueueMail(trx, accessMail(user.email, user.name || name, `${siteUrl}/admin`, role));
      return { kind: "promoted", userId: user.id, previousRole, sessionsEnded };
    }

    const methods = await trx
      .selectFrom("account")
      .select("providerId")
      .where("userId", "=", user.id)
      .orderBy("providerId")
      .execute();
    await trx.deleteFrom("account").where("userId", "=", user.id).execute();
    const factors = Number(
      (await trx.deleteFrom("twoFactor").where("userId", "=", user.id).executeTakeFirst()).numDeletedRows,
    );
    // Trusted devices and links issued before: keyed by the user id whether or not the identifier is hashed.
    await trx.deleteFrom("verification").where("value", "=", user.id).where("id", "!=", invite!.id).execute();
    await auditPromotion(
      {
        role: previousRole,
        emailVerified: false,
        signInMethods: methods.map((m) => m.providerId),
        twoFactor: factors > 0 || isTrue(user.twoFactorEnabled),
        sessions: sessionsEnded,
        ...(name !== user.name ? { name: user.name } : {}),
      },
      {
        role,
        emailVerified: true,
        signInMethods: [],
        twoFactor: false,
        sessions: 0,
        ...(name !== user.name ? { name } : {}),
        setPasswordLinkMailed: true,
      },
    );
    await enqueueMail(
      trx,
      reclaimedAccountMail(user.email, name, setPasswordLink(siteUrl, invite!.token), role, actor.name),
    );
    return { kind: "reclaimed", userId: user.id, previousRole, sessionsEnded };
  });
}

/** Takes someone off the staff list: the account stays as a customer and every session of theirs ends; the last admin stays. */
export async function removeStaffMember(
  db: Db,
  actor: AuditActor,
  userId: string,
  now = new Date(),
): Promise<{ previousRole: StaffRole; sessionsEnded: number }> {
  const member = await staffMember(db, userId);
  return db.transaction().execute(async (trx) => {
    if (member.role === "admin") await keepAnotherAdmin(trx, userId);
    const changed = await trx
      .updateTable("user")
      .set({ role: "customer", updatedAt: authDate(db, now) })
      .where("id", "=", userId)
      .where("role", "=", member.role)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1)
      throw new ConflictError("STAFF_CHANGED", "Their role changed at the same moment. Reload to see it.");
    const sessionsEnded = Number(
      (await trx.deleteFrom("session").where("userId", "=", userId).executeTakeFirst()).numDeletedRows,
    );
    await writeAudit(
      trx,
      actor,
      {
        action: "staff.remove",
        objectType: "user",
        objectId: userId,
        before: { role: member.role },
        after: { role: "customer" },
      },
      now,
    );
    return { previousRole: member.role, sessionsEnded };
  });
}
