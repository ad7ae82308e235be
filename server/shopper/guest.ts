/**
 * The keys cart and wishlist rows belong to, and the signed guest cookie: what both the shopper's
 * identity (identity.ts) and the sign-in hook that joins a guest's cart to the account's
 * (server/auth/auth.ts) need, without either importing the other.
 */
import { createCookie } from "react-router";
import { config } from "../config.ts";
import { resolveAuthSecret } from "../auth/secret.ts";

const GUEST_ID = /^[A-Za-z0-9_-]{22,64}$/;

export function guestCookie() {
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
  const value: unknown = await guestCookie().parse(cookieHeader);
  return typeof value === "string" && GUEST_ID.test(value) ? value : null;
}

export const ownerForUser = (userId: string) => `u:${userId}`;
export const ownerForGuest = (guestId: string) => `g:${guestId}`;
