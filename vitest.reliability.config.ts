import { defineConfig } from "vitest/config";

/**
 * The reliability suite (tests/reliability/): fuzzing, double submits and crash recovery against
 * the production build, each test file with its own freshly started store. `npm test` runs it
 * after the build; alone: `npx vitest run --config vitest.reliability.config.ts`.
 */
export default defineConfig({
  test: {
    include: ["tests/reliability/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
