/**
 * Runs supabase-js's Edge Functions suites against the local stack:
 *
 *   tsx scripts/conformance/functions.ts functions-js <supabase-js checkout>
 *   tsx scripts/conformance/functions.ts supabase-js <supabase-js checkout>
 *
 * (normally through scripts/conformance/<suite>.sh). Nothing in the checkout
 * is changed: its packages are copied to a temporary folder, where only server
 * addresses are rewritten, and where each test function gets a deno.json
 * mapping the URLs this machine cannot download (deno.land/std's http server
 * and assertions, esm.sh's supabase-js) to small local modules
 * (scripts/conformance/deno/) or to the project's node_modules — the way a
 * project maps a function's imports on the Supabase CLI.
 *
 * - functions-js: its jest suite. Each test file starts a docker "deno relay"
 *   for one function (test/relay/container.ts); here jest loads
 *   relay-stub.cjs instead, which asks this process for a stack serving that
 *   function with the test's JWT secret; the tests' relay base URL gains
 *   /functions/v1. Tests that expect the relay itself fail and are counted.
 * - supabase-js: its Node integration suite (jest, test/integration.test.ts,
 *   the workspace packages from the checkout's sources) and its Deno tests
 *   (test/deno/*.test.ts: integration, edge functions, CORS), against one stack
 *   set up from the package's supabase/ folder (migrations, config.toml,
 *   functions) with the CLI's JWT secret.
 *
 * A test "reaches the server" when it sent a request to a stack (jest: counted
 * by setup.cjs; Deno: every test file here calls the stack). The closing line,
 * `N passed, N failed`, counts those tests, Deno's steps each as one test.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configFromEnv } from "../../stack/config-load.ts";
import { startStack, type RunningStack } from "../../stack/server.ts";
import {
  add,
  copyCheckout,
  ensureDeps,
  mapFunctionImports,
  rewrite,
  runDenoTests,
  runJest,
  stackOptions,
  type Counts,
} from "./harness.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(here, "../..");
const [suiteName, checkoutArg] = process.argv.slice(2);
if (!["functions-js", "supabase-js"].includes(suiteName) || !checkoutArg) {
  console.error("usage: functions.ts functions-js|supabase-js <path of a supabase-js checkout>");
  process.exit(2);
}
const checkout = path.resolve(checkoutArg);
if (!fs.existsSync(path.join(checkout, "packages/core", suiteName, "package.json"))) {
  console.error(`${checkout} is not a supabase-js checkout (no packages/core/${suiteName}/package.json)`);
  process.exit(2);
}

/** The CLI's local JWT secret: the suites' demo keys are signed with it. */
const CLI_JWT_SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";
const STD_SERVER = (version: string) => `https://deno.land/std${version}/http/server.ts`;

