/** The registration rules, used by the register page, its action and Better Auth's configuration. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const FULL_NAME_MAX = 100;

/** The spec's texts (§5, §8) and the store's own, shared by client and server. */
export const AUTH_MESSAGES = {
  required: "Email and password are required",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  passwordTooCommon: "This password is too common. Choose one that is harder to guess.",
  invalidEmail: "Enter a valid email address",
  emailTaken: "An account with this email already exists. Log in instead, or reset your password.",
  nameTooLong: `Full name must be at most ${FULL_NAME_MAX} characters`,
  badCredentials: "Incorrect email or password",
  tooManyAttempts: (seconds: number) => `Too many attempts. Try again in ${seconds} seconds.`,
  passwordSignInPaused: (minutes: number) =>
    `Password sign-in for this account is paused for ${minutes} minute${minutes === 1 ? "" : "s"} after too many failed attempts. "Email me a sign-in link" still works.`,
  network: "We couldn't reach the store. Check your connection and try again.",
  server: "Something went wrong on our side. Please try again in a moment.",
  registered: "User Create Successfully",
  loggedIn: "Login Successfully",
  googleLoggedIn: "Login Successful",
  confirmEmailSent: "We've emailed you a link to confirm your address. You can sign in and shop meanwhile.",
  emailConfirmed: "Thank you — your email address is confirmed.",
} as const;

/** Roles that run the store (server/auth/permissions.ts); they sign in with a password and a code. */
export const STAFF_ROLE_NAMES = ["staff", "admin"] as const;
export function isStaffRoleName(role: unknown): boolean {
  return (STAFF_ROLE_NAMES as readonly unknown[]).includes(role);
}
/** The error code and message of a staff sign-in by emailed link or Google (refused: server/auth/staff-sessions.ts). */
export const STAFF_PASSWORD_ONLY = "STAFF_PASSWORD_ONLY";
export const STAFF_PASSWORD_ONLY_MESSAGE =
  "Staff accounts sign in with their password and a code from their authenticator app.";
/** Where a staff member whose session has not passed a code goes next. */
export const STAFF_CODE_PATH = "/admin/two-factor";

// Plain checks instead of a schema library, so the browser bundle stays small.
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const email = { safeParse: (value: string) => ({ success: value.length <= 254 && EMAIL_PATTERN.test(value) }) };

export type FieldCheck = { ok: true } | { ok: false; message: string };

/** A new password's length (the server adds more checks: server/auth/password-policy.ts). */
export function checkPasswordLength(password: string): FieldCheck {
  if (password.length < PASSWORD_MIN) return { ok: false, message: AUTH_MESSAGES.passwordTooShort };
  if (password.length > PASSWORD_MAX) return { ok: false, message: AUTH_MESSAGES.passwordTooLong };
  return { ok: true };
}

/** The spec's register validation, in the spec's order; the first failure wins. */
export function checkRegistration(input: { fullName?: unknown; email?: unknown; password?: unknown }): FieldCheck {
  const emailText = typeof input.email === "string" ? input.email.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!emailText || !password) return { ok: false, message: AUTH_MESSAGES.required };
  const length = checkPasswordLength(password);
  if (!length.ok) return length;
  if (!email.safeParse(emailText).success) return { ok: false, message: AUTH_MESSAGES.invalidEmail };
  if (typeof input.fullName === "string" && input.fullName.trim().length > FULL_NAME_MAX)
    return { ok: false, message: AUTH_MESSAGES.nameTooLong };
  return { ok: true };
}

export function checkLogin(input: { email?: unknown; password?: unknown }): FieldCheck {
  const emailText = typeof input.email === "string" ? input.email.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!emailText || !password) return { ok: false, message: AUTH_MESSAGES.required };
  if (!email.safeParse(emailText).success || password.length > PASSWORD_MAX)
    return { ok: false, message: AUTH_MESSAGES.badCredentials };
  return { ok: true };
}

export function isValidEmail(value: unknown): value is string {
  return typeof value === "string" && email.safeParse(value).success;
}

/** The public profile mirrored in localStorage under "user". Never a password or token. */
export interface PublicUser {
  fullName: string;
  email: string;
  profilePhoto: string | null;
}
