/**
 * The plan of a write (PostgREST's mutatePlan): POST inserts (upserts with
 * Prefer: resolution), PUT upserts one row named by its primary key, PATCH
 * updates, DELETE deletes; the columns come from `columns=` or the body's
 * keys, and what comes back from Prefer: return (the representation is a
 * read of the written rows, plan-read.ts). Bodies and PUT's filters are
 * checked here, before anything runs.
 */
import type { ApiRequest } from "./api-request.ts";
import { errors } from "./errors.ts";
import { planFilter, planLogic, tableScope } from "./plan-fields.ts";
import { planRead } from "./plan-read.ts";
import type { MutatePlan, WriteKind } from "./plan-types.ts";
import type { Column, SchemaCache, Table } from "./schema.ts";

const KIND: Record<"create" | "upsert" | "update" | "delete", WriteKind> = {
  create: "insert",
  upsert: "upsert-put",
  update: "update",
  delete: "delete",
};

export function planMutate(cache: SchemaCache, req: ApiRequest, table: Table): MutatePlan {
  if (req.action.kind !== "mutate") throw new Error("not a write");
  const kind = KIND[req.action.mutation];
  const written =
    kind === "insert" || kind === "upsert-put"
      ? planInsert(req, table, kind)
      : kind === "update"
        ? planUpdate(req, table)
        : { columns: [], defaults: null, conflict: null, where: topConditions(req, table) };
  const representation = req.prefs.return === "representation";
  const headersOnly = req.prefs.return === "headers-only";
  const { query } = req;
  const result: MutatePlan["result"] = representation
    ? {
        kind: "representation",
        // the written rows, read with the query's embeds; its top-level filters chose the rows to write
        node: planRead(
          cache,
          { kind: "source" },
          tableScope(table),
          {
            ...query,
            filters: query.filters.filter((f) => f.path.length > 0),
            logic: query.logic.filter((l) => l.path.length > 0),
          },
          null,
        ),
      }
    : headersOnly
      ? { kind: "headers-only", pk: table.pk }
      : { kind: "none" };
  return {
    kind,
    table,
    body: req.bodyText,
    ...written,
    returnRows: representation || headersOnly,
    // an upsert tells inserted rows from updated ones (xmax is 0 on a freshly inserted row version)
    countInserted: written.conflict !== null && !table.isView,
    result,
  };
}

type Written = Pick<MutatePlan, "columns" | "defaults" | "conflict" | "where">;

/** POST and PUT: the body's rows, their columns, and what a conflict does. */
function planInsert(req: ApiRequest, table: Table, kind: WriteKind): Written {
  const { prefs, query } = req;
  const rows = bodyRows(req.body);
  let names: string[];
  if (query.columns) names = query.columns;
  else {
    names = Object.keys(rows[0] ?? {});
    const signature = [...names].sort().join("\u0000");
    for (const r of rows) {
      if ([...Object.keys(r)].sort().join("\u0000") !== signature)
        throw errors.invalidBody("All object keys must match");
    }
  }
  const columns = checkColumns(table, names);
  const defaults =
    prefs.missing === "default"
      ? columns.filter((c) => c.missingDefault).map((c): [string, string] => [c.name, c.missingDefault!])
      : null;
  if (kind === "upsert-put") checkPut(req, table, rows);
  const resolution = kind === "upsert-put" ? "merge-duplicates" : prefs.resolution;
  let conflict: MutatePlan["conflict"] = null;
  if (resolution) {
    const onConflict = query.onConflict ?? table.pk;
    checkColumns(table, onConflict);
    if (onConflict.length) {
      conflict = { columns: onConflict, update: resolution === "merge-duplicates" && columns.length > 0 };
    }
  }
  return { columns, defaults, conflict, where: [] };
}

/** PUT names one row by all of its primary key, with `eq` filters the body agrees with. */
function checkPut(req: ApiRequest, table: Table, rows: Record<string, unknown>[]) {
  const { query } = req;
  if (rows.length !== 1) throw errors.invalidBody("PUT payload must contain a single row");
  if (query.ranges.get("")) throw errors.putRange();
  const pkFilters = query.filters.filter((f) => f.path.length === 0);
  const ok =
    table.pk.length > 0 &&
    pkFilters.length === table.pk.length &&
    query.logic.length === 0 &&
    pkFilters.every(
      (f) =>
        f.filter.operation.kind === "op" &&
        f.filter.operation.op === "eq" &&
        !f.filter.negate &&
        f.filter.field.json.length === 0 &&
        table.pk.includes(f.filter.field.name),
    );
  if (!ok) throw errors.putFilters();
  for (const f of pkFilters) {
    const v = rows[0][f.filter.field.name];
    if (v === undefined || String(v) !== (f.filter.operation as { value: string }).value) throw errors.putMismatch();
  }
}

/** PATCH: the body's columns, on the rows the top-level filters select. */
function planUpdate(req: ApiRequest, table: Table): Written {
  const body = req.body;
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw errors.invalidBody("Empty or invalid json");
  const columns = checkColumns(table, req.query.columns ?? Object.keys(body as object));
  return { columns, defaults: null, conflict: null, where: topConditions(req, table) };
}

function topConditions(req: ApiRequest, table: Table) {
  const scope = tableScope(table);
  return [
    ...req.query.filters.filter((f) => f.path.length === 0).map((f) => planFilter(scope, f.filter)),
    ...req.query.logic.filter((l) => l.path.length === 0).map((l) => planLogic(scope, l.tree)),
  ];
}

function bodyRows(body: unknown): Record<string, unknown>[] {
  if (Array.isArray(body)) {
    if (!body.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))) {
      throw errors.invalidBody("All object keys must match");
    }
    return body as Record<string, unknown>[];
  }
  if (body !== null && typeof body === "object") return [body as Record<string, unknown>];
  throw errors.invalidBody("Empty or invalid json");
}

function checkColumns(table: Table, cols: string[]): Column[] {
  return cols.map((c) => {
    const col = table.columns.get(c);
    if (!col) throw errors.columnNotFound(table.name, c);
    return col;
  });
}
