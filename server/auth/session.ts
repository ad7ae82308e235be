import type { PublicUser } from "../../app/lib/auth-rules.ts";
import { getAuth } from "./auth.ts";

export interface SessionInfo {
  userId: string;
  sessionId: string;
  user: PublicUser;
}

/** The signed-in shopper for this request, or null. A read, so calling the API directly is fine. */
export async function getSessionInfo(request: Request): Promise<SessionInfo | null> {
  if (!request.headers.get("cookie")?.includes("session_token")) return null;
  const session = await getAuth().api.getSession({ headers: request.headers });
  if (!session) return null;
  return {
    userId: session.user.id,
    sessionId: session.session.id,
    user: { fullName: session.user.name ?? "", email: session.user.email, profilePhoto: session.user.image ?? null },
  };
}
