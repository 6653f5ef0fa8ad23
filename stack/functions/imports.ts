import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A function's import map as Deno is given it. The Supabase CLI takes a
 * function's `deno.json` / `deno.jsonc` (or the file `import_map` names in
 * config.toml, or `functions/import_map.json`) and uses its `imports` and
 * `scopes`. Deno's own `--config` would also move the function's root (and so
 * where `npm:` packages are found) into the function's folder, so the stack
 * passes `--import-map` instead: a copy holding only `imports` and `scopes`,
 * with every relative address made absolute against the original file (the
 * copy lives elsewhere). JSONC comments and trailing commas are accepted.
 */
export interface ImportMap {
  imports?: Record<string, string>;
  scopes?: Record<string, Record<string, string>>;
}

export class ImportMapError extends Error {}

/** Writes the derived map for `source` into `outDir` as `<name>.json`; returns its path. */
export function prepareImportMap(source: string, outDir: string, name: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(fs.readFileSync(source, "utf8")));
  } catch (error) {
    throw new ImportMapError(`${source}: ${(error as Error).message}`);
  }
  const map = absoluteImportMap(parsed, pathToFileURL(source).href);
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, `${name}.json`);
  fs.writeFileSync(out, JSON.stringify(map, null, 2));
  return out;
}

/** `imports` and `scopes` of a parsed deno.json or import map, relative addresses resolved against `base`. */
export function absoluteImportMap(parsed: unknown, base: string): ImportMap {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new ImportMapError("an import map must be a JSON object");
  const { imports, scopes } = parsed as { imports?: unknown; scopes?: unknown };
  const out: ImportMap = {};
  if (imports !== undefined) out.imports = specifierMap(imports, base);
  if (scopes !== undefined) {
    if (typeof scopes !== "object" || scopes === null) throw new ImportMapError("`scopes` must be an object");
    out.scopes = Object.fromEntries(
      Object.entries(scopes).map(([scope, map]) => [resolveLike(scope, base), specifierMap(map, base)]),
    );
  }
  return out;
}

function specifierMap(map: unknown, base: string): Record<string, string> {
  if (typeof map !== "object" || map === null || Array.isArray(map))
    throw new ImportMapError("`imports` must be an object of strings");
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    if (typeof value !== "string") throw new ImportMapError(`the address of "${key}" must be a string`);
    out[resolveLike(key, base)] = resolveLike(value, base);
  }
  return out;
}

/** What an import map resolves against its own URL: `./`, `../` and `/` addresses; others (bare, URLs, npm:) stay. */
function resolveLike(specifier: string, base: string): string {
  if (/^(\.{1,2})?\//.test(specifier)) return new URL(specifier, base).href;
  return specifier;
}

/** JSONC → JSON: comments out, then trailing commas; strings untouched. */
export function stripJsonc(text: string): string {
  return outsideStrings(
    outsideStrings(text, (rest) => {
      if (rest.startsWith("//")) return { skip: Math.max(rest.indexOf("\n"), 0) || rest.length, put: "" };
      if (rest.startsWith("/*"))
        return { skip: rest.indexOf("*/") < 0 ? rest.length : rest.indexOf("*/") + 2, put: " " };
      return null;
    }),
    (rest) => (/^,\s*[}\]]/.test(rest) ? { skip: 1, put: "" } : null),
  );
}

/** Copies `text`, letting `edit` replace what starts at each position outside string literals. */
function outsideStrings(text: string, edit: (rest: string) => { skip: number; put: string } | null): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const change = text[i] === "/" || text[i] === "," ? edit(text.slice(i)) : null;
    if (change) {
      out += change.put;
      i += change.skip;
    } else out += text[i++];
  }
  return out;
}
