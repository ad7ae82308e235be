/**
 * Who may do what in the back office: Better Auth's access-control statements (the `admin`
 * plugin's `ac` and `roles`), in one place. Three roles: `customer` (everyone who registers),
 * `staff` (runs the store: everything in the back office except managing staff) and `admin`
 * (staff who also add, remove and change staff).
 *
 * `user` and `session` are Better Auth's own statements: they open its HTTP endpoints under
 * /api/auth/admin/* (set-role, ban-user, list-users ...). Those endpoints don't pass through the
 * /admin guard (nor, later, its second-factor check), and ban-user doesn't protect admins from
 * being banned, so only `admin` gets them. Staff ban customers through the back office's own
 * server functions (they check `customer: ["ban"]` and refuse staff targets).
 */
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/admin/access";

/** Everything in the back office that staff may do (all but managing staff). */
const backOffice = {
  dashboard: ["view"],
  product: ["view", "create", "update", "archive", "import", "export"],
  stock: ["view", "adjust"],
  order: ["view", "update", "cancel", "return", "refund"],
  customer: ["view", "ban"],
  message: ["view", "reply", "handle"],
  trade: ["view", "decide", "update"],
  invoice: ["mark-paid"],
  quote: ["view", "update"],
  audit: ["view"],
} as const;

export const statements = {
  ...defaultStatements,
  ...backOffice,
  staff: ["view", "invite", "set-role", "remove"],
} as const;

export const ac = createAccessControl(statements);

export const roles = {
  customer: ac.newRole({ user: [], session: [] }),
  staff: ac.newRole({ ...backOffice, user: [], session: [] }),
  admin: ac.newRole({
    ...backOffice,
    staff: ["view", "invite", "set-role", "remove"],
    // Better Auth's own user and session endpoints, without impersonation.
    user: ["create", "list", "set-role", "ban", "delete", "set-password", "get", "update"],
    session: ["list", "revoke", "delete"],
  }),
};

export type Role = keyof typeof roles;
export const ROLES = Object.keys(roles) as Role[];
export const DEFAULT_ROLE: Role = "customer";
/** Roles that may enter /admin at all. */
export const STAFF_ROLES: readonly Role[] = ["staff", "admin"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as string[]).includes(value);
}

/** The role a stored `user.role` value stands for: unknown, empty or missing (accounts older than the plugin) is a customer. */
export function roleOf(stored: string | null | undefined): Role {
  return isRole(stored) ? stored : DEFAULT_ROLE;
}

export type Permissions = { [K in keyof typeof statements]?: (typeof statements)[K][number][] };

/** Whether a role holds every permission asked for. */
export function can(role: Role, permissions: Permissions): boolean {
  return roles[role].authorize(permissions as never).success;
}
