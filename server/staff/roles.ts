/** The two back-office roles (the rest of Better Auth's roles are in server/auth/permissions.ts). */
export type StaffRole = "staff" | "admin";
export const STAFF_ROLE_NAMES: readonly StaffRole[] = ["staff", "admin"];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLE_NAMES as readonly string[]).includes(value);
}
