// Starts the built store on a fresh SQLite database for the end-to-end suite.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const port = process.env.PORT ?? "3100";
const dir = path.join(root, ".tmp", `e2e-${port}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const child = spawn(process.execPath, [path.join(root, "server/http/main.ts")], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    SQLITE_PATH: path.join(dir, "store.db"),
    SITE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
