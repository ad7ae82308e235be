import { request, type BrowserContext } from "@playwright/test";
import { signInAsStaff } from "../admin/support.ts";

/**
 * One back-office session per worker and role, for specs whose subject is what staff do in the
 * back office, not how they get in (tests/e2e/admin/gate.spec.ts, two-factor.spec.ts and
 * staff.spec.ts cover signing in, the second factor and the roles). The account is made the way
 * signInAsStaff always makes it (sign-up, the role, sign-in, a second factor through the auth
 * API), once; each test then puts that session's cookies into its own browser context, which
 * saves the four auth posts (three of them password hashes) every test would otherwise repeat.
 *
 * Nothing a test does may end this session or change the account (no sign-out, no revoking
 * sessions, no ban or role change): tests that do need an account of their own (signInAsStaff).
 */
type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

const sessions = new Map<string, Promise<{ email: string; state: StorageState }>>();

function sessionFor(baseURL: string, role: "staff" | "admin") {
  const key = `${baseURL} ${role}`;
  let session = sessions.get(key);
  if (!session) {
    session = (async () => {
      const api = await request.newContext({ baseURL });
      try {
        const email = await signInAsStaff(api, baseURL, `shared-${role}`, role);
        return { email, state: await api.storageState() };
      } finally {
        await api.dispose();
      }
    })();
    // A failed attempt is not kept: the next test tries again (and reports its own error).
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

/**
 * Signs `context` (a test's page.context()) in to the back office as this worker's shared staff
 * member (or admin). Pages opened in the context afterwards, and page.request, carry the session.
 * Returns the account's email.
 */
export async function useSharedStaffSession(
  context: BrowserContext,
  baseURL: string,
  role: "staff" | "admin" = "staff",
): Promise<string> {
  const { email, state } = await sessionFor(baseURL, role);
  await context.addCookies(state.cookies);
  return email;
}
