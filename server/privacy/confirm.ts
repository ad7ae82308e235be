import { FRESH_SIGN_IN_MINUTES, PRIVACY_MESSAGES, type IdentityCheck } from "../../app/lib/privacy.ts";
import { verifyStoredPassword } from "../auth/password-hashing.ts";
import type { Db } from "../db/connection.ts";
import { InvalidError, NotAllowedError } from "../errors.ts";

export interface SignedInSession {
  userId: string;
  sessionId: string;
}

async function passwordHash(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("account")
    .select("password")
    .where("userId", "=", userId)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  return row?.password ?? null;
}

/** Whether the account has a password, and whether this session was signed in within the last minutes. */
export async function identityCheck(db: Db, session: SignedInSession, now = new Date()): Promise<IdentityCheck> {
  const row = await db
    .selectFrom("session")
    .select(["createdAt", "expiresAt"])
    .where("id", "=", session.sessionId)
    .where("userId", "=", session.userId)
    .executeTakeFirst();
  const created = row ? new Date(row.createdAt).getTime() : 0;
  const live = row ? new Date(row.expiresAt).getTime() > now.getTime() : false;
  const freshSignIn =
    live && now.getTime() - created <= FRESH_SIGN_IN_MINUTES * 60_000 && created <= now.getTime() + 60_000;
  return { hasPassword: (await passwordHash(db, session.userId)) !== null, freshSignIn };
}

/**
 * Confirms that the person at the keyboard owns the account before a download or a deletion.
 * An account with a password must enter it (a recent sign-in alone is not enough: a borrowed,
 * signed-in browser could be minutes old). An account without one (Google or email link only)
 * must have signed in within FRESH_SIGN_IN_MINUTES. Throws a DomainError (4xx) otherwise.
 */
export async function confirmIdentity(
  db: Db,
  session: SignedInSession,
  password: string,
  options: { now?: Date } = {},
): Promise<void> {
  const hash = await passwordHash(db, session.userId);
  if (hash !== null) {
    if (!password) throw new InvalidError("PASSWORD_REQUIRED", PRIVACY_MESSAGES.passwordRequired);
    if (!(await verifyStoredPassword(hash, password)))
      throw new NotAllowedError("WRONG_PASSWORD", PRIVACY_MESSAGES.wrongPassword);
    return;
  }
  const { freshSignIn } = await identityCheck(db, session, options.now);
  if (!freshSignIn) throw new NotAllowedError("SIGN_IN_AGAIN", PRIVACY_MESSAGES.signInAgain);
}
