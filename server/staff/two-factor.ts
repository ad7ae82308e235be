/**
 * The back office's second factor, through Better Auth's twoFactor plugin (TOTP + backup codes):
 * enrolment (password → QR code and key → one code → backup codes, shown once) and the code a
 * staff member enters when a session hasn't passed a second factor yet. Calls go through the auth
 * HTTP handler (callAuthEndpoint), so the plugin's rate limits, lockout and origin checks apply.
 */
import QRCode from "qrcode";
import { getAuth } from "../auth/auth.ts";
import { CODE_ALREADY_USED, CODE_FAILURES, CODES_LOCKED } from "../auth/code-guard.ts";
import { callAuthEndpoint } from "../auth/forward.ts";

export const TWO_FACTOR_MESSAGES = {
  passwordMissing: "Enter your password to set up two-factor authentication.",
  passwordWrong: "That password is not right.",
  codeFormat: "Enter the 6-digit code from your authenticator app.",
  backupFormat: "Enter one of your backup codes.",
  codeWrong: "That code is not right. Check that your device's clock is correct and enter the newest code.",
  codeUsed: "That code was already used. Wait for the next code from your app, then enter it.",
  tooMany: "Too many attempts. Wait a few minutes, then try again.",
  locked: `Too many wrong codes. Code entry is paused for ${CODE_FAILURES.windowSeconds / 60} minutes; we've emailed the account's owner.`,
  expired: "This step took too long. Sign in again.",
  failed: "Two-factor authentication could not be set up. Try again.",
} as const;

export interface Enrolment {
  totpUri: string;
  /** The secret as text, in groups of four, for people who can't scan the QR code. */
  key: string;
  qrSvg: string;
}

export type StepResult<T> =
  { ok: true; value: T; setCookies: string[] } | { ok: false; message: string; status: number };

const TOTP_URI = /^otpauth:\/\/totp\/[^\s]{1,300}$/;

/** The QR code and text key for a TOTP URI the plugin issued. */
export async function describeEnrolment(totpUri: string): Promise<Enrolment | null> {
  if (!TOTP_URI.test(totpUri)) return null;
  const secret = new URL(totpUri).searchParams.get("secret");
  if (!secret || !/^[A-Z2-7]+=*$/i.test(secret)) return null;
  const qrSvg = await QRCode.toString(totpUri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return {
    totpUri,
    key: secret
      .replace(/=+$/, "")
      .match(/.{1,4}/g)!
      .join(" "),
    qrSvg,
  };
}

function failure(
  status: number,
  body: Record<string, unknown> | null,
  wrong: string,
): { ok: false; message: string; status: number } {
  const code = typeof body?.code === "string" ? body.code : "";
  if (code === CODES_LOCKED) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.locked };
  if (code === CODE_ALREADY_USED) return { ok: false, status: 401, message: TWO_FACTOR_MESSAGES.codeUsed };
  if (status === 429 || code.includes("TOO_MANY") || code.includes("LOCKED"))
    return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooMany };
  if (code.includes("COOKIE")) return { ok: false, status: 401, message: TWO_FACTOR_MESSAGES.expired };
  if (code.includes("PASSWORD")) return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.passwordWrong };
  return { ok: false, status: status >= 400 && status < 500 ? status : 400, message: wrong };
}

/** Step 1: the password starts (or restarts) an enrolment; answers with the QR code and key. */
export async function startEnrolment(request: Request, password: string): Promise<StepResult<Enrolment>> {
  if (!password) return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.passwordMissing };
  const result = await callAuthEndpoint(request, "/two-factor/enable", { password: password.slice(0, 128) });
  const uri = typeof result.body?.totpURI === "string" ? result.body.totpURI : "";
  if (!result.ok || !uri) return failure(result.status, result.body, TWO_FACTOR_MESSAGES.failed);
  const enrolment = await describeEnrolment(uri);
  if (!enrolment) return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.failed };
  return { ok: true, value: enrolment, setCookies: result.setCookies };
}

function normaliseTotp(code: string): string | null {
  const digits = code.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

function normaliseBackupCode(code: string): string | null {
  const clean = code.trim();
  return /^[A-Za-z0-9-]{6,32}$/.test(clean) ? clean : null;
}

/**
 * A TOTP or backup code for the current session (enrolment's confirmation, or the code asked of
 * a session that hasn't passed a second factor) or for a password sign-in waiting on its second
 * step (the plugin's two_factor cookie). On success the session is stamped (second-factor.ts).
 */
export async function verifyCode(
  request: Request,
  kind: "totp" | "backup",
  code: string,
): Promise<StepResult<{ userId: string; role: string | null }>> {
  const clean = kind === "totp" ? normaliseTotp(code) : normaliseBackupCode(code);
  if (!clean)
    return {
      ok: false,
      status: 400,
      message: kind === "totp" ? TWO_FACTOR_MESSAGES.codeFormat : TWO_FACTOR_MESSAGES.backupFormat,
    };
  const path = kind === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
  const result = await callAuthEndpoint(request, path, { code: clean });
  const user = result.body?.user as { id?: unknown; role?: unknown } | undefined;
  if (!result.ok || typeof user?.id !== "string")
    return failure(result.status, result.body, TWO_FACTOR_MESSAGES.codeWrong);
  return {
    ok: true,
    value: { userId: user.id, role: typeof user.role === "string" ? user.role : null },
    setCookies: result.setCookies,
  };
}

/** The backup codes of a just-confirmed enrolment, shown once on the page that confirmed it. */
export async function backupCodesOf(userId: string): Promise<string[]> {
  const result = (await getAuth().api.viewBackupCodes({ body: { userId } })) as { backupCodes?: string[] };
  return result.backupCodes ?? [];
}
