/**
 * Who may do what in the back office: Better Auth's access-control statements (the `admin`
 * plugin's `ac` and `roles`), in one place. Three roles: `customer` (everyone who registers),
 * `staff` (runs the store: everything in the back office except managing staff) and `admin`
 * (staff who also add, remove and change staff, and change the tax rates and the UK price rule).
 *
 * `user` and `session` are Better Auth's own statements, for its /api/auth/admin/* endpoints
 * (set-role, set-user-password, list-users ...). No role holds any of them: those endpoints are
 * closed over HTTP (server/auth/http-surface.ts) and would skip the back office's second factor
 * and audit. Staff and admins change users only through the back office's own functions
 * (server/staff/, server/customers/), which check these roles and write audit rows.
 */
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/admin/access";
import { STAFF_ROLE_NAMES } from "../../app/lib/auth-rules.ts";

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
  tax: ["view", "verify"],
  market: ["view"],
} as const;

const statements = {
  ...defaultStatements,
  ...backOffice,
  // Tax rates and where the store collects change what every buyer pays: admins only.
  tax: ["view", "verify", "update"],
  // The UK price rule reprices every product it derives: admins only, like the tax rates.
  market: ["view", "update"],
  staff: ["view", "invite", "set-role", "remove"],
} as const;

export const ac = createAccessControl(statements);

export const roles = {
  customer: ac.newRole({ user: [], session: [] }),
  staff: ac.newRole({ ...backOffice, user: [], session: [] }),
  admin: ac.newRole({
    ...backOffice,
    tax: ["view", "verify", "update"],
    market: ["view", "update"],
    staff: ["view", "invite", "set-role", "remove"],
    user: [],
    session: [],
  }),
};

export type Role = keyof typeof roles;
const ROLES = Object.keys(roles) as Role[];
export const DEFAULT_ROLE: Role = "customer";
/** Roles that may enter /admin at all. */
export const STAFF_ROLES: readonly Role[] = STAFF_ROLE_NAMES;

function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as string[]).includes(value);
}

/** The role a stored `user.role` value stands for: unknown, empty or missing (accounts older than the plugin) is a customer. */
export function roleOf(stored: string | null | undefined): Role {
  return isRole(stored) ? stored : DEFAULT_ROLE;
}

export type Permissions = { [K in keyof typeof statements]?: (typeof statements)[K][number][] };

/** Whether a role holds every permission asked for. */
export function can(role: Role, permissions: Permissions): boolean {
  return roles[role].authorize(permissions).success;
}
