import { randomBytes } from "node:crypto";
import type { Auth } from "../../server/auth/auth.ts";

const TEST_PASSWORD = "Sturdy-Hammer-42";

/**
 * A new customer account, signed up and signed in through Better Auth's API: its id, email and
 * the Cookie header a browser would send with its session.
 */
export async function signUpAndIn(auth: Auth, name: string): Promise<{ id: string; email: string; cookie: string }> {
  const email = `${name.toLowerCase().replace(/\s+/g, ".")}.${randomBytes(4).toString("hex")}@example.com`;
  await auth.api.signUpEmail({ body: { email, password: TEST_PASSWORD, name } });
  const { headers, response } = await auth.api.signInEmail({
    body: { email, password: TEST_PASSWORD },
    returnHeaders: true,
  });
  const cookie = headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { id: response.user.id, email, cookie };
}
