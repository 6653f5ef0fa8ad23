import fs from "node:fs";
import path from "node:path";

/**
 * What the Supabase CLI reads about a project's functions: the folders in
 * supabase/functions (one per function, entry point index.ts; folders starting
 * with `_` or `.` are shared code, not functions), `[functions.<name>]` in
 * supabase/config.toml (`verify_jwt`, `import_map`), each function's
 * deno.json, and supabase/functions/.env.
 */
export interface FunctionInfo {
  name: string;
  entrypoint: string;
  verifyJwt: boolean;
  /** the file whose `imports` / `scopes` map the function's imports, or null */
  importMap: string | null;
}

interface FunctionSettings {
  verifyJwt?: boolean;
  /** as written in config.toml: relative to the folder config.toml is in */
  importMap?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function isFunctionName(name: string): boolean {
  return NAME.test(name);
}

export function listFunctions(dir: string, configFile: string): FunctionInfo[] {
  if (!fs.existsSync(dir)) return [];
  const settings = readFunctionSettings(configFile);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isFunctionName(e.name) && fs.existsSync(path.join(dir, e.name, "index.ts")))
    .map((e) => describe(dir, configFile, e.name, settings[e.name] ?? {}))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function findFunction(dir: string, configFile: string, name: string): FunctionInfo | null {
  if (!isFunctionName(name)) return null;
  if (!fs.existsSync(path.resolve(dir, name, "index.ts"))) return null;
  return describe(dir, configFile, name, readFunctionSettings(configFile)[name] ?? {});
}

function describe(dir: string, configFile: string, name: string, settings: FunctionSettings): FunctionInfo {
  return {
    name,
    entrypoint: path.resolve(dir, name, "index.ts"),
    verifyJwt: settings.verifyJwt ?? true,
    importMap: importMapOf(dir, configFile, name, settings),
  };
}

/**
 * As the CLI picks it: `import_map` in config.toml, else the function's own
 * deno.json or deno.jsonc, else the shared functions/import_map.json.
 */
function importMapOf(dir: string, configFile: string, name: string, settings: FunctionSettings): string | null {
  if (settings.importMap) return path.resolve(path.dirname(configFile), settings.importMap);
  const candidates = [
    path.join(dir, name, "deno.json"),
    path.join(dir, name, "deno.jsonc"),
    path.join(dir, "import_map.json"),
  ];
  return candidates.find((file) => fs.existsSync(file)) ?? null;
}

/**
 * `[functions.<name>]` tables of config.toml: `verify_jwt` and `import_map`.
 * Only the part of TOML those tables use: a header per table, `key = true|false`
 * or `key = "string"` (other keys and tables are skipped). Cached by
 * modification time.
 */
let cached: { file: string; mtimeMs: number; settings: Record<string, FunctionSettings> } | null = null;

export function readFunctionSettings(configFile: string): Record<string, FunctionSettings> {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(configFile).mtimeMs;
  } catch {
    return {};
  }
  if (cached && cached.file === configFile && cached.mtimeMs === mtimeMs) return cached.settings;
  const settings = parseFunctionSettings(fs.readFileSync(configFile, "utf8"));
  cached = { file: configFile, mtimeMs, settings };
  return settings;
}

export function parseFunctionSettings(toml: string): Record<string, FunctionSettings> {
  const settings: Record<string, FunctionSettings> = {};
  let current: string | null = null;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (!line || line.startsWith("#")) continue;
    const table = /^\[\s*functions\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*\]$/.exec(line);
    if (table) {
      current = table[1] ?? table[2];
      settings[current] ??= {};
      continue;
    }
    if (line.startsWith("[")) {
      current = null;
      continue;
    }
    if (!current) continue;
    const flag = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (flag) settings[current].verifyJwt = flag[1] === "true";
    const map = /^import_map\s*=\s*(?:"([^"]*)"|'([^']*)')$/.exec(line);
    if (map) settings[current].importMap = map[1] ?? map[2];
  }
  return settings;
}

/** A dotenv file: KEY=value lines, optional quotes, `#` comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2];
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[1] === '"' ? quoted[2].replace(/\\n/g, "\n").replace(/\\"/g, '"') : quoted[2];
    else value = value.replace(/\s+#.*$/, "").trim();
    env[m[1]] = value;
  }
  return env;
}

export function readEnvFile(file: string): Record<string, string> {
  try {
    return parseEnvFile(fs.readFileSync(file, "utf8"));
  } catch {
    return {};
  }
}
