/**
 * Vitest setup file: Better Auth instances built by the integration tests hash passwords with a
 * salted SHA-256 instead of scrypt, the way Better Auth's own test instances do (about 150 ms of
 * CPU saved per sign-up, sign-in and password change; the suite runs ~650 of them). A scrypt hash
 * (one made by the staff command in a child process, say) is still verified as Better Auth does.
 * tests/integration/auth.test.ts switches back to scrypt and checks the stored hash is scrypt's.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { verifyPassword } from "better-auth/crypto";
import { usePasswordHashingForTests } from "../../server/auth/password-hashing.ts";

const PREFIX = "test-sha256$";
const digest = (salt: string, password: string) =>
  createHash("sha256")
    .update(`${salt}:${password.normalize("NFKC")}`)
    .digest("hex");

usePasswordHashingForTests({
  hash: async (password) => {
    const salt = randomBytes(8).toString("hex");
    return `${PREFIX}${salt}$${digest(salt, password)}`;
  },
  verify: async ({ hash, password }) => {
    if (!hash.startsWith(PREFIX)) return verifyPassword({ hash, password });
    const [salt, key] = hash.slice(PREFIX.length).split("$");
    return timingSafeEqual(Buffer.from(key, "hex"), Buffer.from(digest(salt, password), "hex"));
  },
});
