import { describe, expect, it } from "vitest";
import {
  AUTH_MESSAGES,
  checkPasswordLength,
  checkRegistration,
  FULL_NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from "../../app/lib/auth-rules.ts";
import { buildAuthOptions } from "../../server/auth/auth.ts";
import { createSignInGuard } from "../../server/auth/sign-in-guard.ts";
import { loadConfig } from "../../server/config.ts";
import { createDb } from "../../server/db/connection.ts";

const good = { fullName: "Ada", email: "ada@example.com", password: "x".repeat(PASSWORD_MIN) };
const message = (input: Parameters<typeof checkRegistration>[0]) => {
  const check = checkRegistration(input);
  return check.ok ? null : check.message;
};

describe("the registration rules", () => {
  it("are the spec's texts, with the limits in them", () => {
    expect(AUTH_MESSAGES.passwordTooShort).toBe("Password must be at least 6 characters");
    expect(AUTH_MESSAGES.passwordTooLong).toBe("Password must be at most 128 characters");
    expect(AUTH_MESSAGES.nameTooLong).toBe("Full name must be at most 100 characters");
  });

  it("take passwords from PASSWORD_MIN to PASSWORD_MAX characters", () => {
    expect(checkPasswordLength("x".repeat(PASSWORD_MIN - 1))).toEqual({
      ok: false,
      message: AUTH_MESSAGES.passwordTooShort,
    });
    expect(checkPasswordLength("x".repeat(PASSWORD_MIN))).toEqual({ ok: true });
    expect(checkPasswordLength("x".repeat(PASSWORD_MAX))).toEqual({ ok: true });
    expect(checkPasswordLength("x".repeat(PASSWORD_MAX + 1))).toEqual({
      ok: false,
      message: AUTH_MESSAGES.passwordTooLong,
    });
  });

  it("check a registration in the spec's order, the first failure winning", () => {
    expect(message(good)).toBeNull();
    expect(message({ ...good, email: " " })).toBe(AUTH_MESSAGES.required);
    expect(message({ ...good, email: "not-an-email", password: "abc" })).toBe(AUTH_MESSAGES.passwordTooShort);
    expect(message({ ...good, email: "not-an-email" })).toBe(AUTH_MESSAGES.invalidEmail);
    expect(message({ ...good, fullName: "n".repeat(FULL_NAME_MAX) })).toBeNull();
    expect(message({ ...good, fullName: "n".repeat(FULL_NAME_MAX + 1) })).toBe(AUTH_MESSAGES.nameTooLong);
  });

  it("are Better Auth's password limits too", async () => {
    const cfg = loadConfig({
      SITE_URL: "http://127.0.0.1:3000",
      NODE_ENV: "test",
      AUTH_SECRET: "unit-secret-0123456789abcdef0123456789",
    });
    const db = createDb({ kind: "sqlite", sqlitePath: ":memory:" });
    try {
      const options = buildAuthOptions(db, cfg, createSignInGuard(cfg));
      expect(options.emailAndPassword).toMatchObject({
        minPasswordLength: PASSWORD_MIN,
        maxPasswordLength: PASSWORD_MAX,
      });
    } finally {
      await db.destroy();
    }
  });
});
