import { randomBytes } from "node:crypto";
import { getSessionInfo, type SessionInfo } from "../auth/session.ts";
import { guestCookie, ownerForGuest, ownerForUser, readGuestId } from "./guest.ts";

export interface Shopper {
  /** The key cart and wishlist rows belong to. */
  owner: string;
  session: SessionInfo | null;
  /** Set-Cookie to send when a new guest id was made. */
  setCookie: string | null;
}

/**
 * Who is shopping: the signed-in user, else the guest cookie. With `create`, a guest without a
 * cookie gets a fresh id (returned as a Set-Cookie); without it, such a guest has an empty owner.
 */
export async function resolveShopper(request: Request, options: { create?: boolean } = {}): Promise<Shopper> {
  const session = await getSessionInfo(request);
  if (session) return { owner: ownerForUser(session.userId), session, setCookie: null };
  const guestId = await readGuestId(request.headers.get("cookie"));
  if (guestId) return { owner: ownerForGuest(guestId), session: null, setCookie: null };
  if (!options.create) return { owner: "", session: null, setCookie: null };
  const fresh = randomBytes(24).toString("base64url");
  return { owner: ownerForGuest(fresh), session: null, setCookie: await guestCookie().serialize(fresh) };
}
