import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // route modules import the app's own modules as ~/… (tests/routes calls them directly)
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: [
      "stack/**/*.test.ts",
      "app/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/routes/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker per core minus one: a single worker on a
    // 2-core machine, leaving a core idle while integration tests wait on the
    // stack. Two workers cut the suite's wall time (see README, "Tests").
    maxWorkers: 2,
  },
});
