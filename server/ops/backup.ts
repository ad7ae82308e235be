/**
 * Backups of the store's database: an online, consistent copy while the store serves, and a
 * restore into the configured database. SQLite: `VACUUM INTO` reads one snapshot (one read
 * transaction) and writes a compact standalone file. PostgreSQL: `pg_dump`'s custom format
 * (also one snapshot), restored with `pg_restore`.
 *
 * A backup carries no working sign-in (issue 48): the rows of Better Auth's `session` and
 * `verification` tables (session tokens, emailed sign-in links, reset and other one-time tokens)
 * are left out — the tables are there, empty. A restored store starts with everyone signed out;
 * passwords, second factors and the rest are kept, so people sign in again as before.
 * Backup files and the folder `npm run backup` creates are owner-only (0600 / 0700).
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { AppConfig } from "../config.ts";
import {
  createOwnerOnlyFile,
  DEFAULT_BACKUP_DIR,
  OWNER_ONLY_DIR,
  protectFile,
  protectFolder,
} from "./private-files.ts";

export class BackupError extends Error {}

const SQLITE_MAGIC = "SQLite format 3\u0000";
const PG_MAGIC = "PGDMP";

type BackupKind = "sqlite" | "postgres";

export interface BackupResult {
  file: string;
  kind: BackupKind;
  bytes: number;
  ms: number;
}

/** A backup's kind, read from its first bytes; null when it is neither. */
function backupKindOf(file: string): BackupKind | null {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    const text = head.subarray(0, n).toString("latin1");
    if (text === SQLITE_MAGIC) return "sqlite";
    if (text.startsWith(PG_MAGIC)) return "postgres";
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The file name used when none is given: backups/store-<UTC time>.<db|dump>. */
export function defaultBackupFile(kind: BackupKind, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return path.join("backups", `store-${stamp}.${kind === "sqlite" ? "db" : "dump"}`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.on("error", (error) =>
      reject(new BackupError(`${command} could not run (${error.message}); install the PostgreSQL client tools`)),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim().split("\n").slice(-3).join(" ")}`)),
    );
  });
}

/** Tables whose rows are sign-in secrets: never in a backup. */
const TABLES_LEFT_OUT = ["session", "verification"] as const;

function prepareTarget(file: string) {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose a new file name`);
  const dir = path.dirname(path.resolve(file));
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  // The default folder is the store's own: it, and backups an older version left in it, become owner-only.
  if (dir === path.resolve(DEFAULT_BACKUP_DIR)) protectFolder(dir);
}

/** Empties the left-out tables in a fresh SQLite copy, then rewrites it so no freed page keeps their rows. */
function leaveOutSignIns(file: string) {
  const copy = new DatabaseSync(file);
  try {
    copy.exec("PRAGMA journal_mode = DELETE");
    const present = new Set(
      (copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    for (const table of TABLES_LEFT_OUT) if (present.has(table)) copy.exec(`DELETE FROM "${table}"`);
    copy.exec("VACUUM");
  } finally {
    copy.close();
  }
}

/** Writes a consistent copy of the configured database to `file` (which must not exist yet). */
export async function backupDatabase(cfg: AppConfig, file: string): Promise<BackupResult> {
  const started = Date.now();
  prepareTarget(file);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    if (cfg.databaseKind === "postgres") {
      // Created empty and owner-only first: pg_dump then writes into it without changing its mode.
      createOwnerOnlyFile(partial);
      const leftOut = TABLES_LEFT_OUT.map((table) => `--exclude-table-data=*.${table}`);
      await run("pg_dump", [
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        ...leftOut,
        `--file=${partial}`,
        `--dbname=${cfg.DATABASE_URL}`,
      ]);
    } else {
      if (!existsSync(cfg.SQLITE_PATH)) throw new BackupError(`no database at ${cfg.SQLITE_PATH}`);
      // VACUUM INTO writes into an empty file as into a new one, keeping its owner-only mode.
      createOwnerOnlyFile(partial);
      const source = new DatabaseSync(cfg.SQLITE_PATH, { readOnly: true });
      try {
        source.exec("PRAGMA busy_timeout = 10000");
        source.prepare("VACUUM INTO ?").run(partial);
      } finally {
        source.close();
      }
      leaveOutSignIns(partial);
    }
    protectFile(partial);
    // Only a finished backup gets the name asked for.
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { file, kind: cfg.databaseKind, bytes: statSync(file).size, ms: Date.now() - started };
}

/**
 * Restores `file` into the configured database. PostgreSQL: into the database DATABASE_URL
 * names (existing store tables are replaced). SQLite: the file at SQLITE_PATH is replaced whole;
 * stop the store first. The backup's kind must match the configured database.
 */
export async function restoreDatabase(cfg: AppConfig, file: string): Promise<{ kind: BackupKind; ms: number }> {
  const started = Date.now();
  if (!existsSync(file)) throw new BackupError(`no backup at ${file}`);
  const kind = backupKindOf(file);
  if (!kind)
    throw new BackupError(
      `${file} is not a store backup (neither an SQLite database nor a pg_dump custom-format file)`,
    );
  if (kind !== cfg.databaseKind) {
    throw new BackupError(
      `${file} is a ${kind === "sqlite" ? "SQLite" : "PostgreSQL"} backup, but the configured database is ${cfg.databaseKind === "sqlite" ? "SQLite" : "PostgreSQL"}`,
    );
  }
  if (kind === "postgres") {
    await run("pg_restore", [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--no-privileges",
      "--single-transaction",
      "--exit-on-error",
      `--dbname=${cfg.DATABASE_URL}`,
      file,
    ]);
    return { kind, ms: Date.now() - started };
  }
  const check = new DatabaseSync(file, { readOnly: true });
  try {
    const result = check.prepare("PRAGMA integrity_check").get() as { integrity_check: string };
    if (result.integrity_check !== "ok") throw new BackupError(`${file} is damaged: ${result.integrity_check}`);
  } finally {
    check.close();
  }
  const target = cfg.SQLITE_PATH;
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true, mode: OWNER_ONLY_DIR });
  const staged = `${target}.restoring`;
  rmSync(staged, { force: true });
  // The restored database is owner-only like the one the store creates.
  createOwnerOnlyFile(staged);
  const copy = new DatabaseSync(file, { readOnly: true });
  try {
    copy.prepare("VACUUM INTO ?").run(staged);
  } finally {
    copy.close();
  }
  // The old write-ahead log belongs to the old file; left in place it would be replayed onto the restored one.
  for (const suffix of ["-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
  protectFile(staged);
  renameSync(staged, target);
  return { kind, ms: Date.now() - started };
}
