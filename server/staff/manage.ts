/**
 * Managing staff from the back office (admins only): invite by email, change role, reset a
 * colleague's second factor, remove. The same role column as `npm run staff` (server/staff/staff.ts);
 * every change writes an audit row in its transaction. An invitee gets an account without a
 * password and a mail with a link to set one (Better Auth's reset-password token, valid for
 * INVITE_DAYS); on first entry to /admin they enrol in two-factor authentication like everyone
 * else. An address that already has an account is given the role by grantStaffRole
 * (membership.ts), which the command line uses too: an unverified account loses its password,
 * sessions and second factor first.
 */
import { z } from "zod";
import type { Auth } from "../auth/auth.ts";
import { roleOf, STAFF_ROLES } from "../auth/permissions.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, InvalidError, NotAllowedError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { authDate } from "../privacy/retention.ts";
import { INVITE_DAYS, inviteMail, twoFactorResetMail } from "./mails.ts";
import {
  createInviteToken,
  flagIsTrue,
  grantStaffRole,
  keepAnotherAdmin,
  setPasswordLink,
  SQL_FALSE,
  staffMember,
  type GrantOutcome,
} from "./membership.ts";
import { isStaffRole, STAFF_ROLE_NAMES } from "./roles.ts";
import { listStaff, type StaffMember } from "./staff.ts";

export { INVITE_DAYS };
export { removeStaffMember } from "./membership.ts";

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).email("Enter the email address to invite."),
  name: z.string().trim().min(1, "Enter their name.").max(100, "Keep the name under 100 characters."),
  role: z.enum(STAFF_ROLE_NAMES, { error: "Choose staff or admin." }),
});
export type InviteInput = z.infer<typeof inviteSchema>;

export interface StaffListEntry extends StaffMember {
  twoFactorEnabled: boolean;
  /** Invited and has not set a password yet. */
  pending: boolean;
}

export async function listStaffForAdmin(db: Db): Promise<StaffListEntry[]> {
  const members = await listStaff(db);
  if (members.length === 0) return [];
  const ids = members.map((m) => m.id);
  const [users, passwords] = await Promise.all([
    db.selectFrom("user").select(["id", "twoFactorEnabled"]).where("id", "in", ids).execute(),
    db
      .selectFrom("account")
      .select("userId")
      .where("providerId", "=", "credential")
      .where("userId", "in", ids)
      .execute(),
  ]);
  const tfa = new Map(users.map((u) => [u.id, Boolean(u.twoFactorEnabled)]));
  const withPassword = new Set(passwords.map((p) => p.userId));
  return members.map((m) => ({ ...m, twoFactorEnabled: tfa.get(m.id) ?? false, pending: !withPassword.has(m.id) }));
}

export type InviteOutcome = "invited" | Exclude<GrantOutcome["kind"], "unchanged">;

/**
 * Invites someone: a new account (no password yet, the address counted as verified since only its
 * mailbox can use the link) gets the role and a set-password link; an existing account is given
 * the role by grantStaffRole (an unverified one is stripped of its password, sessions and second
 * factor first). Staff already on the team are refused.
 */
export async function inviteStaff(
  db: Db,
  auth: Pick<Auth, "api" | "$context">,
  actor: AuditActor,
  input: InviteInput,
  siteUrl: string,
  now = new Date(),
): Promise<{ userId: string; created: boolean; outcome: InviteOutcome }> {
  const existing = await db
    .selectFrom("user")
    .select(["id", "role"])
    .where("email", "=", input.email)
    .executeTakeFirst();
  if (existing && isStaffRole(existing.role))
    throw new ConflictError("ALREADY_STAFF", "That person is already on the staff list.");
  if (existing) {
    const granted = await grantStaffRole(
      db,
      auth,
      actor,
      { userId: existing.id, role: input.role, name: input.name },
      siteUrl,
      now,
    );
    // "unchanged" only if someone made them this role at the same moment.
    if (granted.kind === "unchanged")
      throw new ConflictError("ALREADY_STAFF", "That person is already on the staff list.");
    return { userId: existing.id, created: false, outcome: granted.kind };
  }
  const created = await auth.api.createUser({
    body: { email: input.email, name: input.name, role: input.role, data: { emailVerified: true } },
  });
  const { token } = await createInviteToken(auth, created.user.id, now);
  await db.transaction().execute(async (trx) => {
    await writeAudit(
      trx,
      actor,
      {
        action: "staff.invite",
        objectType: "user",
        objectId: created.user.id,
        before: null,
        after: { email: input.email, name: input.name, role: input.role },
      },
      now,
    );
    await enqueueMail(trx, inviteMail(input.email, input.name, setPasswordLink(siteUrl, token), actor.name));
  });
  return { userId: created.user.id, created: true, outcome: "invited" };
}

