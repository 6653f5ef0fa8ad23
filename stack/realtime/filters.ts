/**
 * postgres_changes filters as Realtime parses them: `column=op.value`, several
 * joined by top-level commas (all must hold), `in.(a,b)` lists, double-quoted
 * values. Operators: eq, neq, lt, lte, gt, gte, in (and `not.` before any).
 *
 * Values are compared the way Postgres would compare them after casting the
 * filter value to the column's type: numbers numerically, booleans as
 * booleans, everything else (text, uuid, enums, ISO dates and timestamps) as
 * text. A filter on a column the record does not carry passes (Realtime lets
 * deletes through filters on columns outside the old record's identity).
 */
export const FILTER_OPS = ["eq", "neq", "lt", "lte", "gt", "gte", "in"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface Filter {
  column: string;
  op: FilterOp;
  negate: boolean;
  /** one value, or the list of `in` */
  values: string[];
}

export function parseFilters(
  filter: string | undefined | null,
): { ok: true; filters: Filter[] } | { ok: false; error: string } {
  const trimmed = (filter ?? "").trim();
  if (trimmed === "") return { ok: true, filters: [] };
  const filters: Filter[] = [];
  for (const raw of splitTopLevel(trimmed)) {
    const segment = raw.trim();
    if (segment === "") return { ok: false, error: "filter must not contain empty segments (check for extra commas)" };
    const eq = segment.indexOf("=");
    if (eq <= 0) return { ok: false, error: `invalid filter ${JSON.stringify(segment)}` };
    const column = segment.slice(0, eq);
    let rest = segment.slice(eq + 1);
    const negate = rest.startsWith("not.");
    if (negate) rest = rest.slice(4);
    const dot = rest.indexOf(".");
    if (dot < 0) return { ok: false, error: `invalid filter ${JSON.stringify(segment)}` };
    const op = rest.slice(0, dot);
    const value = rest.slice(dot + 1);
    if (!(FILTER_OPS as readonly string[]).includes(op))
      return { ok: false, error: `unsupported filter operator "${op}"` };
    if (op === "in") {
      if (!(value.startsWith("(") && value.endsWith(")")))
        return { ok: false, error: "`in` filter value must be wrapped by parentheses" };
      const inner = value.slice(1, -1);
      const values = inner === "" ? [] : splitTopLevel(inner).map((v) => unquote(v.trim()));
      filters.push({ column, op: "in", negate, values });
    } else {
      filters.push({ column, op: op as FilterOp, negate, values: [unquote(value)] });
    }
  }
  return { ok: true, filters };
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === "\\" && i + 1 < s.length) {
        current += ch + s[++i];
        continue;
      }
      if (ch === '"') quoted = false;
      current += ch;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, "$1");
  return v;
}

const NUMERIC = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "oid"]);

function compare(type: string | undefined, recordValue: unknown, filterValue: string): number | null {
  if (recordValue === null || recordValue === undefined) return null; // SQL: comparisons with null are not true
  if (type && NUMERIC.has(type)) {
    const a = Number(recordValue);
    const b = Number(filterValue);
    if (Number.isNaN(a) || Number.isNaN(b)) return null;
    return a === b ? 0 : a < b ? -1 : 1;
  }
  if (type === "bool") {
    const b = ["t", "true", "1", "yes", "on"].includes(filterValue.toLowerCase());
    const a = recordValue === true || recordValue === "t" || recordValue === "true";
    return a === b ? 0 : Number(a) - Number(b);
  }
  const a = typeof recordValue === "string" ? recordValue : JSON.stringify(recordValue);
  return a === filterValue ? 0 : a < filterValue ? -1 : 1;
}

function holds(f: Filter, type: string | undefined, value: unknown): boolean {
  let result: boolean;
  if (f.op === "in") {
    result = f.values.some((v) => compare(type, value, v) === 0);
  } else {
    const c = compare(type, value, f.values[0]);
    if (c === null) return false;
    result =
      f.op === "eq"
        ? c === 0
        : f.op === "neq"
          ? c !== 0
          : f.op === "lt"
            ? c < 0
            : f.op === "lte"
              ? c <= 0
              : f.op === "gt"
                ? c > 0
                : c >= 0;
  }
  return f.negate ? !result : result;
}

/** Do all filters hold for this record? `types` maps column names to Postgres type names. */
export function matchesFilters(
  filters: Filter[],
  record: Record<string, unknown>,
  types: Map<string, string>,
): boolean {
  return filters.every((f) => !(f.column in record) || holds(f, types.get(f.column), record[f.column]));
}
