import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      ".data/**",
      "public/build/**",
      "supabase/functions/**",
      "stack/functions/deno/**",
      "scripts/conformance/deno/**",
      "tests/fixtures/functions/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        fetch: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        Blob: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        performance: "readonly",
        AbortSignal: "readonly",
        AbortController: "readonly",
        crypto: "readonly",
        document: "readonly",
        window: "readonly",
        navigator: "readonly",
        FormData: "readonly",
        URLSearchParams: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
  // The app and the local stack never import each other: the stack could become its own package,
  // and the app must run unchanged against a hosted project.
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/stack", "**/stack/**"],
              message:
                "app/ never imports the local stack (stack/): talk to it over HTTP through the Supabase clients.",
            },
          ],
          paths: [
            {
              name: "@remix-run/node",
              importNames: ["redirect", "redirectDocument", "replace"],
              message:
                "Use redirect from ~/lib/http.server: it carries the request's cookies where Remix reads them (docs/decisions/0025-request-scope.md).",
            },
          ],
        },
      ],
    },
  },

  {
    files: ["stack/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/*", "**/app", "**/app/**"],
              message: "stack/ never imports the web app (app/): it is the backend, usable on its own.",
            },
          ],
        },
      ],
    },
  },
);