/** Sends a pending invitee a fresh set-password link. */
export async function resendInvite(
  db: Db,
  auth: Pick<Auth, "$context">,
  actor: AuditActor,
  userId: string,
  siteUrl: string,
  now = new Date(),
) {
  const member = await staffMember(db, userId);
  const hasPassword = await db
    .selectFrom("account")
    .select("id")
    .where("userId", "=", userId)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  if (hasPassword) throw new ConflictError("NOT_PENDING", "They have already set a password.");
  const { token } = await createInviteToken(auth, userId, now);
  await db.transaction().execute(async (trx) => {
    await writeAudit(
      trx,
      actor,
      { action: "staff.reinvite", objectType: "user", objectId: userId, before: null, after: { email: member.email } },
      now,
    );
    await enqueueMail(trx, inviteMail(member.email, member.name, setPasswordLink(siteUrl, token), actor.name));
  });
}

/** Changes a staff member's role; the last admin can't be demoted. */
export async function changeStaffRole(db: Db, actor: AuditActor, userId: string, role: unknown, now = new Date()) {
  if (!isStaffRole(role)) throw new InvalidError("INVALID_ROLE", "Choose staff or admin.");
  const member = await staffMember(db, userId);
  if (member.role === role) return { changed: false };
  await db.transaction().execute(async (trx) => {
    if (member.role === "admin") await keepAnotherAdmin(trx, userId);
    const changed = await trx
      .updateTable("user")
      .set({ role })
      .where("id", "=", userId)
      .where("role", "=", member.role)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1)
      throw new ConflictError("STAFF_CHANGED", "Their role changed at the same moment. Reload to see it.");
    await writeAudit(
      trx,
      actor,
      {
        action: "staff.set-role",
        objectType: "user",
        objectId: userId,
        before: { role: member.role },
        after: { role },
      },
      now,
    );
  });
  return { changed: true };
}

export const RESET_TWO_FACTOR_MESSAGES = {
  own: "You can't reset your own two-factor authentication. Ask another admin.",
  notAdmin: "Only an admin can reset a colleague's two-factor authentication.",
  notEnrolled: (name: string) =>
    `${name} has no two-factor authentication to reset (another admin may have just reset it).`,
} as const;

/**
 * An admin removes a colleague's second factor (a lost phone, or a factor someone else may hold):
 * in one transaction their twoFactor row goes and twoFactorEnabled turns false, every session of
 * theirs ends, the verification values keyed by their id go (trusted devices, pending reset
 * links), an audit row is written and they are mailed. They enrol again the next time they open
 * the back office. Nobody resets their own (another admin must), and only admins may.
 */
export async function resetStaffTwoFactor(
  db: Db,
  actor: AuditActor,
  userId: string,
  siteUrl: string,
  now = new Date(),
): Promise<{ sessionsEnded: number }> {
  if (userId === actor.userId) throw new ConflictError("OWN_TWO_FACTOR", RESET_TWO_FACTOR_MESSAGES.own);
  const by = await db.selectFrom("user").select("role").where("id", "=", actor.userId).executeTakeFirst();
  if (roleOf(by?.role) !== "admin") throw new NotAllowedError("NOT_ADMIN", RESET_TWO_FACTOR_MESSAGES.notAdmin);
  const member = await staffMember(db, userId);
  return db.transaction().execute(async (trx) => {
    // The conditional update takes the row's lock: of two admins resetting at once, the second finds nothing to reset.
    const changed = await trx
      .updateTable("user")
      .set({ twoFactorEnabled: SQL_FALSE, updatedAt: authDate(db, now) })
      .where("id", "=", userId)
      .where("role", "in", [...STAFF_ROLES])
      .where(flagIsTrue("twoFactorEnabled"))
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1)
      throw new ConflictError("NO_TWO_FACTOR", RESET_TWO_FACTOR_MESSAGES.notEnrolled(member.name));
    await trx.deleteFrom("twoFactor").where("userId", "=", userId).execute();
    const sessionsEnded = Number(
      (await trx.deleteFrom("session").where("userId", "=", userId).executeTakeFirst()).numDeletedRows,
    );
    await trx.deleteFrom("verification").where("value", "=", userId).execute();
    await writeAudit(
      trx,
      actor,
      {
        action: "staff.reset-two-factor",
        objectType: "user",
        objectId: userId,
        before: { twoFactorEnabled: true, sessions: sessionsEnded },
        after: { twoFactorEnabled: false, sessions: 0 },
      },
      now,
    );
    await enqueueMail(trx, twoFactorResetMail(member.email, member.name, `${siteUrl}/login`, actor.name));
    return { sessionsEnded };
  });
}
