import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { APIRequestContext } from "@playwright/test";
import appRoutes from "../../../app/routes.ts";
import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { keyFromUri, totpCode } from "../../support/totp.ts";
import { signInViaApi, storeDb } from "../shopping/support.ts";

/** Every path pattern in app/routes.ts (nested, prefixed and index routes included). */
export function routePatterns(routes: readonly RouteConfigEntry[] = appRoutes): string[] {
  const out = new Set<string>();
  const join = (parent: string, child?: string) => (child ? `${parent.replace(/\/$/, "")}/${child.replace(/^\//, "")}` : parent);
  const walk = (entries: readonly RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const full = entry.index && !entry.path ? parent || "/" : join(parent, entry.path);
      if (entry.index || entry.path) out.add(full.startsWith("/") ? full : `/${full}`);
      if (entry.children) walk(entry.children, full === "/" ? "" : full);
    }
  };
  walk(routes, "");
  return [...out];
}

/** The back office's routes, with every `:param` filled in (ids that may or may not exist). */
export function adminPaths(): string[] {
  return routePatterns()
    .filter((p) => p === "/admin" || p.startsWith("/admin/"))
    .map((p) => p.replace(/:[A-Za-z]+\??/g, "1").replace(/\/\*$/, "/x"));
}

/** Registers an account; with `role`, gives it that role directly in the e2e server's database. */
export async function accountWithRole(request: APIRequestContext, baseURL: string, tag: string, role?: "staff" | "admin") {
  const email = uniqueEmail(tag);
  await registerViaApi(request, baseURL, email);
  if (role) storeDb().prepare(`UPDATE "user" SET role = ? WHERE email = ?`).run(role, email);
  return email;
}

export function userRow(email: string) {
  return storeDb().prepare(`SELECT role, banned, updatedAt FROM "user" WHERE email = ?`).get(email);
}

export { signInViaApi };

/** Keys of the staff accounts tests enrolled, by email, to compute their codes later. */
export const staffKeys = new Map<string, string>();

/**
 * Enrols the signed-in account on `request` in two-factor authentication through the auth API,
 * as the enrolment page does, and leaves `request` with the second-factor session. Returns the key.
 */
export async function enrolTwoFactor(request: APIRequestContext, baseURL: string, email: string, password = GOOD_PASSWORD): Promise<string> {
  const headers = { origin: baseURL };
  const enable = await request.post("/api/auth/two-factor/enable", { data: { password }, headers });
  if (!enable.ok()) throw new Error(`two-factor/enable: ${enable.status()} ${await enable.text()}`);
  const key = keyFromUri((await enable.json()).totpURI);
  const verify = await request.post("/api/auth/two-factor/verify-totp", { data: { code: totpCode(key) }, headers });
  if (!verify.ok()) throw new Error(`two-factor/verify-totp: ${verify.status()} ${await verify.text()}`);
  staffKeys.set(email, key);
  return key;
}

/**
 * A new staff member (or admin), signed in on `request` (use page.request so the page shares the
 * cookies) with a session that may enter the back office, second factor included. Returns the email.
 */
export async function signInAsStaff(request: APIRequestContext, baseURL: string, tag: string, role: "staff" | "admin" = "staff"): Promise<string> {
  const email = await accountWithRole(request, baseURL, tag, role);
  await signInViaApi(request, baseURL, email);
  await enrolTwoFactor(request, baseURL, email);
  return email;
}
