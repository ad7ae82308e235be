import { AUTH_MESSAGES, checkPasswordLength, type FieldCheck } from "../../app/lib/auth-rules.ts";
import { isCommonPassword } from "../../app/lib/common-passwords.ts";

/** Every new password (register, reset, change) meets this, on the server. */
export function checkNewPassword(password: string): FieldCheck {
  const length = checkPasswordLength(password);
  if (!length.ok) return length;
  if (isCommonPassword(password)) return { ok: false, message: AUTH_MESSAGES.passwordTooCommon };
  return { ok: true };
}
