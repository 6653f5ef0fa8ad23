import path from "node:path";
import { E2E_BASE_PORTS as BASE } from "./ports.mjs";

/**
 * The e2e run's backends and apps: each app (the built app under server.mjs)
 * talks to its own fresh in-memory stack. `short` has access tokens that
 * expire after a few seconds, for the refresh tests; `down` points at a port
 * where nothing listens, for the "backend unreachable" pages.
 */
/**
 * E2E_PORT_OFFSET=100 moves every port, so two checkouts can run their suites
 * at once; `npm test` picks a free offset itself when the ports are taken.
 */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);

export const ENVIRONMENTS = {
  main: { stackPort: BASE.main.stack + OFFSET, appPort: BASE.main.app + OFFSET, jwtExpiry: 3600, backend: "stack" },
  down: { stackPort: BASE.down.stack + OFFSET, appPort: BASE.down.app + OFFSET, jwtExpiry: 3600, backend: "none" },
  short: { stackPort: BASE.short.stack + OFFSET, appPort: BASE.short.app + OFFSET, jwtExpiry: 4, backend: "stack" },
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
