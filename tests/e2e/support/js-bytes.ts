import fs from "node:fs";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";

/**
 * What a page costs in JavaScript, as the browser fetched it: bench:web
 * (scripts/bench-web.ts) and the budget e2e (js-budget.spec.ts) both measure
 * with this. Bytes are the encoded body sizes Chromium reports for each
 * script it received (`request.sizes().responseBodySize`), not the build's
 * file sizes: Brotli from the production server, which Chromium accepts from
 * HTTPS origins and from localhost (scripts/precompress.mjs, server.mjs).
 */
export interface JsFigures {
  /** bytes on the wire of the scripts the first HTML names */
  firstBytes: number;
  /** bytes on the wire of every script fetched while watching */
  totalBytes: number;
  firstFiles: string[];
  /** each script fetched, with its bytes on the wire and its Content-Encoding ("" for none) */
  files: ScriptFile[];
  /** the HTML's bytes on the wire and decoded */
  documentWire: number;
  documentBytes: number;
}

export interface ScriptFile {
  path: string;
  bytes: number;
  encoding: string;
}

/**
 * What the same scripts weigh as the build's gzip (level 9) copies
 * (scripts/precompress.mjs), which the production server sends to browsers
 * that don't take Brotli; the budget was written in gzip bytes.
 */
export function gzipCopyBytes(files: { path: string }[]): number {
  return files.reduce((sum, file) => sum + fs.statSync(path.join("build/client", `${file.path}.gz`)).size, 0);
}

/** The scripts a page's first HTML loads: module preloads and what its inline scripts import. */
export function firstHtmlScripts(html: string): string[] {
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  const imported = [...html.matchAll(/import(?:\s*\(|\s+[^"']*from\s*|\s*)["'](\/assets\/[^"']+\.js)["']/g)].map(
    (m) => m[1],
  );
  return [...new Set([...preloads, ...imported])];
}

/**
 * Loads `url` in a new page of `context`, touches nothing, and records every
 * script fetched until `watchMs` after the load event.
 */
export async function measureJs(context: BrowserContext, url: string, watchMs: number): Promise<JsFigures> {
  const page = await context.newPage();
  const pending: Promise<ScriptFile | null>[] = [];
  let documentWire = 0;
  let html = "";
  page.on("requestfinished", (request) => {
    const type = request.resourceType();
    if (type === "document" && request.frame() === page.mainFrame() && !html) {
      pending.push(
        (async () => {
          const response = await request.response();
          html = (await response?.text()) ?? "";
          documentWire = (await request.sizes()).responseBodySize;
          return null;
        })(),
      );
    }
    if (type !== "script") return;
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        const encoding = (await response?.allHeaders())?.["content-encoding"] ?? "";
        return { path: new URL(request.url()).pathname, bytes: sizes.responseBodySize, encoding };
      })(),
    );
  });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(watchMs);
  const files = (await Promise.all(pending)).filter((f): f is ScriptFile => f !== null);
  await page.close();
  const firstFiles = firstHtmlScripts(html);
  const bytesOf = (p: string) => files.find((f) => f.path === p)?.bytes ?? 0;
  return {
    firstBytes: firstFiles.reduce((sum, p) => sum + bytesOf(p), 0),
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    firstFiles,
    files,
    documentWire,
    documentBytes: Buffer.byteLength(html),
  };
}
