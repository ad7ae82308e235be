import { AUTH_MESSAGES, PASSWORD_MAX, PASSWORD_MIN, type FieldCheck } from "../../app/lib/auth-rules.ts";
import { isCommonPassword } from "../../app/lib/common-passwords.ts";

/** Every new password (register, reset, change) meets this, on the server. */
export function checkNewPassword(password: string): FieldCheck {
  if (password.length < PASSWORD_MIN) return { ok: false, message: AUTH_MESSAGES.passwordTooShort };
  if (password.length > PASSWORD_MAX) return { ok: false, message: AUTH_MESSAGES.passwordTooLong };
  if (isCommonPassword(password)) return { ok: false, message: AUTH_MESSAGES.passwordTooCommon };
  return { ok: true };
}
