/**
 * Managing staff from the back office (admins only): invite by email, change role, remove. The
 * same role column as `npm run staff` (server/staff/staff.ts); every change writes an audit row in
 * its transaction. An invitee gets an account without a password and a mail with a link to set
 * one (Better Auth's reset-password token, valid for INVITE_DAYS); on first entry to /admin they
 * enrol in two-factor authentication like everyone else.
 */
import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Auth } from "../auth/auth.ts";
import { roleOf } from "../auth/permissions.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { DomainError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";
import { isStaffRole, listStaff, STAFF_ROLE_NAMES, type StaffMember, type StaffRole } from "./staff.ts";

export const INVITE_DAYS = 7;

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).email("Enter the email address to invite."),
  name: z.string().trim().min(1, "Enter their name.").max(100, "Keep the name under 100 characters."),
  role: z.enum(STAFF_ROLE_NAMES as [StaffRole, ...StaffRole[]], { error: "Choose staff or admin." }),
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
    db.selectFrom("account").select("userId").where("providerId", "=", "credential").where("userId", "in", ids).execute(),
  ]);
  const tfa = new Map(users.map((u) => [u.id, Boolean(u.twoFactorEnabled)]));
  const withPassword = new Set(passwords.map((p) => p.userId));
  return members.map((m) => ({ ...m, twoFactorEnabled: tfa.get(m.id) ?? false, pending: !withPassword.has(m.id) }));
}

async function countAdmins(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const row = await db.selectFrom("user").select((eb) => eb.fn.countAll<number>().as("n")).where("role", "=", "admin").executeTakeFirstOrThrow();
  return Number(row.n);
}

function inviteMail(to: string, name: string, link: string, invitedBy: string) {
  return {
    to,
    subject: "You're invited to the ToolHub Wholesale back office",
    ...renderMail({
      heading: "Join the back office",
      paragraphs: [
        `Hello ${name},`,
        `${invitedBy} has invited you to run the ToolHub Wholesale store. Choose a password with the link below (it works once, for ${INVITE_DAYS} days), then sign in and open the back office at /admin, where you will set up two-factor authentication.`,
      ],
      action: { label: "Choose my password", url: link },
      footer: "If you weren't expecting this, ignore this email.",
    }),
  };
}

function accessMail(to: string, name: string, link: string, role: StaffRole) {
  return {
    to,
    subject: "You now have access to the ToolHub Wholesale back office",
    ...renderMail({
      heading: "Back office access",
      paragraphs: [`Hello ${name},`, `Your account now has the ${role} role. Sign in as usual and open the back office; the first time, you will set up two-factor authentication.`],
      action: { label: "Open the back office", url: link },
    }),
  };
}

async function createInviteToken(auth: Pick<Auth, "$context">, userId: string, now: Date): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const ctx = await auth.$context;
  await ctx.internalAdapter.createVerificationValue({ identifier: `reset-password:${token}`, value: userId, expiresAt: new Date(now.getTime() + INVITE_DAYS * 86400_000) });
  return token;
}

/**
 * Invites someone: a new account (no password yet) gets the staff role and a set-password link;
 * an existing customer is promoted and told. Staff already on the team are refused.
 */
