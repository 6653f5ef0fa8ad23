import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { chunksByRoute } from "./scripts/chunks-by-route";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 5173, strictPort: true },
  // Pre-bundle what the browser imports after hydration, so the dev server
  // doesn't discover it on the first visit and reload the page mid-login
  // (auth-js, realtime-js and two of @supabase/ssr's modules are imported by the
  // app's own browser client, app/lib/supabase.client.ts, on the first
  // signed-in page and board).
  // Server-only packages that route modules import are never loaded in the browser.
  optimizeDeps: {
    include: [
      "zod",
      "@supabase/ssr",
      "@supabase/ssr/dist/module/cookies",
      "@supabase/ssr/dist/module/version",
      "@supabase/supabase-js",
      "@supabase/auth-js",
      "@supabase/realtime-js",
    ],
    exclude: ["@remix-run/node", "ws", "on-headers"],
  },
  plugins: [
    requestScope(),
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
  // Browser chunks follow the routes (scripts/chunks-by-route.ts). Zod has its own chunk, named so the JS budget
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
 * The dev server's side of the app's request scope, as server.mjs is the
 * production server's (docs/decisions/0025-request-scope.md): every request
 * runs inside a scope of its own and leaves with the cookies it set, whatever
 * the app answered. The module is loaded through Vite, so this is the very
 * instance the app's modules use (and a change to it is picked up as theirs).
 */
function requestScope(): Plugin {
  const module = "/app/lib/request-scope.server.ts";
  return {
    name: "teamboard:request-scope",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        try {
          // a body declared longer than its route takes: 413, as server.mjs answers (app/lib/body-limits.server.ts)
          const limits = (await server.ssrLoadModule(
            "/app/lib/body-limits.server.ts",
          )) as typeof import("./app/lib/body-limits.server");
          const limit = limits.bodyLimitFor(new URL(req.url ?? "/", "http://localhost").pathname);
          if (Number(req.headers["content-length"] ?? 0) > limit.bytes) {
            res.statusCode = 413;
            res.setHeader("Connection", "close");
            res.setHeader("Content-Type", limit.json ? "application/json" : "text/html; charset=utf-8");
            return void res.end(
              limit.json ? JSON.stringify({ ok: false, message: limit.message }) : limits.tooLargePage(limit.message),
            );
          }
          const { serveInRequestScope } = (await server.ssrLoadModule(
            module,
          )) as typeof import("./app/lib/request-scope.server");
          serveInRequestScope(req, res, {}, next);
        } catch (error) {
          next(error);
        }
      });
    },
  };
}

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
