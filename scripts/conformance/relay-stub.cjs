// Loaded by jest in place of functions-js's test/relay/container.ts (the
// suite starts a docker "deno relay" per test file; there is no docker here).
// runRelay asks the conformance runner (scripts/conformance/functions.ts) for
// a local stack that serves the suite's function with the test's JWT secret,
// and hands back an object shaped as the tests use a Relay: the stack's port
// as the container's mapped port. Nothing of the relay's own behaviour is
// imitated: what differs is counted as a failure.
/* global module -- a CommonJS file run by jest */

const control = process.env.CONFORMANCE_RELAY_CONTROL;

async function runRelay(slug, jwtSecret) {
  const res = await fetch(`${control}/relays`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ slug, jwtSecret }),
  });
  if (!res.ok) throw new Error(`the runner could not start a stack for ${slug}: ${await res.text()}`);
  const { id, port } = await res.json();
  return {
    id,
    container: { getMappedPort: () => port },
    async stop() {
      await fetch(`${control}/relays/${id}`, { method: "DELETE" });
    },
  };
}

class Relay {}

module.exports = { runRelay, Relay };
