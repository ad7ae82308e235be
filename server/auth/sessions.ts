/**
 * "Active sessions" on /account: list a user's signed-in sessions and end them. Plain Kysely on
 * Better Auth's `session` table (sessions live only there: no secondary storage, no cookie cache,
 * so a deleted row signs that device out on its next request). The browser names a session by its
 * id; the token never leaves the server, and every delete is scoped to the signed-in user.
 */
import {
  type ActiveSession,
  describeDevice,
  displayIp,
  SESSION_INTENTS,
  SESSION_MESSAGES,
} from "../../app/lib/sessions.ts";
import { PRIVACY_MESSAGES } from "../../app/lib/privacy.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { InvalidError, NotFoundError, isDomainError } from "../errors.ts";
import { authDate } from "../privacy/retention.ts";
import { isTrustedOrigin, originPolicy, type OriginPolicy } from "./origins.ts";
import type { SessionInfo } from "./session.ts";

const iso = (value: string | Date) => new Date(value).toISOString();
/** Longer than any id Better Auth makes; anything else is not a session of ours. */
const MAX_ID_LENGTH = 128;

/** The user's unexpired sessions, the current one first, then the most recently active. */
export async function listSessions(
  db: Db,
  userId: string,
  currentSessionId: string | null,
  now = new Date(),
): Promise<ActiveSession[]> {
  const rows = await db
    .selectFrom("session")
    .select(["id", "userAgent", "ipAddress", "createdAt", "updatedAt"])
    .where("userId", "=", userId)
    .where("expiresAt", ">", authDate(db, now))
    .execute();
  return rows
    .map((row) => ({
      id: row.id,
      device: describeDevice(row.userAgent),
      ipAddress: displayIp(row.ipAddress),
      signedInAt: iso(row.createdAt),
      lastActiveAt: iso(row.updatedAt),
      current: row.id === currentSessionId,
    }))
    .sort(
      (a, b) =>
        Number(b.current) - Number(a.current) ||
        b.lastActiveAt.localeCompare(a.lastActiveAt) ||
        b.signedInAt.localeCompare(a.signedInAt),
    );
}

/**
 * Ends one of the user's sessions. A session that isn't theirs (or doesn't exist) is a 404 and
 * nothing is deleted; the session making the request is refused (that's what Logout is for).
 */
export async function endSession(
  db: Db,
  userId: string,
  sessionId: string,
  options: { currentSessionId?: string } = {},
): Promise<{ device: string }> {
  if (options.currentSessionId && sessionId === options.currentSessionId)
    throw new InvalidError("CURRENT_SESSION", SESSION_MESSAGES.current);
  const notFound = new NotFoundError("SESSION_NOT_FOUND", SESSION_MESSAGES.notFound);
  if (!sessionId || sessionId.length > MAX_ID_LENGTH) throw notFound;
  const row = await db
    .selectFrom("session")
    .select(["id", "userAgent"])
    .where("id", "=", sessionId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  if (!row) throw notFound;
  const result = await db
    .deleteFrom("session")
    .where("id", "=", sessionId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound;
  return { device: describeDevice(row.userAgent) };
}

/** Ends every session of the user except the current one; returns how many rows went. */
export async function endOtherSessions(db: Db, userId: string, currentSessionId: string): Promise<number> {
  const result = await db
    .deleteFrom("session")
    .where("userId", "=", userId)
    .where("id", "<>", currentSessionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SessionFormResult {
  status: number;
  ok: boolean;
  message: string;
}

/**
 * The /account form posts of "Active sessions" (with or without JavaScript): the origin check the
 * other account actions use, then the domain step, answered as a status and a readable message.
 */
export async function sessionFormAction(
  db: Db,
  request: Request,
  session: Pick<SessionInfo, "userId" | "sessionId">,
  form: FormData,
  policy: OriginPolicy | string[] = originPolicy(config()),
): Promise<SessionFormResult> {
  if (!isTrustedOrigin(request.headers, policy))
    return { status: 403, ok: false, message: PRIVACY_MESSAGES.untrustedOrigin };
  try {
    if (form.get("intent") === SESSION_INTENTS.endOthers) {
      const ended = await endOtherSessions(db, session.userId, session.sessionId);
      return { status: 200, ok: true, message: ended > 0 ? SESSION_MESSAGES.othersEnded : SESSION_MESSAGES.noOthers };
    }
    const sessionId = form.get("sessionId");
    const { device } = await endSession(db, session.userId, typeof sessionId === "string" ? sessionId : "", {
      currentSessionId: session.sessionId,
    });
    return { status: 200, ok: true, message: SESSION_MESSAGES.ended(device) };
  } catch (error) {
    if (isDomainError(error)) return { status: error.status, ok: false, message: error.message };
    throw error;
  }
}
