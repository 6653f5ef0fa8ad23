import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, expect, test } from "vitest";
import { precompress } from "./precompress.mjs";

let folder = "";
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

test("every script, stylesheet, SVG and JSON file gets a Brotli and a gzip copy that decode to it; nothing else does", () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "precompress-"));
  const script = `export const columns = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `Task ${i}`))};\n`;
  fs.writeFileSync(path.join(folder, "board-abc123.js"), script);
  fs.writeFileSync(path.join(folder, "app-def456.css"), ".card { display: grid; }\n".repeat(50));
  fs.writeFileSync(path.join(folder, "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));

  const totals = precompress(folder);

  const br = fs.readFileSync(path.join(folder, "board-abc123.js.br"));
  const gz = fs.readFileSync(path.join(folder, "board-abc123.js.gz"));
  expect(zlib.brotliDecompressSync(br).toString()).toBe(script);
  expect(zlib.gunzipSync(gz).toString()).toBe(script);
  expect(br.length).toBeLessThan(gz.length);
  expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(folder, "app-def456.css.br"))).toString()).toContain(
    ".card",
  );
  expect(fs.existsSync(path.join(folder, "photo.png.br"))).toBe(false);
  expect(fs.existsSync(path.join(folder, "photo.png.gz"))).toBe(false);
  expect(totals.plain).toBe(Buffer.byteLength(script) + ".card { display: grid; }\n".length * 50);
  expect(totals.br).toBe(br.length + fs.statSync(path.join(folder, "app-def456.css.br")).size);
});
