/**
 * The store's files are owner-only on disk (issue 48): the SQLite database and its -wal/-shm, the
 * generated auth secret, outbox mails (live sign-in links), uploads and backups are 0600 in 0700
 * folders — new ones, made by a store process started with the usual umask 022, and ones an older
 * version left 0644, tightened at start-up. Modes are read back from the disk.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { isDedicatedFolder, protectStoreFiles } from "../../server/ops/private-files.ts";

const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "private-files-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;
const octal = (file: string) => `${path.relative(work, file)} ${mode(file).toString(8)}`;

/** Every file and folder below `dir` with its mode, as "relative/path 600". */
function modesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      out.push(octal(full));
      if (statSync(full).isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out.sort();
}

// A store process as `npm start` runs one: the usual umask, the data folder from the environment.
const STORE_SCRIPT = `
process.umask(0o022);
const { getDb } = await import(${JSON.stringify(path.resolve("server/db/connection.ts"))});
const { resolveAuthSecret } = await import(${JSON.stringify(path.resolve("server/auth/secret.ts"))});
const { config } = await import(${JSON.stringify(path.resolve("server/config.ts"))});
const { createOutboxTransport } = await import(${JSON.stringify(path.resolve("server/mail/transport.ts"))});
const { writeFileSync, mkdirSync } = await import("node:fs");
const path = await import("node:path");
const cfg = config();
resolveAuthSecret(cfg, () => {});
const db = getDb(cfg);
await db.schema.createTable("t").ifNotExists().addColumn("x", "integer").execute();
await db.insertInto("t").values({ x: 1 }).execute();
const outbox = createOutboxTransport(cfg.OUTBOX_DIR);
await outbox.deliver({ id: 1, messageId: "<m1@test>", to: "a@example.com", subject: "s", envelope: { from: "s@example.com", to: ["a@example.com"] }, raw: Buffer.from("Subject: s\\r\\n\\r\\nhttps://shop.example/api/auth/magic-link/verify?token=abc") }, async () => true);
// An upload, as server/catalog/product-images.ts writes one (no mode of its own: the umask decides).
mkdirSync(path.join(cfg.UPLOAD_DIR, "products"), { recursive: true });
writeFileSync(path.join(cfg.UPLOAD_DIR, "products", "k-400.webp"), "image");
console.log("ok");
await db.destroy();
`;

