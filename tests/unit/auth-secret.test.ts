import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MissingAuthSecretError, resolveAuthSecret, secretFilePath } from "../../server/auth/secret.ts";
import { loadConfig } from "../../server/config.ts";

const dataDir = () => mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), "secret-"));

describe("the auth secret", () => {
  it("uses AUTH_SECRET when it is set", () => {
    const cfg = loadConfig({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(40) });
    expect(resolveAuthSecret(cfg, () => undefined)).toBe("x".repeat(40));
  });

  it("without AUTH_SECRET, generates a random secret once, owner-only, logs once, and reuses it", () => {
    const dir = dataDir();
    const cfg = loadConfig({ NODE_ENV: "production", SQLITE_PATH: path.join(dir, "store.db") });
    const lines: string[] = [];
    const first = resolveAuthSecret(cfg, (l) => lines.push(l));
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).not.toContain("dev-only");
    const file = secretFilePath(cfg);
    expect(file).toBe(path.join(dir, "auth-secret"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("generated a random secret");
    expect(lines[0]).not.toContain(first);
    // A later start (a fresh process: another config object) reads the same file.
    const again = resolveAuthSecret(
      loadConfig({ NODE_ENV: "production", SQLITE_PATH: path.join(dir, "store.db") }),
      (l) => lines.push(l),
    );
    expect(again).toBe(first);
    expect(readFileSync(file, "utf8")).toBe(first);
  });

  it("gives two stores in two data folders different secrets", () => {
    const a = resolveAuthSecret(
      loadConfig({ NODE_ENV: "production", SQLITE_PATH: path.join(dataDir(), "s.db") }),
      () => undefined,
    );
    const b = resolveAuthSecret(
      loadConfig({ NODE_ENV: "production", SQLITE_PATH: path.join(dataDir(), "s.db") }),
      () => undefined,
    );
    expect(a).not.toBe(b);
  });

  it("refuses a secret file that holds too little", () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, "auth-secret"), "short", { mode: 0o600 });
    expect(() =>
      resolveAuthSecret(
        loadConfig({ NODE_ENV: "production", SQLITE_PATH: path.join(dir, "store.db") }),
        () => undefined,
      ),
    ).toThrow(MissingAuthSecretError);
  });

  it("refuses to run PostgreSQL without AUTH_SECRET, and says why", () => {
    const cfg = loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example/store" });
    expect(() => resolveAuthSecret(cfg, () => undefined)).toThrow(/AUTH_SECRET is not set.*several instances/);
  });
});
