// `npm start`: build the app when the build is missing or older than its sources, then serve it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const builtEntry = path.join(root, "build/server/index.js");
const sources = [
  "app",
  "server",
  "package.json",
  "vite.config.ts",
  "vite.server-external.ts",
  "react-router.config.ts",
];
// A build from before the server build imported server/ from source (decision 0041) holds its own
// copy of server/: rebuild it.
const bundlesServer = () => /\/\/ server\/[\w/-]+\.ts\b/.test(readFileSync(builtEntry, "utf8"));

function newestMtime(target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((max, name) => Math.max(max, newestMtime(path.join(target, name))), stat.mtimeMs);
}

function run(args, env = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const needsBuild =
  !existsSync(builtEntry) || statSync(builtEntry).mtimeMs < Math.max(...sources.map(newestMtime)) || bundlesServer();
if (needsBuild) {
  console.log("Building the store…");
  run([path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], { NODE_ENV: "production" });
}
run([path.join(root, "server/http/main.ts")], { NODE_ENV: process.env.NODE_ENV ?? "production" });
