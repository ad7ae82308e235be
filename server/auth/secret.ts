import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AppConfig } from "../config.ts";

const SECRET_FILE_NAME = "auth-secret";

export class MissingAuthSecretError extends Error {}

const cache = new Map<string, string>();

/** Where the generated secret is kept: beside the SQLite database, in the data folder. */
export function secretFilePath(cfg: Pick<AppConfig, "SQLITE_PATH">): string {
  const dir = cfg.SQLITE_PATH === ":memory:" ? "./data" : path.dirname(cfg.SQLITE_PATH);
  return path.resolve(dir, SECRET_FILE_NAME);
}

function readOrCreate(file: string, log: (line: string) => void): string {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: of several processes starting at once, exactly one creates the file; the rest read it.
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    log(
      `AUTH_SECRET is not set: generated a random secret and saved it in ${file} (owner-only). Keep that file, or set AUTH_SECRET yourself.`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32)
    throw new MissingAuthSecretError(
      `${file} holds no usable secret (32+ characters). Delete it to generate a new one, or set AUTH_SECRET.`,
    );
  return secret;
}

/**
 * The secret for session and cookie signing: AUTH_SECRET when set. Without it, an embedded
 * (SQLite) store generates one on first start and keeps it in the data folder; PostgreSQL
 * deployments — typically several instances that must share one secret — refuse to start.
 */
export function resolveAuthSecret(cfg: AppConfig, log: (line: string) => void = console.log): string {
  if (cfg.AUTH_SECRET) return cfg.AUTH_SECRET;
  if (cfg.NODE_ENV === "test") {
    const key = "test";
    if (!cache.has(key)) cache.set(key, randomBytes(32).toString("base64url"));
    return cache.get(key)!;
  }
  if (cfg.databaseKind === "postgres") {
    throw new MissingAuthSecretError(
      "AUTH_SECRET is not set. With PostgreSQL the store may run as several instances, which must all sign sessions with the same secret: set AUTH_SECRET to 32+ random characters (for example `openssl rand -base64 32`) on every instance.",
    );
  }
  const file = secretFilePath(cfg);
  if (!cache.has(file)) cache.set(file, readOrCreate(file, log));
  return cache.get(file)!;
}
