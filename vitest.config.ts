import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["stack/**/*.test.ts", "app/**/*.test.ts", "tests/integration/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
