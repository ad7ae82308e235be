import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${PORT}`;
/** A second store started with the default (unset) configuration. */
export const DEFAULTS_PORT = PORT + 50;
/** The store on PostgreSQL (when TEST_DATABASE_URL is set): specs where the data layer differs. */
export const POSTGRES_PORT = PORT + 70;
/**
 * Debian's headless shell (package chromium-headless-shell): the same Chromium build without the
 * desktop browser around it, what Playwright itself runs headless. It takes about half the CPU of
 * `/usr/bin/chromium --headless` (docs/decisions/0043-e2e-in-the-headless-shell.md);
 * E2E_CHROMIUM=/usr/bin/chromium runs the suite in the full browser.
 */
const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium-headless-shell";

/**
 * Nothing is retried: a test that fails once fails the run. A test found flaky is fixed, or put here
 * by its full title with the reason and the issue that tracks it, and skipped until it is fixed.
 */
const QUARANTINE: { title: string; reason: string }[] = [
  {
    title: "footer About Us and Contact Us work in the browser",
    reason:
      "CI-9 (5d07811): the click on Contact Us on /about waited 60 s for a stable link; cause not found. " +
      "Not reproduced in 61 loaded runs of its steps (CPU hogs; 20-30x CPU throttling) nor with 3 s delays on " +
      "/visitor, .data, .css, the logos or the route chunks; /about has no animation, its logos keep their 160x64 size, the " +
      "redirect stays in the document, and the scroll to the top is one instant jump. Issue 50 tracks it; to learn " +
      "more, run it under CI's load with E2E_TRACE=retain-on-failure.",
  },
];
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
    // Recording a trace costs about a tenth of the suite's time on two cores; to debug a failure, re-run
    // it with `--trace retain-on-failure` (or E2E_TRACE=retain-on-failure).
    trace: (process.env.E2E_TRACE as "off" | "retain-on-failure" | undefined) ?? "off",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // Hermetic: only the machine's own stores, mail, OIDC and Stripe stand-ins answer.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
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
