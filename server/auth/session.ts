import type { PublicUser } from "../../app/lib/auth-rules.ts";
import { getAuth } from "./auth.ts";

export interface SessionInfo {
  userId: string;
  sessionId: string;
  user: PublicUser;
}

/**
 * The session of each request being answered, looked up once: React Router hands the root loader
 * and the page's loaders (which run in parallel) the same Request object, and each asks who is
 * signed in. Keyed by that object only, so two requests never share an answer (not even with the
 * same cookie), and the entry goes when the request does. After an action, React Router runs the
 * loaders with a new Request, so they look the session up again (the action may have changed it).
 */
const lookups = new WeakMap<Request, Promise<SessionInfo | null>>();

async function lookUp(request: Request): Promise<SessionInfo | null> {
  const session = await getAuth().api.getSession({ headers: request.headers });
  if (!session) return null;
  return {
    userId: session.user.id,
    sessionId: session.session.id,
    user: { fullName: session.user.name ?? "", email: session.user.email, profilePhoto: session.user.image ?? null },
  };
}

/** The signed-in shopper for this request, or null. A read, so calling the API directly is fine. */
export function getSessionInfo(request: Request): Promise<SessionInfo | null> {
  if (!request.headers.get("cookie")?.includes("session_token")) return Promise.resolve(null);
  let found = lookups.get(request);
  if (!found) {
    found = lookUp(request);
    lookups.set(request, found);
    // A failed lookup is not kept: a later caller for the same request tries again, as before.
    const failed = found;
    failed.catch(() => {
      if (lookups.get(request) === failed) lookups.delete(request);
    });
  }
  return found;
}
