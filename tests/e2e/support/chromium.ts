/** Debian's Chromium (`apt-get install -y chromium`): the full browser, as bench:web runs Lighthouse in it. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * The e2e run's browser: Debian's build of Chromium's headless shell
 * (`apt-get install -y chromium-headless-shell`, same source and version as
 * the `chromium` package), which is what Playwright's own `headless: true`
 * runs. The full browser's headless mode costs about twice the CPU per new
 * page and navigation on this 2-core machine (docs/decisions/0005).
 * `E2E_CHROMIUM=/usr/bin/chromium npm test -- e2e` runs the suite in the
 * full browser instead.
 */
export const E2E_CHROMIUM_PATH = process.env.E2E_CHROMIUM || "/usr/bin/chromium-headless-shell";

/** Closed network: nothing in the background may try to reach the internet. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