export async function inviteStaff(db: Db, auth: Pick<Auth, "api" | "$context">, actor: AuditActor, input: InviteInput, siteUrl: string, now = new Date()) {
  const existing = await db.selectFrom("user").select(["id", "name", "role"]).where("email", "=", input.email).executeTakeFirst();
  if (existing && isStaffRole(existing.role)) throw new DomainError("ALREADY_STAFF", "That person is already on the staff list.", 409);
  if (existing) {
    await db.transaction().execute(async (trx) => {
      const changed = await trx.updateTable("user").set({ role: input.role }).where("id", "=", existing.id).where("role", "is not distinct from", existing.role).executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) throw new DomainError("STAFF_CHANGED", "That account changed at the same moment. Reload and try again.", 409);
      await writeAudit(trx, actor, { action: "staff.promote", objectType: "user", objectId: existing.id, before: { role: roleOf(existing.role) }, after: { role: input.role } }, now);
      await enqueueMail(trx, accessMail(input.email, existing.name || input.name, `${siteUrl}/admin`, input.role));
    });
    return { userId: existing.id, created: false };
  }
  const created = await auth.api.createUser({ body: { email: input.email, name: input.name, role: input.role, data: { emailVerified: true } } });
  const token = await createInviteToken(auth, created.user.id, now);
  await db.transaction().execute(async (trx) => {
    await writeAudit(trx, actor, { action: "staff.invite", objectType: "user", objectId: created.user.id, before: null, after: { email: input.email, name: input.name, role: input.role } }, now);
    await enqueueMail(trx, inviteMail(input.email, input.name, `${siteUrl}/reset-password?token=${token}`, actor.name));
  });
  return { userId: created.user.id, created: true };
}

async function staffMember(db: Db, userId: string) {
  const row = await db.selectFrom("user").select(["id", "email", "name", "role"]).where("id", "=", userId).executeTakeFirst();
  if (!row || !isStaffRole(row.role)) throw new DomainError("NOT_STAFF", "That person is not on the staff list.", 404);
  return { ...row, role: row.role as StaffRole };
}

/** Sends a pending invitee a fresh set-password link. */
export async function resendInvite(db: Db, auth: Pick<Auth, "$context">, actor: AuditActor, userId: string, siteUrl: string, now = new Date()) {
  const member = await staffMember(db, userId);
  const hasPassword = await db.selectFrom("account").select("id").where("userId", "=", userId).where("providerId", "=", "credential").executeTakeFirst();
  if (hasPassword) throw new DomainError("NOT_PENDING", "They have already set a password.", 409);
  const token = await createInviteToken(auth, userId, now);
  await db.transaction().execute(async (trx) => {
    await writeAudit(trx, actor, { action: "staff.reinvite", objectType: "user", objectId: userId, before: null, after: { email: member.email } }, now);
    await enqueueMail(trx, inviteMail(member.email, member.name, `${siteUrl}/reset-password?token=${token}`, actor.name));
  });
}

/** Changes a staff member's role; the last admin can't be demoted. */
export async function changeStaffRole(db: Db, actor: AuditActor, userId: string, role: unknown, now = new Date()) {
  if (!isStaffRole(role)) throw new DomainError("INVALID_ROLE", "Choose staff or admin.", 400);
  const member = await staffMember(db, userId);
  if (member.role === role) return { changed: false };
  await db.transaction().execute(async (trx) => {
    if (member.role === "admin" && (await countAdmins(trx)) <= 1) throw new DomainError("LAST_ADMIN", "There must always be at least one admin.", 409);
    const changed = await trx.updateTable("user").set({ role }).where("id", "=", userId).where("role", "=", member.role).executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new DomainError("STAFF_CHANGED", "Their role changed at the same moment. Reload to see it.", 409);
    await writeAudit(trx, actor, { action: "staff.set-role", objectType: "user", objectId: userId, before: { role: member.role }, after: { role } }, now);
  });
  return { changed: true };
}

/** Takes someone off the staff list: the account stays as a customer and every session of theirs ends. */
export async function removeStaffMember(db: Db, actor: AuditActor, userId: string, now = new Date()) {
  const member = await staffMember(db, userId);
  await db.transaction().execute(async (trx) => {
    if (member.role === "admin" && (await countAdmins(trx)) <= 1) throw new DomainError("LAST_ADMIN", "There must always be at least one admin.", 409);
    const changed = await trx.updateTable("user").set({ role: "customer" }).where("id", "=", userId).where("role", "=", member.role).executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new DomainError("STAFF_CHANGED", "Their role changed at the same moment. Reload to see it.", 409);
    await trx.deleteFrom("session").where("userId", "=", userId).execute();
    await writeAudit(trx, actor, { action: "staff.remove", objectType: "user", objectId: userId, before: { role: member.role }, after: { role: "customer" } }, now);
  });
}
