/**
 * The request side of "Your data": origin check, password-attempt limit, identity confirmation,
 * then the domain step (export.ts, erase.ts). Plain functions of (db, request, session, deps) so
 * the routes stay thin and tests can drive them on SQLite and PostgreSQL.
 */
import { redirect } from "react-router";
import { DELETE_CONFIRMATION_WORD, PRIVACY_MESSAGES } from "../../app/lib/privacy.ts";
import { isTrustedOrigin, originPolicy, type OriginPolicy } from "../auth/origins.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { TooManyError, isDomainError } from "../errors.ts";
import { readSmallForm } from "../http/form-action.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { confirmIdentity, type SignedInSession } from "./confirm.ts";
import { eraseAccount, NOTHING_ERASED, type ErasureSummary } from "./erase.ts";
import { exportAccountData, exportFileName } from "./export.ts";
import { formText } from "../../app/lib/form-text.ts";

export interface PrivacyDeps {
  /** Counts confirmation attempts per account (password guessing with a borrowed session). */
  limiter: RateLimiter;
  /** The authorized origins for these state-changing posts. */
  origins: OriginPolicy | string[];
  log?: (line: string) => void;
  now?: () => Date;
}

/** Confirmation attempts (download or deletion) allowed per account per window. */
const CONFIRM_RATE_LIMIT = { windowSeconds: 15 * 60, max: 5 } as const;

let defaults: PrivacyDeps | undefined;

export function defaultPrivacyDeps(): PrivacyDeps {
  if (!defaults) {
    const cfg = config();
    defaults = {
      limiter: createRateLimiter({ name: "privacy-confirm", ...CONFIRM_RATE_LIMIT, redisUrl: cfg.REDIS_URL }),
      origins: originPolicy(cfg),
      log: (line) => console.log(line),
    };
  }
  return defaults;
}

const NO_STORE = { "Cache-Control": "no-store" };

async function confirm(
  db: Db,
  session: SignedInSession,
  password: string,
  deps: PrivacyDeps,
  now: Date,
): Promise<void> {
  const limit = await deps.limiter.hit(session.userId);
  if (!limit.allowed)
    throw new TooManyError("TOO_MANY_ATTEMPTS", PRIVACY_MESSAGES.tooManyAttempts(limit.retryAfterSeconds));
  await confirmIdentity(db, session, password, { now });
}

/**
 * POST /account/data: the JSON download, as an attachment that no cache keeps. A refused
 * confirmation goes back to /account with the reason's code (the page shows its message).
 */
export async function downloadDataAction(
  db: Db,
  request: Request,
  session: SignedInSession | null,
  deps: PrivacyDeps,
): Promise<Response> {
  if (!isTrustedOrigin(request.headers, deps.origins))
    return new Response(PRIVACY_MESSAGES.untrustedOrigin, { status: 403, headers: NO_STORE });
  if (!session) return redirect("/login", { status: 303 });
  const form = await readSmallForm(request);
  const now = deps.now?.() ?? new Date();
  try {
    await confirm(db, session, formText(form, "password"), deps, now);
  } catch (error) {
    if (isDomainError(error))
      return redirect(`/account?data-error=${encodeURIComponent(error.code)}#your-data`, {
        status: 303,
        headers: NO_STORE,
      });
    throw error;
  }
  const body = await exportAccountData(db, session.userId, { currentSessionId: session.sessionId, now });
  deps.log?.(`Privacy: data export for user ${session.userId}`);
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      ...NO_STORE,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(now)}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export type DeleteAccountOutcome =
  | { kind: "erased"; summary: ErasureSummary }
  | { kind: "sign-in" }
  | { kind: "refused"; status: number; field: "confirm" | "password" | null; message: string };

/** POST /account/delete: checks, then the erasure. The route signs the browser out afterwards. */
export async function deleteAccountAction(
  db: Db,
  request: Request,
  session: SignedInSession | null,
  deps: PrivacyDeps,
): Promise<DeleteAccountOutcome> {
  if (!isTrustedOrigin(request.headers, deps.origins))
    return { kind: "refused", status: 403, field: null, message: PRIVACY_MESSAGES.untrustedOrigin };
  if (!session) return { kind: "sign-in" };
  const form = await readSmallForm(request);
  if (formText(form, "confirm").trim() !== DELETE_CONFIRMATION_WORD) {
    return { kind: "refused", status: 400, field: "confirm", message: PRIVACY_MESSAGES.typeDelete };
  }
  const now = deps.now?.() ?? new Date();
  try {
    await confirm(db, session, formText(form, "password"), deps, now);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const field = error.code === "PASSWORD_REQUIRED" || error.code === "WRONG_PASSWORD" ? "password" : null;
    return { kind: "refused", status: error.status, field, message: error.message };
  }
  let summary: ErasureSummary;
  try {
    summary = await eraseAccount(db, session.userId, { now });
  } catch (error) {
    // The same delete sent twice at once (a double click): the other request erased it already.
    if (isDomainError(error) && error.code === "ACCOUNT_NOT_FOUND") return { kind: "erased", summary: NOTHING_ERASED };
    throw error;
  }
  deps.log?.(
    `Privacy: account ${session.userId} deleted; ${summary.ordersAnonymised} order(s) anonymised, ${summary.mailsErased} mail(s) blanked`,
  );
  return { kind: "erased", summary };
}