describe("owner-only store files", () => {
  it("a store started with umask 022 creates its database, -wal, -shm, secret, outbox mail and uploads owner-only", async () => {
    const dir = path.join(work, "fresh");
    const data = path.join(dir, "data");
    const script = path.join(work, "store.mjs");
    writeFileSync(script, STORE_SCRIPT);
    const { AUTH_SECRET: _secret, DATABASE_URL: _url, SITE_URL: _site, ...inherited } = process.env;
    const env = {
      ...inherited,
      NODE_ENV: "production",
      SQLITE_PATH: path.join(data, "store.db"),
      OUTBOX_DIR: path.join(data, "outbox"),
      UPLOAD_DIR: path.join(data, "uploads"),
    };
    // Run from the store folder, as `npm start` is.
    mkdirSync(dir, { recursive: true });
    const { stdout } = await run(process.execPath, [script], { env, cwd: dir });
    expect(stdout.trim()).toBe("ok");
    // -wal and -shm exist while a connection is open: check them as the process left them, or as SQLite created them.
    const listed = modesBelow(data);
    expect(listed).toContain("fresh/data/store.db 600");
    expect(listed).toContain("fresh/data/auth-secret 600");
    expect(listed).toContain("fresh/data/outbox 700");
    expect(listed.filter((l) => l.startsWith("fresh/data/outbox/mail-"))).toEqual([
      expect.stringMatching(/\.eml 600$/),
    ]);
    expect(listed).toContain("fresh/data/uploads 700");
    expect(listed).toContain("fresh/data/uploads/products 700");
    expect(listed).toContain("fresh/data/uploads/products/k-400.webp 600");
    expect(listed.filter((l) => !/ (600|700)$/.test(l))).toEqual([]);
  });

  it("-wal and -shm, made while the store runs, are owner-only", async () => {
    const dir = path.join(work, "wal");
    const file = path.join(dir, "store.db");
    const script = path.join(work, "wal.mjs");
    writeFileSync(
      script,
      `process.umask(0o022);
const { createDb } = await import(${JSON.stringify(path.resolve("server/db/connection.ts"))});
const { statSync } = await import("node:fs");
const db = createDb({ kind: "sqlite", sqlitePath: ${JSON.stringify(file)} });
await db.schema.createTable("t").addColumn("x", "integer").execute();
await db.insertInto("t").values({ x: 1 }).execute();
console.log(JSON.stringify(["", "-wal", "-shm"].map((s) => (statSync(${JSON.stringify(file)} + s).mode & 0o777).toString(8))));
await db.destroy();`,
    );
    const { stdout } = await run(process.execPath, [script], { env: process.env });
    expect(JSON.parse(stdout.trim())).toEqual(["600", "600", "600"]);
    expect(mode(dir)).toBe(0o700);
  });

  it("files an older version left 0644 (database, -wal, -shm, secret, outbox, uploads, backups) are tightened at start-up", async () => {
    const dir = path.join(work, "old");
    const data = path.join(dir, "data");
    const backups = path.join(dir, "backups");
    for (const d of [data, path.join(data, "outbox"), path.join(data, "uploads", "products"), backups])
      mkdirSync(d, { recursive: true, mode: 0o755 });
    const files = [
      "store.db",
      "store.db-wal",
      "store.db-shm",
      "auth-secret",
      "outbox/mail-000001-abc.eml",
      "uploads/products/k-400.webp",
    ].map((f) => path.join(data, f));
    files.push(path.join(backups, "store-2024.db"));
    for (const f of files) writeFileSync(f, "x", { mode: 0o644 });
    for (const d of [
      dir,
      data,
      path.join(data, "outbox"),
      path.join(data, "uploads"),
      path.join(data, "uploads", "products"),
      backups,
    ])
      chmodSync(d, 0o755);
    for (const f of files) chmodSync(f, 0o644);
    // A link to a file outside is not followed, and the file outside keeps its mode.
    const outside = path.join(work, "outside.txt");
    writeFileSync(outside, "x");
    chmodSync(outside, 0o644);
    symlinkSync(outside, path.join(data, "link"));

    const changed = protectStoreFiles(
      {
        SQLITE_PATH: path.join(data, "store.db"),
        OUTBOX_DIR: path.join(data, "outbox"),
        UPLOAD_DIR: path.join(data, "uploads"),
      },
      { backupDir: backups },
    );
    expect(changed).toBe(files.length + 4);
    for (const f of files) expect(mode(f), f).toBe(0o600);
    for (const d of [
      path.join(data, "outbox"),
      path.join(data, "uploads"),
      path.join(data, "uploads", "products"),
      backups,
    ])
      expect(mode(d), d).toBe(0o700);
    expect(mode(outside)).toBe(0o644);
    // The data folder itself, and the folder above it, keep their modes (other tools keep folders there).
    expect(mode(data)).toBe(0o755);
    expect(mode(dir)).toBe(0o755);
    // Run again: nothing left to change.
    expect(
      protectStoreFiles(
        {
          SQLITE_PATH: path.join(data, "store.db"),
          OUTBOX_DIR: path.join(data, "outbox"),
          UPLOAD_DIR: path.join(data, "uploads"),
        },
        { backupDir: backups },
      ),
    ).toBe(0);
  });

  it("never tightens the working directory, a parent of it, or the root, whatever the configuration says", () => {
    const cwd = path.join(work, "project");
    mkdirSync(path.join(cwd, "data"), { recursive: true });
    expect(isDedicatedFolder(path.join(cwd, "data"), cwd)).toBe(true);
    expect(isDedicatedFolder(cwd, cwd)).toBe(false);
    expect(isDedicatedFolder(work, cwd)).toBe(false);
    expect(isDedicatedFolder("/", cwd)).toBe(false);
    expect(isDedicatedFolder(path.join(work, "elsewhere"), cwd)).toBe(true);
    // SQLITE_PATH in the working directory itself: only the database's own files are tightened.
    const db = path.join(process.cwd(), `.tmp-private-files-${process.pid}.db`);
    writeFileSync(db, "x", { mode: 0o644 });
    chmodSync(db, 0o644);
    const cwdMode = mode(process.cwd());
    try {
      protectStoreFiles(
        { SQLITE_PATH: db, OUTBOX_DIR: path.join(work, "none-outbox"), UPLOAD_DIR: path.join(work, "none-uploads") },
        { backupDir: path.join(work, "none-backups") },
      );
      expect(mode(db)).toBe(0o600);
      expect(mode(process.cwd())).toBe(cwdMode);
      expect(existsSync(path.join(work, "none-outbox"))).toBe(false);
    } finally {
      rmSync(db, { force: true });
    }
  });
});
