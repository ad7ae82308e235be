/**
 * The store's own files are owner-only (issue 48): the SQLite database and its -wal/-shm, the
 * generated auth secret, the outbox's .eml files (which hold live sign-in links), uploads and
 * backups are 0600, their folders 0700.
 *
 * Two halves:
 * - new files: the process that opens the store's data sets its umask to 077 once
 *   (`ownerOnlyUmask`), so whatever it creates (an upload, an outbox mail, SQLite's -wal and -shm,
 *   which SQLite creates with the database file's own mode anyway) is owner-only; the writers
 *   that matter also pass the mode explicitly.
 * - files from older versions: `protectStoreFiles` tightens what already exists, once per
 *   process at start-up (getDb).
 *
 * A folder is tightened (and walked) only when it is the store's own (the outbox, the uploads,
 * backups/) and never the working directory, one of its parents or the filesystem root, whatever
 * OUTBOX_DIR or UPLOAD_DIR say. Symbolic links are left alone.
 */
import { chmodSync, closeSync, lstatSync, openSync, readdirSync, type Stats } from "node:fs";
import path from "node:path";
import { secretFilePath } from "../auth/secret.ts";
import type { AppConfig } from "../config.ts";

export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_DIR = 0o700;
/** The folder `npm run backup` writes to when no file is named (defaultBackupFile). */
export const DEFAULT_BACKUP_DIR = "backups";
/** The files SQLite keeps beside a database file. */
const SQLITE_SIDE_FILES = ["-wal", "-shm", "-journal"] as const;

/** Sets the process's umask to 077 (new files 0600, folders 0700); false where a process can't (a worker thread). */
function ownerOnlyUmask(): boolean {
  try {
    process.umask(0o077);
    return true;
  } catch {
    return false;
  }
}

function statOf(target: string): Stats | null {
  try {
    return lstatSync(target);
  } catch {
    return null;
  }
}

/** chmod to `mode` when group or others have any access; returns whether it changed. */
function tighten(target: string, stat: Stats, mode: number): boolean {
  if ((stat.mode & 0o077) === 0) return false;
  try {
    chmodSync(target, mode);
    return true;
  } catch {
    return false; // not ours (another owner): leave it, the store still runs
  }
}

/** Makes one file owner-only if it exists (not a link, not a folder). */
export function protectFile(file: string): boolean {
  const stat = statOf(file);
  return stat?.isFile() ? tighten(file, stat, OWNER_ONLY_FILE) : false;
}

/** Whether a folder may be tightened: it is not the working directory, one of its parents, or the root. */
export function isDedicatedFolder(dir: string, cwd = process.cwd()): boolean {
  const resolved = path.resolve(dir);
  if (resolved === path.parse(resolved).root) return false;
  const relative = path.relative(resolved, path.resolve(cwd));
  // cwd is inside (or is) the folder when the way from the folder to cwd does not go up.
  return relative.startsWith("..") || path.isAbsolute(relative);
}

/** A folder and everything below it: folders 0700, files 0600. Returns how many modes changed. */
export function protectFolder(dir: string): number {
  if (!isDedicatedFolder(dir)) return 0;
  const stat = statOf(dir);
  if (!stat?.isDirectory()) return 0;
  let changed = tighten(dir, stat, OWNER_ONLY_DIR) ? 1 : 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return changed;
  }
  for (const name of names) {
    const child = path.join(dir, name);
    const childStat = statOf(child);
    if (childStat?.isDirectory()) changed += protectFolder(child);
    else if (childStat?.isFile() && tighten(child, childStat, OWNER_ONLY_FILE)) changed++;
  }
  return changed;
}

/** Creates `file` empty and owner-only unless it exists (SQLite opens an empty file as a new database). */
export function createOwnerOnlyFile(file: string): void {
  try {
    closeSync(openSync(file, "wx", OWNER_ONLY_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/** The SQLite database file and the files SQLite keeps beside it. */
export function protectSqliteFiles(file: string): number {
  if (file === ":memory:" || file === "") return 0;
  return [file, ...SQLITE_SIDE_FILES.map((s) => `${file}${s}`)].filter((f) => protectFile(f)).length;
}

type StoreFileConfig = Pick<AppConfig, "SQLITE_PATH" | "OUTBOX_DIR" | "UPLOAD_DIR">;

/**
 * Start-up: every store file that already exists becomes owner-only — the SQLite database and its
 * side files, the generated auth secret, and the outbox, uploads and default backups folders
 * (walked whole). The data folder itself keeps its mode: other tools keep folders in it (the
 * fleet's nginx, running as another user, writes under data/fleet). Returns how many modes it changed.
 */
export function protectStoreFiles(cfg: StoreFileConfig, options: { backupDir?: string } = {}): number {
  let changed = 0;
  if (cfg.SQLITE_PATH !== ":memory:") {
    changed += protectSqliteFiles(cfg.SQLITE_PATH);
    if (protectFile(secretFilePath(cfg))) changed++;
  }
  for (const dir of [cfg.OUTBOX_DIR, cfg.UPLOAD_DIR, options.backupDir ?? DEFAULT_BACKUP_DIR])
    changed += protectFolder(dir);
  return changed;
}

let protectedOnce = false;

/** Once per process, before the store's data is opened: owner-only umask, then protectStoreFiles. */
export function protectStoreFilesOnce(cfg: StoreFileConfig): void {
  if (protectedOnce) return;
  protectedOnce = true;
  ownerOnlyUmask();
  protectStoreFiles(cfg);
}
