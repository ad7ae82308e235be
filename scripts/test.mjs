// `npm test`: unit and integration tests (Vitest, SQLite and — when TEST_DATABASE_URL is set —
// PostgreSQL), then a production build, the reliability suite and the fleet tests against it, then
// the end-to-end suite in Chromium (Playwright).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const tmp = path.join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const env = { ...process.env, TMPDIR: tmp };
if (!env.TEST_DATABASE_URL) {
  console.warn("TEST_DATABASE_URL is not set: the PostgreSQL integration suite is skipped (CI sets it).");
}

const started = Date.now();
function step(title, args, extraEnv = {}) {
  console.log(`\n▶ ${title}`);
  const stepStarted = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  const seconds = (ms) => `${Math.round(ms / 1000)} s`;
  console.log(`⏱ ${title}: ${seconds(Date.now() - stepStarted)} (${seconds(Date.now() - started)} so far)`);
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

const bin = (p) => path.join(root, "node_modules", p);
step("Unit and integration tests", [bin("vitest/vitest.mjs"), "run"]);
step("Production build", [bin("@react-router/dev/bin.cjs"), "build"], { NODE_ENV: "production" });
// Against that build (build/, or BUILD_DIR when set): fuzzing, double submits and kill -9 during
// checkout, on SQLite and — with TEST_DATABASE_URL — PostgreSQL (tests/reliability/).
step("Reliability tests (fuzz, double submit, crash)", [
  bin("vitest/vitest.mjs"),
  "run",
  "--config",
  "vitest.reliability.config.ts",
]);
// Three instances of that build behind nginx on PostgreSQL (a fresh database next to
// TEST_DATABASE_URL) and a private Redis: sessions, limits, oversell, restarts, kill -9 (tests/fleet/).
step("Fleet tests (3 instances behind nginx)", [bin("vitest/vitest.mjs"), "run", "--config", "vitest.fleet.config.ts"]);
step("End-to-end tests (Chromium)", [bin("@playwright/test/cli.js"), "test"]);
