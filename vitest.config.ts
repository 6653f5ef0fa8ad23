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
  },
});
