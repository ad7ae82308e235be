import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // Two files at a time: most of a file's time is spent waiting (servers, mail, timers), not
    // computing. Each worker has its own PostgreSQL database (tests/integration/global-setup.ts).
    maxWorkers: 2,
    globalSetup: ["tests/integration/global-setup.ts"],
    testTimeout: 30_000,
    // Nothing is retried, in CI or here: a test that fails once fails the run.
    retry: 0,
  },
});
