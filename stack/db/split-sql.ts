/**
 * Splits a SQL script into statements at top-level semicolons, respecting
 * quotes ('…', "…", E'…'), dollar quotes ($$…$$, $tag$…$tag$), line comments
 * and nested block comments. Each statement keeps its 1-based start line so a
 * failure can be reported where it is in the file.
 */
export interface SqlStatement {
  sql: string;
  line: number;
}

export function splitSql(script: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let start = 0;
  let i = 0;
  const n = script.length;
  const push = (end: number) => {
    const raw = script.slice(start, end);
    const text = raw.trim();
    if (text && !isOnlyComments(text)) {
      const lead = raw.length - raw.trimStart().length;
      const line = lineAt(script, start + lead);
      statements.push({ sql: text, line });
    }
  };
  while (i < n) {
    const c = script[i];
    const next = script[i + 1];
    if (c === "-" && next === "-") {
      const end = script.indexOf("\n", i);
      i = end === -1 ? n : end + 1;
    } else if (c === "/" && next === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script[i] === "/" && script[i + 1] === "*") {
          depth++;
          i += 2;
        } else if (script[i] === "*" && script[i + 1] === "/") {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === "'" || c === '"') {
      const escapes = c === "'" && i > 0 && /[eE]/.test(script[i - 1]) && !/\w/.test(script[i - 2] ?? "");
      i++;
      while (i < n) {
        if (escapes && script[i] === "\\") {
          i += 2;
          continue;
        }
        if (script[i] === c) {
          if (script[i + 1] === c) {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      i++;
    } else if (c === "$" && !/[\w$]/.test(script[i - 1] ?? "")) {
      const match = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(i, i + 64));
      if (match) {
        const tag = match[0];
        const end = script.indexOf(tag, i + tag.length);
        i = end === -1 ? n : end + tag.length;
      } else i++;
    } else if (c === ";") {
      push(i);
      i++;
      start = i;
    } else i++;
  }
  push(n);
  return statements;
}

function isOnlyComments(text: string): boolean {
  return (
    text
      .replace(/--[^\n]*/g, "")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .trim() === ""
  );
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}
