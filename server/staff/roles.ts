/** The two back-office roles: the store's one list (app/lib/auth-rules.ts), typed for server/staff/. */
import { isStaffRoleName, STAFF_ROLE_NAMES } from "../../app/lib/auth-rules.ts";

export type StaffRole = (typeof STAFF_ROLE_NAMES)[number];
export { STAFF_ROLE_NAMES };

export function isStaffRole(value: unknown): value is StaffRole {
  return isStaffRoleName(value);
}
