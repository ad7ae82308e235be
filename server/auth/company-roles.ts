/**
 * What each member of a trade company may do: the organization plugin's access control. An
 * `owner` manages members, invitations and spending limits; an `approver` approves colleagues'
 * orders above their limit; a `buyer` orders.
 */
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";

export const companyStatements = {
  ...defaultStatements,
  order: ["place", "approve"],
  limit: ["set"],
} as const;

export const companyAc = createAccessControl(companyStatements);

export const companyRoles = {
  owner: companyAc.newRole({
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    order: ["place", "approve"],
    limit: ["set"],
  }),
  approver: companyAc.newRole({ order: ["place", "approve"] }),
  buyer: companyAc.newRole({ order: ["place"] }),
};

export type CompanyRole = keyof typeof companyRoles;
export const COMPANY_ROLES = Object.keys(companyRoles) as CompanyRole[];
export const COMPANY_ROLE_LABELS: Record<CompanyRole, string> = {
  owner: "Owner",
  approver: "Approver",
  buyer: "Buyer",
};
export const INVITATION_DAYS = 7;

export function isCompanyRole(value: unknown): value is CompanyRole {
  return typeof value === "string" && (COMPANY_ROLES as string[]).includes(value);
}

/** Whether a member's role (Better Auth stores several as "a,b") grants the permissions asked for. */
export function companyCan(
  role: string,
  permissions: { [K in keyof typeof companyStatements]?: (typeof companyStatements)[K][number][] },
): boolean {
  return role
    .split(",")
    .map((r) => r.trim())
    .filter(isCompanyRole)
    .some((r) => companyRoles[r].authorize(permissions).success);
}
