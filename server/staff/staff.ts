/**
 * Staff accounts: who may enter the back office. The role lives in Better Auth's `user.role`
 * (the admin plugin's column, server/auth/permissions.ts); these functions read and change it.
 * New accounts are created through Better Auth, so it hashes the password.
 */
import { PASSWORD_MAX, PASSWORD_MIN, isValidEmail } from "../../app/lib/auth-rules.ts";
import type { Auth } from "../auth/auth.ts";
import { checkNewPassword } from "../auth/password-policy.ts";
import { roleOf, STAFF_ROLES, type Role } from "../auth/permissions.ts";
import type { Db } from "../db/connection.ts";
import { DomainError } from "../errors.ts";

export type StaffRole = "staff" | "admin";
export const STAFF_ROLE_NAMES: readonly StaffRole[] = ["staff", "admin"];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLE_NAMES as readonly string[]).includes(value);
}

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
  /** Needed to create an account; ignored when the account exists (its password stays). */
  password?: string;
  name?: string;
}

export type AddStaffOutcome =
  | { kind: "created"; userId: string }
  | { kind: "promoted"; userId: string; previousRole: Role }
  | { kind: "unchanged"; userId: string };

function normalEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!isValidEmail(value)) throw new DomainError("invalid_email", `"${email}" is not an email address.`);
  return value;
}

async function findUser(db: Db, email: string) {
  return db.selectFrom("user").select(["id", "email", "role"]).where("email", "=", email).executeTakeFirst();
}

/** Gives an account the staff or admin role, creating the account (with a password) when there is none. */
export async function addStaff(db: Db, auth: Pick<Auth, "api">, input: AddStaffInput): Promise<AddStaffOutcome> {
  if (!isStaffRole(input.role)) throw new DomainError("invalid_role", `The role must be one of: ${STAFF_ROLE_NAMES.join(", ")}.`);
  const email = normalEmail(input.email);
  const existing = await findUser(db, email);
  if (existing) {
    const previousRole = roleOf(existing.role);
    if (previousRole === input.role && existing.role === input.role) return { kind: "unchanged", userId: existing.id };
    await db.updateTable("user").set({ role: input.role }).where("id", "=", existing.id).execute();
    return { kind: "promoted", userId: existing.id, previousRole };
  }
  const password = input.password ?? "";
  if (!password) throw new DomainError("password_required", "There is no account with that email: give --password to create one.");
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new DomainError("invalid_password", `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  }
  const policy = checkNewPassword(password);
  if (!policy.ok) throw new DomainError("invalid_password", policy.message);
  const name = input.name?.trim() || email.split("@")[0]!;
  // A server call without headers: the admin plugin lets the operator create the account and set
  // its role. The operator vouches for the address, so it counts as verified.
  const created = await auth.api.createUser({ body: { email, password, name, role: input.role, data: { emailVerified: true } } });
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

/** Takes the staff or admin role away (the account stays, as a customer). */
export async function removeStaff(db: Db, emailInput: string): Promise<{ userId: string; previousRole: StaffRole }> {
  const email = normalEmail(emailInput);
  const existing = await findUser(db, email);
  if (!existing) throw new DomainError("not_found", "There is no account with that email.", 404);
  const previousRole = roleOf(existing.role);
  if (!isStaffRole(previousRole)) throw new DomainError("not_staff", "That account is not staff.", 409);
  await db.updateTable("user").set({ role: "customer" }).where("id", "=", existing.id).execute();
  return { userId: existing.id, previousRole };
}
