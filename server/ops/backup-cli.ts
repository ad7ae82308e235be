import { config } from "../config.ts";
import { backupDatabase, BackupError, defaultBackupFile, restoreDatabase } from "./backup.ts";

const USAGE = "Usage: npm run backup -- [<file>]   |   npm run restore -- <file>";

async function main() {
  const [command, file, ...rest] = process.argv.slice(2);
  if (
    rest.length ||
    (command !== "backup" && command !== "restore") ||
    (command === "restore" && !file) ||
    file?.startsWith("-")
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const cfg = config();
  if (command === "backup") {
    const result = await backupDatabase(cfg, file ?? defaultBackupFile(cfg.databaseKind));
    console.log(
      `Backed up the ${result.kind === "sqlite" ? "SQLite" : "PostgreSQL"} database to ${result.file} (${(result.bytes / 1024).toFixed(0)} KiB in ${result.ms} ms)`,
    );
  } else {
    const result = await restoreDatabase(cfg, file);
    console.log(
      `Restored ${file} into the ${result.kind === "sqlite" ? `SQLite database at ${cfg.SQLITE_PATH}` : "PostgreSQL database in DATABASE_URL"} in ${result.ms} ms`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError ? `${process.argv[2]}: ${error.message}` : error);
  process.exit(1);
});
