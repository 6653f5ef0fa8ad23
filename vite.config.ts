import fs from "node:fs";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin, type Rollup } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 5173, strictPort: true },
  // Pre-bundle what the browser imports after hydration, so the dev server
  // doesn't discover it on the first visit and reload the page mid-login.
  // Server-only packages that route modules import are never loaded in the browser.
  optimizeDeps: {
    include: ["zod", "@supabase/ssr", "@supabase/supabase-js"],
    exclude: ["@remix-run/node", "ws"],
  },
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
    leaveOutUnusedAuthJs(),
  ],
  // Browser chunks follow the routes (chunksByRoute below). Zod has its own chunk, named so the JS budget
  // e2e (js-budget.spec.ts) can tell it apart: it comes with a form's schemas when someone starts on the
  // form, never with a page.
  // Terser, not esbuild, minifies the browser build: about 4% fewer gzip bytes on every page (issue 16,
  // docs/decisions/0021-browser-weight.md), for a few more seconds of build.
  build: isSsrBuild
    ? {}
    : {
        minify: "terser",
        terserOptions: { module: true, compress: { passes: 2 } },
        rollupOptions: {
          output: {
            manualChunks: chunksByRoute(path.resolve(import.meta.dirname, "app")),
          },
        },
      },
}));

/**
 * The browser build's auth-js without its passkey and Ethereum modules, which
 * the browser never runs: app/lib/auth-js-unused.ts stands in for both (~2.9 KiB
 * Brotli on every page). Build only, browser only: the dev server and the
 * server build keep auth-js whole. Stops the build if auth-js stops importing
 * either module, so an upgrade can't leave this silently doing nothing.
 */
function leaveOutUnusedAuthJs(): Plugin {
  const replaced = [
    /[\\/]auth-js[\\/]dist[\\/]module[\\/]lib[\\/]webauthn\.js$/,
    /[\\/]auth-js[\\/]dist[\\/]module[\\/]lib[\\/]web3[\\/]ethereum\.js$/,
  ];
  const standIn = path.resolve(import.meta.dirname, "app/lib/auth-js-unused.ts");
  const seen = new Set<number>();
  return {
    name: "teamboard:leave-out-unused-auth-js",
    enforce: "pre",
    apply: (_config, env) => env.command === "build" && !env.isSsrBuild,
    async resolveId(source, importer, options) {
      if (!importer || !/[\\/]@supabase[\\/]auth-js[\\/]/.test(importer)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const index = resolved ? replaced.findIndex((pattern) => pattern.test(resolved.id)) : -1;
      if (index === -1) return null;
      seen.add(index);
      return standIn;
    },
    buildEnd(error) {
      if (!error && seen.size !== replaced.length)
        this.error(
          `auth-js no longer imports ${replaced.filter((_, i) => !seen.has(i)).join(", ")}: update leaveOutUnusedAuthJs`,
        );
    },
  };
}

/**
 * Fewer, whole files for each page (issue 16, docs/decisions/0021-browser-weight.md). Left to itself,
 * Rollup gives every set of route modules that share code a chunk of its own: the task page fetched
 * 20 scripts before its first paint, some of them under 200 bytes. Each is a request (on HTTP/1.1, six
 * at a time, a round trip each) and a separate compression window. Here a module goes into the chunk
 * of a route that is sure to be loaded wherever the module is needed:
 *
 * - everything the root route and entry.client import (React, Remix, the header): every page loads
 *   them, so they are one file with entry.client (root's own file just re-exports from it);
 * - a module that a layout route imports itself, and that only that route and routes under it
 *   import, goes into the layout's file: every page that needs the module has loaded the layout.
 *
 * Anything else (code that sibling routes share but their parent doesn't use) is left to Rollup, so
 * no page fetches code that none of its routes import. Code loaded with `import()` (the backend
 * client, Realtime, form schemas) keeps its own chunks: it is only followed through static imports.
 * Route parents follow Remix's flat-route names (`teams.$team` is the parent of `teams.$team.members`,
 * `login_.mfa` has none but root); the build stops if a route file is not a flat one.
 */
function chunksByRoute(appDirectory: string): Rollup.GetManualChunk {
  const CLIENT_ROUTE = "?__remix-build-client-route";
  let chunkOf: Map<string, string> | undefined;
  return (id, { getModuleInfo, getModuleIds }) => {
    if (/[\\/]node_modules[\\/]zod[\\/]/.test(id)) return "zod";
    chunkOf ??= assignChunks(getModuleInfo, [...getModuleIds()]);
    return chunkOf.get(id);
  };

  function assignChunks(getModuleInfo: Rollup.GetModuleInfo, moduleIds: string[]): Map<string, string> {
    const routesDirectory = path.join(appDirectory, "routes");
    const routeFiles = fs.readdirSync(routesDirectory, { withFileTypes: true }).map((entry) => {
      if (!entry.isFile()) throw new Error(`chunksByRoute: app/routes/${entry.name} is not a flat route file`);
      return entry.name;
    });
    const routeIds = routeFiles.map((file) => file.replace(/\.[jt]sx?$/, ""));
    const parentOf = (routeId: string) =>
      routeIds.filter((other) => routeId.startsWith(`${other}.`)).sort((a, b) => b.length - a.length)[0] ?? "root";
    const shell = "root";
    const entries = new Map<string, string>(); // entry module id -> route id ("root" for the shell)
    entries.set(path.join(appDirectory, "entry.client.tsx"), shell);
    entries.set(path.join(appDirectory, `root.tsx${CLIENT_ROUTE}`), shell);
    routeFiles.forEach((file, i) => entries.set(path.join(routesDirectory, `${file}${CLIENT_ROUTE}`), routeIds[i]));
    const known = new Set(moduleIds);
    for (const entry of entries.keys())
      if (!known.has(entry)) throw new Error(`chunksByRoute: no module ${entry} in the browser build`);

    // which routes import each module (statically, directly or through other modules)
    const importers = new Map<string, Set<string>>();
    for (const [entry, routeId] of entries) {
      const seen = new Set<string>();
      const stack = [entry];
      while (stack.length) {
        const id = stack.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        if (!importers.has(id)) importers.set(id, new Set());
        importers.get(id)!.add(routeId);
        stack.push(...(getModuleInfo(id)?.importedIds ?? []));
      }
    }
    const ancestorsOf = (routeId: string) => {
      const chain = [routeId];
      while (chain[chain.length - 1] !== shell) chain.push(parentOf(chain[chain.length - 1]));
      return chain;
    };
    const chunkOf = new Map<string, string>();
    // modules that sibling routes share and no ancestor of theirs imports: one chunk per set of routes,
    // as Rollup would make it (every module is named here: Rollup would pull an unnamed one into the
    // first named chunk that imports it), called after its first module ("form", "task-panel")
    const shared = new Map<string, string[]>();
    for (const [id, routes] of [...importers].sort(([a], [b]) => a.localeCompare(b))) {
      // the deepest route that imports the module and is an ancestor (or the route itself) of every route that does
      const owner = ancestorsOf([...routes][0]).find(
        (candidate) => routes.has(candidate) && [...routes].every((route) => ancestorsOf(route).includes(candidate)),
      );
      if (owner) chunkOf.set(id, owner === shell ? "entry.client" : owner);
      else {
        const key = [...routes].sort().join(" ");
        shared.set(key, [...(shared.get(key) ?? []), id]);
      }
    }
    for (const ids of shared.values()) {
      const name = path.basename(ids[0].replace(/\?.*$/, "")).replace(/\.[^.]+$/, "");
      for (const id of ids) chunkOf.set(id, name);
    }
    return chunkOf;
  }
}
