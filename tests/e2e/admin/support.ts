import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { APIRequestContext, Page } from "@playwright/test";
import appRoutes from "../../../app/routes.ts";
import { GOOD_PASSWORD, registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { freshTotpCode, keyFromUri } from "../../support/totp.ts";
import { signInViaApi, storeDb } from "../shopping/support.ts";
import { waitForHydration } from "../support/site.ts";

/** Every path pattern in app/routes.ts (nested, prefixed and index routes included). */
function routePatterns(routes: readonly RouteConfigEntry[] = appRoutes): string[] {
  const out = new Set<string>();
  const join = (parent: string, child?: string) =>
    child ? `${parent.replace(/\/$/, "")}/${child.replace(/^\//, "")}` : parent;
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
export async function accountWithRole(
  request: APIRequestContext,
  baseURL: string,
  tag: string,
  role?: "staff" | "admin",
) {
  const email = uniqueEmail(tag);
  await registerViaApi(request, baseURL, email);
  if (role) storeDb().prepare(`UPDATE "user" SET role = ? WHERE email = ?`).run(role, email);
  return email;
}

/** The count of the store's sessions of the user with this email, as `{ n }`. */
export function sessionsOf(email: string) {
  return storeDb()
    .prepare(`SELECT count(*) AS n FROM session WHERE userId = (SELECT id FROM "user" WHERE email = ?)`)
    .get(email);
}

export function userRow(email: string) {
  return storeDb().prepare(`SELECT role, banned, updatedAt FROM "user" WHERE email = ?`).get(email);
}

export { signInViaApi };

/** Keys of the staff accounts tests enrolled, by email, to compute their codes later. */
export const staffKeys = new Map<string, string>();

/** Text of an HTML attribute or element as the browser reads it. */
const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The code each account's enrolment was confirmed with (spent: the store takes each code once). */
export const enrolmentCodes = new Map<string, string>();

/** Backup codes of each enrolled account, as the enrolment page showed them once. */
export const staffBackupCodes = new Map<string, string[]>();

/**
 * Enrols the signed-in account on `request` in two-factor authentication through the enrolment
 * page's own forms (/admin/two-factor: password, then a code), as a staff member without
 * JavaScript would, and leaves `request` with the second-factor session. Returns the key; the
 * backup codes the page shows once are kept in staffBackupCodes.
 */
export async function enrolTwoFactor(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password = GOOD_PASSWORD,
): Promise<string> {
  const headers = { origin: baseURL };
  const start = await request.post("/admin/two-factor", { form: { intent: "start", password }, headers });
  const startPage = await start.text();
  const uri = /name="totpUri" value="([^"]+)"/.exec(startPage)?.[1];
  if (!start.ok() || !uri) throw new Error(`enrolment start: ${start.status()} ${startPage.slice(0, 300)}`);
  const key = keyFromUri(unescapeHtml(uri));
  const code = await freshTotpCode(key);
  const confirm = await request.post("/admin/two-factor", {
    form: { intent: "confirm", totpUri: unescapeHtml(uri), code },
    headers,
  });
  const codesPage = await confirm.text();
  if (!confirm.ok() || !codesPage.includes("Two-factor authentication is on."))
    throw new Error(`enrolment confirm: ${confirm.status()} ${codesPage.slice(0, 300)}`);
  const list = /aria-label="Backup codes"[^>]*>([\s\S]*?)<\/ul>/.exec(codesPage)?.[1] ?? "";
  staffBackupCodes.set(
    email,
    [...list.matchAll(/<li[^>]*>([^<]+)<\/li>/g)].map((m) => unescapeHtml(m[1].trim())),
  );
  staffKeys.set(email, key);
  enrolmentCodes.set(email, code);
  return key;
}

/**
 * A new staff member (or admin), signed in on `request` (use page.request so the page shares the
 * cookies) with a session that may enter the back office, second factor included. Returns the email.
 */
export async function signInAsStaff(
  request: APIRequestContext,
  baseURL: string,
  tag: string,
  role: "staff" | "admin" = "staff",
): Promise<string> {
  const email = await accountWithRole(request, baseURL, tag, role);
  await signInViaApi(request, baseURL, email);
  await enrolTwoFactor(request, baseURL, email);
  return email;
}

/** Fills and sends the login form with the account's password (the code step, if any, comes next). */
export async function submitLogin(page: Page, email: string, password = GOOD_PASSWORD) {
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}
