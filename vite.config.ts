import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
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
  ],
  // Browser chunks named for what they hold, so the JS budget e2e (js-budget.spec.ts) can tell them apart:
  // Zod comes with a form's schemas when someone starts on the form, never with a page.
  // Terser, not esbuild, minifies the browser build: about 4% fewer gzip bytes on every page (issue 16,
  // docs/decisions/0021-browser-weight.md), for a few more seconds of build.
  build: isSsrBuild
    ? {}
    : {
        minify: "terser",
        terserOptions: { module: true, compress: { passes: 2 } },
        rollupOptions: {
          output: {
            manualChunks: (id: string) => (/[\\/]node_modules[\\/]zod[\\/]/.test(id) ? "zod" : undefined),
          },
        },
      },
}));
