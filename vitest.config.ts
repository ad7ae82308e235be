import { globSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const TEST_FILES = ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"];

/**
 * What makes a test file change the process it runs in: module mocks, environment variables, or
 * the process-wide HTTP app (its config, auth and in-memory rate limits are read once per process),
 * imported from server/http/ or started through the store-app and auth harnesses.
 * Such a file gets modules of its own; every other file shares its worker's modules with the files
 * before it, which saves loading the server for each file again (docs/decisions/0046-shared-test-modules-and-no-request-routing.md).
 */
const CHANGES_THE_PROCESS =
  /vi\.(mock|doMock|stubEnv|stubGlobal)\(|process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|server\/http\/|serveStoreApp|startAuthApp/;

const ownModules = TEST_FILES.flatMap((pattern) => globSync(pattern)).filter((file) =>
  CHANGES_THE_PROCESS.test(readFileSync(file, "utf8")),
);

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    // Two files at a time: most of a file's time is spent waiting (servers, mail, timers), not
    // computing. Each worker has its own PostgreSQL database (tests/integration/global-setup.ts).
    maxWorkers: 2,
    globalSetup: ["tests/integration/global-setup.ts"],
    // Fast password hashing for the Better Auth instances tests build (scrypt stays in auth.test.ts).
    setupFiles: ["tests/integration/fast-password-hashing.ts"],
    testTimeout: 30_000,
    // Nothing is retried, in CI or here: a test that fails once fails the run.
    retry: 0,
    projects: [
      { extends: true, test: { name: "own modules", include: ownModules, isolate: true } },
      { extends: true, test: { name: "shared modules", include: TEST_FILES, exclude: ownModules, isolate: false } },
    ],
  },
});
