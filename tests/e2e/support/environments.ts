import path from "node:path";

/**
 * The e2e run's backends and apps: each app (the built app under server.mjs)
 * talks to its own fresh in-memory stack. `short` has access tokens that
 * expire after a few seconds, for the refresh tests; `down` points at a port
 * where nothing listens, for the "backend unreachable" pages.
 */
/** E2E_PORT_OFFSET=100 moves every port, so two checkouts can run their suites at once. */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);

export const ENVIRONMENTS = {
  main: { stackPort: 54350 + OFFSET, appPort: 4010 + OFFSET, jwtExpiry: 3600, backend: "stack" },
  down: { stackPort: 54359 + OFFSET, appPort: 4012 + OFFSET, jwtExpiry: 3600, backend: "none" },
  short: { stackPort: 54351 + OFFSET, appPort: 4011 + OFFSET, jwtExpiry: 4, backend: "stack" },
} as const;

export type EnvironmentName = keyof typeof ENVIRONMENTS;

export interface RunningEnvironment {
  appUrl: string;
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  inboxUrl: string;
  jwtExpiry: number;
}

/** Where start-env.ts writes the keys for the tests (the stacks make new keys each run). */
export const ENV_FILE = path.resolve(`.data/e2e/environments${OFFSET ? `-${OFFSET}` : ""}.json`);

export const appUrl = (name: EnvironmentName) => `http://127.0.0.1:${ENVIRONMENTS[name].appPort}`;
