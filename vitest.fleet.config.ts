import { defineConfig } from "vitest/config";

/**
 * The fleet suite (tests/fleet/): three instances of the production build behind nginx, on
 * PostgreSQL (a fresh database next to TEST_DATABASE_URL) and a private Redis. Skipped without
 * TEST_DATABASE_URL or nginx. `npm test` runs it after the build; alone:
 * `npx vitest run --config vitest.fleet.config.ts`.
 */
export default defineConfig({
  test: {
    include: ["tests/fleet/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
