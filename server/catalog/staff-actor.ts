/** Who is changing the catalog, and the domain-level permission check every back-office write makes. */
import { can, type Permissions, type Role } from "../auth/permissions.ts";
import { NotAllowedError } from "../errors.ts";

/** A staff member as the guard gives it (server/staff/guard.ts StaffSession has these fields). */
export interface StaffActor {
  userId: string;
  name: string;
  role: Role;
}

/** Throws unless the actor's role holds these permissions (the route guard checks first; this holds for any caller). */
export function assertCan(actor: StaffActor | null | undefined, permissions: Permissions): asserts actor is StaffActor {
  if (!actor || !can(actor.role, permissions))
    throw new NotAllowedError("forbidden", "You don't have permission to do that.");
}

/** The stock ledger's name for a staff member. */
export function ledgerActor(actor: StaffActor): string {
  return `staff:${actor.userId}`;
}
