import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import config from "../vite.config";

/**
 * The dev server pre-bundles the packages the browser imports. One it finds
 * only when a page asks for it makes Vite re-optimise and reload that page
 * (a fresh install reloaded the first signed-in page and the first board,
 * aborting a navigation): every package a browser module of app/ imports
 * must be in optimizeDeps.include, or excluded on purpose.
 */
const APP = path.resolve(import.meta.dirname, "../app");
// React, React DOM and Remix's own browser packages are pre-bundled by the Remix plugin itself
const BY_REMIX = /^(react|react-dom(\/client)?|@remix-run\/react)$/;

function browserModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return browserModules(file);
    return /\.tsx?$/.test(entry.name) && !/\.(server|test)\.tsx?$|^entry\.server|\.d\.ts$/.test(entry.name)
      ? [file]
      : [];
  });
}

test("every package a browser module imports is pre-bundled for the dev server", async () => {
  const resolved = await (typeof config === "function"
    ? config({ command: "serve", mode: "development", isSsrBuild: false })
    : config);
  const include = new Set(resolved.optimizeDeps?.include ?? []);
  const exclude = new Set(resolved.optimizeDeps?.exclude ?? []);
  const missing = new Set<string>();
  for (const file of browserModules(APP)) {
    const source = fs.readFileSync(file, "utf8");
    // value imports only (`import type` is erased); route modules' server imports are removed from the browser build
    for (const [, specifier] of source.matchAll(/^import (?!type )[^;]*? from "([^".~][^"]*)";/gms)) {
      if (specifier.startsWith("node:") || BY_REMIX.test(specifier) || exclude.has(specifier)) continue;
      if (/^@remix-run\/node$/.test(specifier)) continue; // server-only, used by loaders and actions
      if (!include.has(specifier)) missing.add(`${specifier} (${path.relative(APP, file)})`);
    }
  }
  expect([...missing]).toEqual([]);
});
