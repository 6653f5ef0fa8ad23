import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from "./tests/e2e/support/chromium";
import { appUrl, ENVIRONMENTS } from "./tests/e2e/support/environments";

/**
 * End-to-end tests in Debian's Chromium against the BUILT app and fresh local
 * stacks (tests/e2e/support/start-env.ts). Lean on purpose: the machine is
 * shared, so two workers, no retries, no fixed waits.
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  workers: 2,
  retries: 0,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: appUrl("main"),
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: E2E_CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // npm test builds while its PostgreSQL pass runs and says so with E2E_PREBUILT
    command: `${process.env.E2E_PREBUILT ? "" : "npm run build --silent && "}node_modules/.bin/tsx tests/e2e/support/start-env.ts`,
    url: `${appUrl("short")}/favicon.svg`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
  metadata: { environments: ENVIRONMENTS },
});
