import { AUTH_MESSAGES } from "./auth-rules.ts";

export interface AuthFailure {
  status: number;
  code?: string;
  message?: string;
  retryAfterSeconds?: number | null;
}

/** What a banned account is told (Better Auth's admin plugin answers its sign-ins with this). */
export const ACCOUNT_SUSPENDED_MESSAGE =
  "This account has been suspended. Please contact us if you think this is a mistake.";

/** Turns an auth endpoint's failure into the sentence the shopper sees. Shared by browser and server. */
export function authErrorMessage(kind: "login" | "register" | "other", failure: AuthFailure): string {
  const { status, code, message } = failure;
  // The account's password sign-in is paused for everyone: the server's sentence points to the emailed link.
  if (status === 429 && code === "PASSWORD_SIGN_IN_PAUSED" && message) return message;
  if (status === 429) return AUTH_MESSAGES.tooManyAttempts(Math.max(1, failure.retryAfterSeconds ?? 60));
  if (code === "BANNED_USER") return ACCOUNT_SUSPENDED_MESSAGE;
  if (status === 403)
    return "This sign-in request came from a site that isn't allowed to use your account (unauthorized domain).";
  if (status >= 500 || status === 0) return AUTH_MESSAGES.server;
  if (kind === "login" && (status === 401 || code === "INVALID_EMAIL_OR_PASSWORD")) return AUTH_MESSAGES.badCredentials;
  if (kind === "register" && (status === 422 || code?.startsWith("USER_ALREADY_EXISTS")))
    return AUTH_MESSAGES.emailTaken;
  if (code === "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" || code === "PASSWORD_TOO_SHORT")
    return message ?? AUTH_MESSAGES.passwordTooShort;
  if (code === "INVALID_TOKEN") return "This link is invalid or has already been used. Request a new one.";
  if (code === "INVALID_PASSWORD") return "Your current password is incorrect.";
  if (status === 400 && message) return message;
  return kind === "login" ? AUTH_MESSAGES.badCredentials : AUTH_MESSAGES.server;
}

/** Reads a failed Response from /api/auth/* into an AuthFailure. */
export async function readAuthFailure(response: Response): Promise<AuthFailure> {
  let body: { code?: string; message?: string } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Non-JSON body (a proxy's error page, say): the status alone decides.
  }
  const retry = Number(response.headers.get("x-retry-after") ?? response.headers.get("retry-after"));
  return {
    status: response.status,
    code: body.code,
    message: body.message,
    retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : null,
  };
}