/** functions-js: a stack per relay the tests ask for, through a small control server. */
async function functionsJs(work: string): Promise<Counts> {
  const pkgDir = path.join(work, "packages/core/functions-js");
  const functionsDir = path.join(pkgDir, "test/functions");
  mapFunctionImports(
    functionsDir,
    { [STD_SERVER("")]: "../_shims/std-http-server.ts" },
    { "std-http-server.ts": path.join(here, "deno/std-http-server.ts") },
  );
  const relayBase = "`http://localhost:${relay.container.getMappedPort(8081)}";
  rewrite(path.join(pkgDir, "test"), { [relayBase]: `${relayBase}/functions/v1` });

  const relays = new Map<string, RunningStack>();
  let next = 0;
  const control = http.createServer((req, res) => {
    void (async () => {
      try {
        if (req.method === "POST" && req.url === "/relays") {
          const chunks: Buffer[] = [];
          for await (const c of req) chunks.push(c as Buffer);
          const { slug, jwtSecret } = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>;
          const stack = await startStack(
            stackOptions({
              ...configFromEnv({ GOTRUE_JWT_SECRET: jwtSecret }),
              functions: { dir: functionsDir, configFile: path.join(work, "no-config.toml") },
            }),
          );
          const id = `${slug}-${++next}`;
          relays.set(id, stack);
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ id, port: Number(new URL(stack.url).port) }));
        } else if (req.method === "DELETE" && req.url?.startsWith("/relays/")) {
          const id = req.url.slice("/relays/".length);
          await relays.get(id)?.close();
          relays.delete(id);
          res.writeHead(204).end();
        } else res.writeHead(404).end();
      } catch (error) {
        res.writeHead(500).end(String((error as Error).stack ?? error));
      }
    })();
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as { port: number }).port}`;
  try {
    return await runJest(
      pkgDir,
      [
        "--config",
        "jest.config.ts",
        "--moduleNameMapper",
        JSON.stringify({ "^\\.\\./relay/container$": path.join(here, "relay-stub.cjs") }),
      ],
      ["http://localhost:", "http://127.0.0.1:"].filter((p) => !controlUrl.startsWith(p)),
      { CONFORMANCE_RELAY_CONTROL: controlUrl },
    );
  } finally {
    for (const stack of relays.values()) await stack.close().catch(() => {});
    control.close();
  }
}

/** supabase-js: its Node integration suite and Deno tests against one stack set up from its supabase/ folder. */
async function supabaseJs(work: string): Promise<Counts> {
  const pkgDir = path.join(work, "packages/core/supabase-js");
  const supabaseDir = path.join(pkgDir, "supabase");
  mapFunctionImports(
    path.join(supabaseDir, "functions"),
    {
      [STD_SERVER("@0.168.0")]: "../_shims/std-http-server.ts",
      "@supabase/supabase-js/cors": "../_shims/cors.ts",
      "@supabase/supabase-js": "npm:@supabase/supabase-js@^2",
    },
    {
      "std-http-server.ts": path.join(here, "deno/std-http-server.ts"),
      // the checkout's own CORS helper (it imports nothing)
      "cors.ts": path.join(pkgDir, "src/cors.ts"),
    },
  );
  const stack = await startStack(
    stackOptions({
      ...configFromEnv({
        GOTRUE_JWT_SECRET: CLI_JWT_SECRET,
        GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
        GOTRUE_SITE_URL: "http://localhost:5173",
        GOTRUE_MAILER_AUTOCONFIRM: "true",
      }),
      migrationsDir: path.join(supabaseDir, "migrations"),
      functions: { dir: path.join(supabaseDir, "functions"), configFile: path.join(supabaseDir, "config.toml") },
    }),
  );
  try {
    const url = "http://127.0.0.1:54321";
    rewrite(path.join(pkgDir, "test"), { [url]: stack.url });
    const workspace = (name: string) => path.join(work, "packages/core", name, "src/index.ts");
    const node = await runJest(
      pkgDir,
      [
        "test/integration.test.ts",
        "--config",
        "jest.config.ts",
        "--moduleNameMapper",
        JSON.stringify({
          "^@supabase/(auth-js|functions-js|postgrest-js|realtime-js|storage-js)$": workspace("$1"),
          "^@supabase/tracing$": path.join(work, "packages/shared/tracing/src/index.ts"),
        }),
        // last: an array option takes the arguments after it
        "--setupFiles",
        path.join(here, "node-websocket.cjs"),
      ],
      [stack.url],
    );
    const denoDir = path.join(pkgDir, "test/deno");
    const importMap = path.join(work, "deno-tests-import-map.json");
    fs.copyFileSync(path.join(here, "deno/std-assert.ts"), path.join(work, "std-assert.ts"));
    fs.writeFileSync(
      importMap,
      JSON.stringify({
        imports: {
          "https://deno.land/std@0.220.1/assert/mod.ts": "./std-assert.ts",
          "@supabase/supabase-js": "npm:@supabase/supabase-js@^2",
        },
      }),
    );
    const files = fs
      .readdirSync(denoDir)
      .filter((f) => f.endsWith(".test.ts"))
      .sort()
      .map((f) => path.join(denoDir, f));
    const deno = await runDenoTests(project, files, importMap, path.join(work, "deno-cache"), pkgDir);
    return add(node, deno);
  } finally {
    await stack.close();
  }
}

async function main() {
  ensureDeps();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `conformance-${suiteName}-`));
  copyCheckout(checkout, work);
  fs.writeFileSync(path.join(work, "no-config.toml"), "");
  try {
    const t = suiteName === "functions-js" ? await functionsJs(work) : await supabaseJs(work);
    console.log(`\nall tests: ${t.passed} passed, ${t.failed} failed`);
    console.log(`tests that reach the server (${suiteName}):`);
    console.log(`${t.serverPassed} passed, ${t.serverFailed} failed`);
  } finally {
    if (!process.env.CONFORMANCE_KEEP) fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
