// The e2e run's ports before E2E_PORT_OFFSET moves them (tests/e2e/support/environments.ts).
// Plain JavaScript so that `npm test` (scripts/test.mjs) can check them before Playwright starts.

/** Each environment's stack and app port; a stack also takes its port + 4 (SMTP). */
export const E2E_BASE_PORTS = {
  main: { stack: 54350, app: 4010 },
  short: { stack: 54351, app: 4011 },
  down: { stack: 54359, app: 4012 },
};

/** Every port the e2e run listens on (or, for `down`, needs silent) at `offset`. */
export function e2ePorts(offset = 0) {
  return Object.values(E2E_BASE_PORTS).flatMap(({ stack, app }) => [stack, stack + 4, app].map((p) => p + offset));
}
