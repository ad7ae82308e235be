import { verifyPassword } from "better-auth/crypto";

/**
 * How Better Auth hashes passwords: its own scrypt (N 16,384, r 16; about 150 ms of CPU per hash
 * on a 2-core machine) everywhere the store runs. Only the Vitest suite swaps it for a fast one,
 * as Better Auth's own test instances do (tests/integration/fast-password-hashing.ts).
 */
interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
}

let forTests: PasswordHashing | undefined;

/** Undefined: Better Auth's scrypt. */
export function passwordHashing(): PasswordHashing | undefined {
  return forTests;
}

/** Checks a password against its stored hash the way Better Auth's sign-in does. */
export function verifyStoredPassword(hash: string, password: string): Promise<boolean> {
  return (forTests ?? { verify: verifyPassword }).verify({ hash, password });
}

/** Tests only: the hashing of every Better Auth instance built from now on; undefined restores scrypt. */
export function usePasswordHashingForTests(hashing: PasswordHashing | undefined): void {
  forTests = hashing;
}
