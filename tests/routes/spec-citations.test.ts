/**
 * Every citation of the product's sections leads somewhere: `docs/product.md
 * §N` (and a list after it, "§11, §9") names a section that file has, and
 * nothing cites `PRODUCT.md`, the specification, which is not in this
 * repository. Applied migrations are left as they were written (they are
 * never edited), and supabase/schemas/ is generated from them.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SEARCHED = ["app", "stack", "scripts", "tests", "supabase/functions", "docs", "README.md", "server.mjs"];
// this file cites dead sections on purpose (its own check of the check)
const LEFT_OUT = ["supabase/migrations", "supabase/schemas", "node_modules", "tests/routes/spec-citations.test.ts"];
const CITATION = /(docs\/product\.md|PRODUCT\.md)((?:[ ,]*(?:and |or )?§ ?\d+)+)/g;

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full) || LEFT_OUT.some((out) => entry.startsWith(out))) return [];
  if (fs.statSync(full).isFile()) return /\.(ts|tsx|mjs|js|css|md|sql)$/.test(entry) ? [entry] : [];
  return fs.readdirSync(full).flatMap((name) => files(path.posix.join(entry, name)));
}

/** The citations in `text` that lead nowhere, as "file:line: what it says". */
export function deadCitations(file: string, text: string, sections: ReadonlySet<number>): string[] {
  const dead: string[] = [];
  for (const match of text.matchAll(CITATION)) {
    const line = text.slice(0, match.index).split("\n").length;
    const numbers = [...match[2].matchAll(/§ ?(\d+)/g)].map((m) => Number(m[1]));
    if (match[1] === "PRODUCT.md") dead.push(`${file}:${line}: ${match[0]} (PRODUCT.md is not in the repository)`);
    else for (const n of numbers) if (!sections.has(n)) dead.push(`${file}:${line}: ${match[0]} (no §${n})`);
  }
  return dead;
}

const product = fs.readFileSync(path.join(ROOT, "docs/product.md"), "utf8");
const SECTIONS = new Set([...product.matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));

describe("citations of docs/product.md", () => {
  it("all lead to a section it has", () => {
    const all = SEARCHED.flatMap(files);
    expect(all.length).toBeGreaterThan(100);
    const dead = all.flatMap((file) => deadCitations(file, fs.readFileSync(path.join(ROOT, file), "utf8"), SECTIONS));
    expect(dead).toEqual([]);
  });

  it("the check itself finds a section that isn't there, one in a list, and PRODUCT.md", () => {
    const sections = new Set([1, 2, 9, 11]);
    expect(deadCitations("a.ts", "see docs/product.md §11, §9", sections)).toEqual([]);
    expect(deadCitations("a.ts", "x\n(docs/product.md §11, §16)", sections)).toEqual([
      "a.ts:2: docs/product.md §11, §16 (no §16)",
    ]);
    expect(deadCitations("a.ts", "PRODUCT.md §2", sections)).toEqual([
      "a.ts:1: PRODUCT.md §2 (PRODUCT.md is not in the repository)",
    ]);
  });
});
