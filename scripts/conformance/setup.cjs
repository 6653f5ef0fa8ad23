// Loaded by jest (--setupFilesAfterEnv) in every test file of a conformance
// run: counts the requests each test sends to the local stacks (by wrapping
// fetch) and appends the tests that sent any to a log, so the report can tell
// the tests that reach the server from the client-only ones.
/* global require, beforeEach, afterEach, expect -- a CommonJS file run by jest */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require("node:fs");

const stacks = (process.env.CONFORMANCE_STACK_URLS || "").split(",").filter(Boolean);
const logFile = process.env.CONFORMANCE_REQUEST_LOG;
let count = 0;

const original = globalThis.fetch;
if (typeof original === "function") {
  globalThis.fetch = function (input, init) {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input && input.url;
    if (url && stacks.some((s) => url.startsWith(s))) count++;
    return original.call(this, input, init);
  };
}

beforeEach(() => {
  count = 0;
});

afterEach(() => {
  if (count === 0 || !logFile) return;
  const { testPath, currentTestName } = expect.getState();
  fs.appendFileSync(logFile, JSON.stringify({ file: testPath, name: currentTestName }) + "\n");
});
