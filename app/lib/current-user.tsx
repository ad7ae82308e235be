import { createContext, useCallback, useContext, useEffect, useState } from "react";
import type { PublicUser } from "./auth-rules.ts";

const USER_STORAGE_KEY = "user";

function readStoredUser(): PublicUser | null {
  try {
    const raw = window.localStorage.getItem(USER_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<PublicUser>;
    return typeof value.email === "string"
      ? { fullName: String(value.fullName ?? ""), email: value.email, profilePhoto: value.profilePhoto ?? null }
      : null;
  } catch {
    return null; // No web storage (private mode, disabled): the session cookie is enough.
  }
}

function writeStoredUser(user: PublicUser | null): void {
  try {
    if (user) {
      // Only the public profile: never a password or a token.
      const mirror: PublicUser = { fullName: user.fullName, email: user.email, profilePhoto: user.profilePhoto };
      window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(mirror));
    } else {
      window.localStorage.removeItem(USER_STORAGE_KEY);
    }
  } catch {
    // Storage unavailable: nothing to mirror.
  }
}

interface CurrentUserApi {
  user: PublicUser | null;
  /** Whether the page has read who the visitor is yet (never on the server: pages are shared). */
  known: boolean;
  setUser: (user: PublicUser | null) => void;
}

const CurrentUserContext = createContext<CurrentUserApi>({ user: null, known: false, setUser: () => {} });
export const useCurrentUser = () => useContext(CurrentUserContext);

/**
 * The current user: the server session is the truth (it arrives with the visitor's data, once the
 * page has read it: `known`); the localStorage mirror is brought in line with it then, and other
 * tabs' sign-outs are followed.
 */
export function CurrentUserProvider({
  serverUser,
  known,
  children,
}: {
  serverUser: PublicUser | null;
  known: boolean;
  children: React.ReactNode;
}) {
  const [user, setUserState] = useState<PublicUser | null>(serverUser);

  useEffect(() => {
    if (!known) return;
    // The server's answer replaces what this tab remembered from localStorage.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setUserState(serverUser);
    writeStoredUser(serverUser);
    // The loader's user is a new object on every revalidation: follow what it says, not its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [known, serverUser?.email, serverUser?.fullName, serverUser?.profilePhoto]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === USER_STORAGE_KEY || event.key === null) setUserState(readStoredUser());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const setUser = useCallback((next: PublicUser | null) => {
    setUserState(next);
    writeStoredUser(next);
  }, []);

  return <CurrentUserContext value={{ user, known: known || user !== null, setUser }}>{children}</CurrentUserContext>;
}
