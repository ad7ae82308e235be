import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${PORT}`;
/** A second store started with the default (unset) configuration. */
export const DEFAULTS_PORT = PORT + 50;
/** The store on PostgreSQL (when TEST_DATABASE_URL is set): specs where the data layer differs. */
export const POSTGRES_PORT = PORT + 70;

/**
 * Nothing is retried: a test that fails once fails the run. A test found flaky is fixed, or put here
 * by its full title with the reason and the issue that tracks it, and skipped until it is fixed.
 */
const QUARANTINE: { title: string; reason: string }[] = [];
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: `.tmp/test-results-${PORT}`,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  grepInvert: QUARANTINE.length ? new RegExp(QUARANTINE.map((q) => escapeRegExp(q.title)).join("|")) : undefined,
  reporter: [["list"]],
  // Two workers, three stores, mail, OIDC and Stripe stand-ins share two cores: a sign-in flow can take 20 s there.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    // DOM snapshots explain a failure; a screencast of every test costs more CPU than two cores can spare.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "node scripts/e2e-server.mjs",
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { PORT: String(PORT), E2E: "1" },
    },
    {
      // The store as a newcomer runs it: no SITE_URL, AUTH_SECRET or trusted origins set (tests/e2e/defaults/).
      command: "node scripts/e2e-server.mjs --defaults",
      url: `http://127.0.0.1:${DEFAULTS_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { PORT: String(DEFAULTS_PORT), E2E: "1" },
    },
    ...(process.env.TEST_DATABASE_URL
      ? [
          {
            command: "node scripts/e2e-server.mjs --postgres",
            url: `http://127.0.0.1:${POSTGRES_PORT}/healthz`,
            reuseExistingServer: false,
            timeout: 120_000,
            // SIGTERM (not Playwright's default SIGKILL) lets it drop its database on the way out.
            gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
            env: { PORT: String(POSTGRES_PORT), E2E: "1" },
          },
        ]
      : []),
  ],
});
