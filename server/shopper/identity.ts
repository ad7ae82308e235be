import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { config } from "../config.ts";
import { resolveAuthSecret } from "../auth/secret.ts";
import { getSessionInfo, type SessionInfo } from "../auth/session.ts";

const GUEST_ID = /^[A-Za-z0-9_-]{22,64}$/;

function guestCookie() {
  const cfg = config();
  return createCookie("guest", {
    httpOnly: true,
    sameSite: "lax",
    secure: cfg.siteUrl.startsWith("https://"),
    path: "/",
    maxAge: 60 * 60 * 24 * 90,
    secrets: [resolveAuthSecret(cfg)],
  });
}

/** The guest id from the signed cookie, or null when it is missing or tampered with. */
export async function readGuestId(cookieHeader: string | null): Promise<string | null> {
  if (!cookieHeader?.includes("guest=")) return null;
  const value = await guestCookie().parse(cookieHeader);
  return typeof value === "string" && GUEST_ID.test(value) ? value : null;
}

export interface Shopper {
  /** The key cart and wishlist rows belong to. */
  owner: string;
  session: SessionInfo | null;
  /** Set-Cookie to send when a new guest id was made. */
  setCookie: string | null;
}

export const ownerForUser = (userId: string) => `u:${userId}`;
export const ownerForGuest = (guestId: string) => `g:${guestId}`;

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
