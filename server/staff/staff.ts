/**
 * Staff accounts: who may enter the back office. The role lives in Better Auth's `user.role`
 * (the admin plugin's column, server/auth/permissions.ts); these functions read and change it for
 * `npm run staff` (cli.ts). New accounts are created through Better Auth, so it hashes the
 * password; an existing account is given its role, and loses it, through the same functions as the
 * back office (membership.ts: grantStaffRole, removeStaffMember).
 */
import { PASSWORD_MAX, PASSWORD_MIN, isValidEmail } from "../../app/lib/auth-rules.ts";
import type { Auth } from "../auth/auth.ts";
import { checkNewPassword } from "../auth/password-policy.ts";
import { STAFF_ROLES, type Role } from "../auth/permissions.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { InvalidError, NotFoundError } from "../errors.ts";
import { grantStaffRole, removeStaffMember } from "./membership.ts";
import { isStaffRole, STAFF_ROLE_NAMES, type StaffRole } from "./roles.ts";

export { isStaffRole, type StaffRole };

export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  createdAt: string;
}

export interface AddStaffInput {
  email: string;
  role: StaffRole;
  /** Needed to create an account; never used on an existing account (a verified one keeps its password, an unverified one loses it). */
  password?: string;
  name?: string;
}

/** Who makes the change (the audit row's actor) and where the mailed links point. */
export interface StaffChange {
  actor: AuditActor;
  siteUrl: string;
  now?: Date;
}

export type AddStaffOutcome =
  | { kind: "created"; userId: string }
  /** A verified account: the role, its sessions ended, a mail; its password is unchanged. */
  | { kind: "promoted"; userId: string; previousRole: Role; sessionsEnded: number }
  /** An unverified account: password, sessions and second factor removed, a set-password link mailed. */
  | { kind: "reclaimed"; userId: string; previousRole: Role; sessionsEnded: number }
  | { kind: "unchanged"; userId: string };

function normalEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!isValidEmail(value)) throw new InvalidError("invalid_email", `"${email}" is not an email address.`);
  return value;
}

async function findUser(db: Db, email: string) {
  return db.selectFrom("user").select(["id", "email", "role"]).where("email", "=", email).executeTakeFirst();
}

/**
 * Gives an account the staff or admin role: an existing account through grantStaffRole (the
 * back office's rule), or a new account with the password given (the operator vouches for the
 * address, so it counts as verified).
 */
export async function addStaff(
  db: Db,
  auth: Pick<Auth, "api" | "$context">,
  input: AddStaffInput,
  change: StaffChange,
): Promise<AddStaffOutcome> {
  if (!isStaffRole(input.role))
    throw new InvalidError("invalid_role", `The role must be one of: ${STAFF_ROLE_NAMES.join(", ")}.`);
  const email = normalEmail(input.email);
  const now = change.now ?? new Date();
  const existing = await findUser(db, email);
  if (existing) {
    const granted = await grantStaffRole(
      db,
      auth,
      change.actor,
      { userId: existing.id, role: input.role, ...(input.name ? { name: input.name } : {}) },
      change.siteUrl,
      now,
    );
    return granted.kind === "unchanged" ? { kind: "unchanged", userId: granted.userId } : granted;
  }
  const password = input.password ?? "";
  if (!password)
    throw new InvalidError("password_required", "There is no account with that email: give --password to create one.");
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new InvalidError("invalid_password", `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  }
  const policy = checkNewPassword(password);
  if (!policy.ok) throw new InvalidError("invalid_password", policy.message);
  const name = input.name?.trim() || email.split("@")[0];
  // A server call without headers: the admin plugin lets the operator create the account and set its role.
  const created = await auth.api.createUser({
    body: { email, password, name, role: input.role, data: { emailVerified: true } },
  });
  await writeAudit(
    db,
    change.actor,
    {
      action: "staff.create",
      objectType: "user",
      objectId: created.user.id,
      before: null,
      after: { email, name, role: input.role },
    },
    now,
  );
  return { kind: "created", userId: created.user.id };
}

/** Everyone who may enter the back office, admins first, then by email. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom("user")
    .select(["id", "email", "name", "role", "createdAt"])
    .where("role", "in", [...STAFF_ROLES])
    .orderBy("role", "asc")
    .orderBy("email", "asc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role as StaffRole,
    createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt),
  }));
}

/** Takes the staff or admin role away (the account stays, as a customer; its sessions end; the last admin stays). */
export async function removeStaff(
  db: Db,
  actor: AuditActor,
  emailInput: string,
  now = new Date(),
): Promise<{ userId: string; previousRole: StaffRole; sessionsEnded: number }> {
  const email = normalEmail(emailInput);
  const existing = await findUser(db, email);
  if (!existing) throw new NotFoundError("not_found", "There is no account with that email.");
  return { userId: existing.id, ...(await removeStaffMember(db, actor, existing.id, now)) };
}
