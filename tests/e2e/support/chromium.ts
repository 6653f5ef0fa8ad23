/** Debian's Chromium (`apt-get install -y chromium`), as the e2e run and bench:web launch it. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

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
