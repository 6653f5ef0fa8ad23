import fs from "node:fs";
import path from "node:path";

/**
 * What the Supabase CLI reads about a project's functions: the folders in
 * supabase/functions (one per function, entry point index.ts; folders starting
 * with `_` or `.` are shared code, not functions), `[functions.<name>]` in
 * supabase/config.toml, and supabase/functions/.env.
 */
export interface FunctionInfo {
  name: string;
  entrypoint: string;
  verifyJwt: boolean;
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
    .map((e) => ({
      name: e.name,
      entrypoint: path.resolve(dir, e.name, "index.ts"),
      verifyJwt: settings[e.name]?.verifyJwt ?? true,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function findFunction(dir: string, configFile: string, name: string): FunctionInfo | null {
  if (!isFunctionName(name)) return null;
  const entrypoint = path.resolve(dir, name, "index.ts");
  if (!fs.existsSync(entrypoint)) return null;
  return { name, entrypoint, verifyJwt: readFunctionSettings(configFile)[name]?.verifyJwt ?? true };
}

/**
 * `[functions.<name>]` tables of config.toml and their `verify_jwt`. Only
 * the part of TOML those tables use: a header per table, `key = true|false`
 * (other keys and tables are skipped). Cached by modification time.
 */
let cached: { file: string; mtimeMs: number; settings: Record<string, { verifyJwt?: boolean }> } | null = null;

export function readFunctionSettings(configFile: string): Record<string, { verifyJwt?: boolean }> {
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

export function parseFunctionSettings(toml: string): Record<string, { verifyJwt?: boolean }> {
  const settings: Record<string, { verifyJwt?: boolean }> = {};
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
    const pair = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (pair && current) settings[current].verifyJwt = pair[1] === "true";
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
