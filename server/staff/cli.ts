/**
 * Operator command for back-office accounts (honours DATABASE_URL / SQLITE_PATH like the seed,
 * and runs the migrations first):
 *
 *   npm run staff -- add --email <email> --password <password> --role admin|staff [--name <name>]
 *   npm run staff -- list
 *   npm run staff -- remove --email <email>
 *
 * `add` creates the account through Better Auth (which hashes the password) or, when the email
 * already has an account, gives it the role through the back office's own function
 * (grantStaffRole): a verified account keeps its password and its sessions end; an unverified one
 * loses its password, sessions and second factor and is mailed a set-password link. `remove` makes
 * the account a customer again and ends its sessions, never the last admin (removeStaffMember).
 * Each change writes an audit row whose actor is the operator (OPERATOR). Nothing printed
 * contains a password; `list` masks addresses.
 */
import { betterAuth } from "better-auth";
import { buildAuthOptions } from "../auth/auth.ts";
import { migrateAuth } from "../auth/migrate.ts";
import { UNGUARDED } from "../auth/sign-in-guard.ts";
import { config, type AppConfig } from "../config.ts";
import { getDb, type Db } from "../db/connection.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { isDomainError } from "../errors.ts";
import type { AuditActor } from "../audit/audit.ts";
import { maskEmail } from "../ops/log.ts";
import { addStaff, isStaffRole, listStaff, removeStaff, type StaffRole } from "./staff.ts";

/** The audit actor of this command: not an account, so a "system:" id (like the store's jobs). */
export const OPERATOR: AuditActor = { userId: "system:staff-cli", name: "Store operator" };

export const USAGE =
  "Usage: npm run staff -- add --email <email> --password <password> --role admin|staff [--name <name>] | list | remove --email <email>";

export type StaffCommand =
  | { command: "add"; email: string; password?: string; role: StaffRole; name?: string }
  | { command: "list" }
  | { command: "remove"; email: string }
  | { command: "help" };

export class UsageError extends Error {}

const FLAGS: Record<string, readonly string[]> = {
  add: ["email", "password", "role", "name"],
  list: [],
  remove: ["email"],
};

/** Parses `<command> --flag value | --flag=value ...`; throws UsageError on anything else. */
export function parseStaffArgs(argv: readonly string[]): StaffCommand {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") return { command: "help" };
  if (!command) throw new UsageError("a command is needed: add, list or remove");
  const allowed = FLAGS[command];
  if (!allowed) throw new UsageError(`unknown command "${command}"`);
  const values: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const match = /^--([a-z]+)(?:=(.*))?$/s.exec(arg);
    if (!match || !allowed.includes(match[1]))
      throw new UsageError(`unknown argument "${match ? `--${match[1]}` : arg}" for ${command}`);
    const flag = match[1];
    let value = match[2];
    if (value === undefined) {
      value = rest[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${flag} needs a value`);
    }
    if (flag in values) throw new UsageError(`--${flag} is given twice`);
    values[flag] = value;
  }
  if (command === "list") return { command };
  if (!values.email?.trim()) throw new UsageError("--email is required");
  if (command === "remove") return { command, email: values.email };
  if (!values.role) throw new UsageError("--role is required (admin or staff)");
  if (!isStaffRole(values.role)) throw new UsageError(`--role must be admin or staff, got "${values.role}"`);
  return {
    command: "add",
    email: values.email,
    role: values.role,
    ...(values.password !== undefined ? { password: values.password } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
  };
}

export interface Output {
  line(text: string): void;
  error(text: string): void;
}

function sessionsText(n: number): string {
  return n === 0 ? "It had no open sessions." : `Its ${n} session${n === 1 ? " was" : "s were"} ended.`;
}

/** Runs one parsed command against a migrated database; returns the exit code. */
export async function runStaffCommand(db: Db, cfg: AppConfig, cmd: StaffCommand, out: Output): Promise<number> {
  try {
    if (cmd.command === "help") {
      out.line(USAGE);
      return 0;
    }
    if (cmd.command === "list") {
      const staff = await listStaff(db);
      if (staff.length === 0) {
        out.line(
          "No staff yet. Add the first admin with: npm run staff -- add --email <email> --password <password> --role admin",
        );
        return 0;
      }
      for (const m of staff) out.line(`${m.role.padEnd(6)} ${maskEmail(m.email)}  since ${m.createdAt.slice(0, 10)}`);
      out.line(`${staff.length} staff account${staff.length === 1 ? "" : "s"}`);
      return 0;
    }
    if (cmd.command === "remove") {
      const { previousRole, sessionsEnded } = await removeStaff(db, OPERATOR, cmd.email);
      out.line(
        `${cmd.email.trim()} is no longer ${previousRole}; the account stays, as a customer. ${sessionsText(sessionsEnded)}`,
      );
      return 0;
    }
    const auth = betterAuth(buildAuthOptions(db, cfg, UNGUARDED));
    const outcome = await addStaff(db, auth, cmd, { actor: OPERATOR, siteUrl: cfg.siteUrl });
    const who = cmd.email.trim();
    if (outcome.kind === "created") out.line(`Created ${who} as ${cmd.role}.`);
    else if (outcome.kind === "reclaimed") {
      out.line(
        `${who} was not verified: its password, sessions and second factor were removed and a set-password link was mailed. It is now ${cmd.role} (was ${outcome.previousRole}).`,
      );
      out.line(
        `The mail waits in the store's mail queue and goes out while the store runs.${cmd.password ? " --password was not used." : ""}`,
      );
    } else if (outcome.kind === "promoted") {
      out.line(
        `${who} was ${outcome.previousRole}, now ${cmd.role}. ${sessionsText(outcome.sessionsEnded)} They were told by email.`,
      );
      if (cmd.password)
        out.line("The address was verified, so the account keeps its own password: --password was not used.");
    } else out.line(`${who} is already ${cmd.role}; nothing changed.`);
    return 0;
  } catch (error) {
    if (isDomainError(error)) {
      out.error(`staff: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

async function main(): Promise<number> {
  let cmd: StaffCommand;
  try {
    cmd = parseStaffArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`staff: ${error.message}`);
    console.error(USAGE);
    return 2;
  }
  if (cmd.command === "help") {
    console.log(USAGE);
    return 0;
  }
  let cfg: AppConfig;
  try {
    // Rate limits are not used here: no Redis connection for a one-off command.
    cfg = { ...config(), REDIS_URL: undefined };
  } catch (error) {
    console.error(`staff: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const db = getDb(cfg);
  try {
    await migrateToLatest(db);
    await migrateAuth(db, cfg);
    return await runStaffCommand(db, cfg, cmd, { line: (t) => console.log(t), error: (t) => console.error(t) });
  } finally {
    await db.destroy();
  }
}

if (import.meta.main) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`staff failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
