// `npm test`: every check, in four rounds; the stages of a round run side by side and a round
// starts when the one before it has passed.
//   1. unit and integration tests (Vitest, SQLite and — when TEST_DATABASE_URL is set — PostgreSQL)
//   2. a production build
//   3. against that build the reliability suite | the fleet tests | the linters (scripts/lint.mjs)
//   4. the end-to-end suite in Chromium (Playwright)
// A stage that runs beside another writes to .tmp/test-logs/<stage>.log, printed when it ends.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const tmp = path.join(root, ".tmp");
const logs = path.join(tmp, "test-logs");
mkdirSync(logs, { recursive: true });
const env = { ...process.env, TMPDIR: tmp };
if (!env.TEST_DATABASE_URL) {
  console.warn("TEST_DATABASE_URL is not set: the PostgreSQL integration suite is skipped (CI sets it).");
}

const bin = (p) => path.join(root, "node_modules", p);
const vitest = bin("vitest/vitest.mjs");
const rounds = [
  [{ title: "Unit and integration tests", args: [vitest, "run"] }],
  [{ title: "Production build", args: [bin("@react-router/dev/bin.cjs"), "build"], env: { NODE_ENV: "production" } }],
  // The reliability suite spends much of its time waiting (a killed store restarting, Stripe's
  // retries), so the fleet tests and the linters use the cores beside it.
  [
    // Fuzzing, double submits and kill -9 during checkout, on SQLite and PostgreSQL (tests/reliability/).
    {
      title: "Reliability tests (fuzz, double submit, crash)",
      args: [vitest, "run", "--config", "vitest.reliability.config.ts"],
    },
    // Three instances behind nginx on PostgreSQL and a private Redis (tests/fleet/).
    { title: "Fleet tests (3 instances behind nginx)", args: [vitest, "run", "--config", "vitest.fleet.config.ts"] },
    { title: "Lint (types, ESLint, Prettier, knip, copies)", args: [path.join(root, "scripts/lint.mjs")] },
  ],
  [{ title: "End-to-end tests (Chromium)", args: [bin("@playwright/test/cli.js"), "test"] }],
];

const started = Date.now();
const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const running = new Set();

function run(stage, alone) {
  const logPath = path.join(logs, `${stage.title.split(" ")[0].toLowerCase()}.log`);
  console.log(`\n▶ ${stage.title}${alone ? "" : ` (output: ${path.relative(root, logPath)})`}`);
  const stageStarted = Date.now();
  const child = spawn(process.execPath, stage.args, {
    cwd: root,
    env: { ...env, ...stage.env },
    stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  if (!alone) {
    const log = createWriteStream(logPath);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      running.delete(child);
      if (!alone) console.log(`\n── ${stage.title} ──\n${readFileSync(logPath, "utf8")}`);
      console.log(`⏱ ${stage.title}: ${seconds(Date.now() - stageStarted)} (${seconds(Date.now() - started)} so far)`);
      resolve({ stage, ok: code === 0, code: code ?? (signal ? 1 : 0) });
    });
  });
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(1);
  });
}

for (const round of rounds) {
  const results = await Promise.all(round.map((stage) => run(stage, round.length === 1)));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) {
    for (const { stage } of failed) console.error(`✖ ${stage.title} failed`);
    process.exit(failed[0].code || 1);
  }
}
console.log(`\n✔ Every stage passed in ${seconds(Date.now() - started)}`);
