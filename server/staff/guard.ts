/**
 * The one gate of the back office. Every loader and action under /admin calls requireStaff (or
 * requireAdmin) first, on the server, whatever its parent layout did: React Router runs a page's
 * loaders in parallel, so a layout check alone protects nothing.
 *
 *   guest                    → redirect to /login (the login page has no return path yet)
 *   signed in, not allowed   → the store's ordinary 404, so the back office isn't revealed
 */
import { data, redirect } from "react-router";
import { getAuth } from "../auth/auth.ts";
import { can, roleOf, STAFF_ROLES, type Permissions, type Role } from "../auth/permissions.ts";

export interface StaffSession {
  userId: string;
  sessionId: string;
  role: Role;
  name: string;
  email: string;
}

/** Exactly what an unknown URL answers (app/routes/not-found.tsx). */
function notFound(): never {
  throw data("Not found", { status: 404 });
}

/** The signed-in staff member, if the request may enter the back office with these permissions; otherwise throws a redirect or a 404. */
export async function requireStaff(request: Request, permissions?: Permissions): Promise<StaffSession> {
  if (!request.headers.get("cookie")?.includes("session_token")) throw redirect("/login");
  const session = await getAuth().api.getSession({ headers: request.headers });
  if (!session) throw redirect("/login");
  const role = roleOf(session.user.role);
  if (!STAFF_ROLES.includes(role) || session.user.banned) notFound();
  if (permissions && !can(role, permissions)) notFound();
  // TODO(issue 12, two-factor slice): staff and admins must have enrolled in TOTP (Better Auth
  // `twoFactor`, session.user.twoFactorEnabled) and signed in with a second factor. Not enrolled →
  // redirect to the enrolment page under /admin; the staff session must also be at most 12 hours old.
  return { userId: session.user.id, sessionId: session.session.id, role, name: session.user.name ?? "", email: session.user.email };
}

/** requireStaff for what only admins may do: managing staff. */
export function requireAdmin(request: Request): Promise<StaffSession> {
  return requireStaff(request, { staff: ["view", "invite", "set-role", "remove"] });
}
