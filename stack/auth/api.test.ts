import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API } from "./api.ts";

const endpoints = path.join(path.dirname(fileURLToPath(import.meta.url)), "endpoints");

describe("the auth route table", () => {
  it("serves each method and path once (a second route there would never answer)", () => {
    const seen = new Map<string, number>();
    for (const r of API) {
      for (const method of [r.method].flat()) {
        for (const p of [r.path].flat()) seen.set(`${method} ${p}`, (seen.get(`${method} ${p}`) ?? 0) + 1);
      }
    }
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
  });

  it("has endpoints that import no other endpoint: what two share lives beside the table", () => {
    const offending = fs
      .readdirSync(endpoints)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) =>
        [...fs.readFileSync(path.join(endpoints, f), "utf8").matchAll(/from "(\.\/[^"]+)"/g)].map(
          (m) => `${f} -> ${m[1]}`,
        ),
      );
    expect(offending).toEqual([]);
  });
});
