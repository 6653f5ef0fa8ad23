import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".data/**", "public/build/**", "supabase/functions/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly", process: "readonly", Buffer: "readonly", URL: "readonly", fetch: "readonly",
        Response: "readonly", Request: "readonly", Headers: "readonly", Blob: "readonly", setTimeout: "readonly",
        clearTimeout: "readonly", performance: "readonly", AbortSignal: "readonly", crypto: "readonly",
        document: "readonly", window: "readonly", navigator: "readonly", FormData: "readonly", URLSearchParams: "readonly",
        TextEncoder: "readonly", TextDecoder: "readonly", setInterval: "readonly", clearInterval: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
);
