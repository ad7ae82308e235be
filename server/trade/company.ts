/** A customer's trade company: who belongs to it, in which role, and what the store knows of it. */
import type { Kysely, Transaction } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";

export const ALREADY_IN_COMPANY_MESSAGE =
  "You already order for a company on ToolHub Wholesale. Leave it before joining another.";

/** The company a user orders for (the first approved one they belong to), with their role in it. */
export async function companyOf(db: Db, userId: string) {
  const row = await db
    .selectFrom("member as m")
    .innerJoin("companies as c", "c.organization_id", "m.organizationId")
    .selectAll("c")
    .select(["m.role as member_role", "m.id as member_id"])
    .where("m.userId", "=", userId)
    .orderBy("m.createdAt")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { member_role, member_id, ...company } = row;
  return { company, role: member_role, memberId: member_id };
}

/** The company's member with this user id, with their name; undefined when they don't belong to it. */
export async function companyMember(
  db: Kysely<Database> | Transaction<Database>,
  organizationId: string,
  userId: string,
) {
  return db
    .selectFrom("member as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["m.userId", "u.name"])
    .where("m.organizationId", "=", organizationId)
    .where("m.userId", "=", userId)
    .executeTakeFirst();
}

export type CompanyMembership = NonNullable<Awaited<ReturnType<typeof companyOf>>>;

export async function companyMembers(db: Db, organizationId: string) {
  return db
    .selectFrom("member as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["m.id", "m.userId", "m.role", "m.createdAt", "u.name", "u.email"])
    .where("m.organizationId", "=", organizationId)
    .orderBy("m.createdAt")
    .execute();
}

export async function pendingInvitations(db: Db, organizationId: string, now = new Date()) {
  const rows = await db
    .selectFrom("invitation")
    .select(["id", "email", "role", "expiresAt"])
    .where("organizationId", "=", organizationId)
    .where("status", "=", "pending")
    .orderBy("createdAt")
    .execute();
  return rows.filter((r) => new Date(r.expiresAt).getTime() > now.getTime());
}

/** An invitation as its recipient sees it before accepting: the company's name and the role offered. */
export async function invitationForRecipient(db: Db, invitationId: string) {
  // Better Auth's ids are URL-safe; anything else (a NUL would be a 500 on PostgreSQL) matches nothing.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(invitationId)) return undefined;
  return db
    .selectFrom("invitation as i")
    .innerJoin("companies as c", "c.organization_id", "i.organizationId")
    .select(["i.id", "i.email", "i.role", "i.status", "i.expiresAt", "c.name as company_name"])
    .where("i.id", "=", invitationId)
    .executeTakeFirst();
}
