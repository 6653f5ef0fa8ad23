/**
 * The SQL of a write, as PostgREST prints it: the mutation (POST insert, PUT
 * upsert of one row, PATCH update, DELETE) in a CTE `pgrst_source` with its
 * RETURNING, and a select over it for the body the Prefer header asks for
 * (representation, headers-only's primary key, or nothing) and the count of
 * rows an upsert inserted. Checks of the body and of PUT's filters are
 * raised here; handler.ts runs the statement and shapes the reply.
 */
import { errors } from "./errors.ts";
import type { ParsedQuery } from "./parser.ts";
import type { Prefs } from "./prefer.ts";
import { bodyExpr, type Negotiated } from "./response.ts";
import { type Column, type SchemaCache, type Table, quoteIdent as q } from "./schema.ts";
import { filterSql, logicSql } from "./sql-filters.ts";
import { Params, tableSource, type Source } from "./sql-source.ts";
import { buildSelect } from "./sql.ts";

export type WriteKind = "insert" | "update" | "delete" | "upsert-put";

/** What of a request a write's SQL depends on. */
export interface WriteRequest {
  cache: SchemaCache;
  method: string;
  parsed: ParsedQuery;
  prefs: Prefs;
  media: Negotiated;
  body: unknown;
  bodyText: string | null;
}

export interface WriteStatement {
  kind: WriteKind;
  sql: string;
  params: Params;
}

export function buildWrite(rq: WriteRequest, table: Table): WriteStatement {
  const params = new Params();
  const { prefs, parsed } = rq;
  const t = q(table.name);
  const target = `${q(table.schema)}.${q(table.name)} AS ${t}`;
  const representation = prefs.return === "representation";
  const headersOnly = prefs.return === "headers-only";
  let mutationSql: string;
  let kind: WriteKind;
  let conflict = "";

  const whereParts = (src: Source) => [
    ...parsed.filters.filter((f) => f.path.length === 0).map((f) => filterSql(src, f.filter, params)),
    ...parsed.logic.filter((l) => l.path.length === 0).map((l) => logicSql(src, l.tree, params)),
  ];
  const plainSrc = tableSource(table);

  if (rq.method === "POST" || rq.method === "PUT") {
    kind = rq.method === "POST" ? "insert" : "upsert-put";
    const rows = bodyRows(rq.body);
    let colNames: string[];
    if (parsed.columns) colNames = parsed.columns;
    else {
      colNames = Object.keys(rows[0] ?? {});
      const sig = [...colNames].sort().join("\u0000");
      for (const r of rows) {
        if ([...Object.keys(r)].sort().join("\u0000") !== sig) throw errors.invalidBody("All object keys must match");
      }
    }
    const cols = checkColumns(table, colNames);
    const bodyParam = params.add(rq.bodyText, "json");
    const arr = `(CASE WHEN json_typeof(${bodyParam}) = 'array' THEN ${bodyParam} ELSE json_build_array(${bodyParam}) END)`;
    let selectRows: string;
    if (prefs.missing === "default") {
      const defaults = cols
        .filter((c) => c.missingDefault)
        .map((c) => `'${c.name.replace(/'/g, "''")}', ${c.missingDefault}`);
      const defsObj = defaults.length ? `jsonb_build_object(${defaults.join(", ")})` : `'{}'::jsonb`;
      selectRows = `SELECT ${cols.map((c) => `pgrst_body.${q(c.name)}`).join(", ")} FROM jsonb_array_elements(${arr}::jsonb) AS pgrst_elem, LATERAL jsonb_populate_record(null::${q(table.schema)}.${q(table.name)}, ${defsObj} || pgrst_elem) AS pgrst_body`;
    } else {
      selectRows = `SELECT ${cols.map((c) => `pgrst_body.${q(c.name)}`).join(", ")} FROM json_populate_recordset(null::${q(table.schema)}.${q(table.name)}, ${arr}) AS pgrst_body`;
    }
    if (rq.method === "PUT") {
      if (rows.length !== 1) throw errors.invalidBody("PUT payload must contain a single row");
      if (parsed.ranges.get("")) throw errors.putRange();
      const pkFilters = parsed.filters.filter((f) => f.path.length === 0);
      const ok =
        table.pk.length > 0 &&
        pkFilters.length === table.pk.length &&
        parsed.logic.length === 0 &&
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
        if (v === undefined || String(v) !== (f.filter.operation as { value: string }).value) {
          throw errors.putMismatch();
        }
      }
    }
    const resolution = rq.method === "PUT" ? "merge-duplicates" : prefs.resolution;
    if (resolution) {
      const onConflict = parsed.onConflict ?? table.pk;
      checkColumns(table, onConflict);
      if (onConflict.length) {
        const confl = onConflict.map((c) => q(c)).join(", ");
        if (resolution === "ignore-duplicates") conflict = ` ON CONFLICT (${confl}) DO NOTHING`;
        else {
          const sets = cols.map((c) => `${q(c.name)} = EXCLUDED.${q(c.name)}`);
          conflict = sets.length
            ? ` ON CONFLICT (${confl}) DO UPDATE SET ${sets.join(", ")}`
            : ` ON CONFLICT (${confl}) DO NOTHING`;
        }
      }
    }
    if (cols.length === 0) {
      mutationSql = `INSERT INTO ${target} SELECT FROM json_array_elements(${arr})${conflict}`;
    } else {
      mutationSql = `INSERT INTO ${target} (${cols.map((c) => q(c.name)).join(", ")}) ${selectRows}${conflict}`;
    }
  } else if (rq.method === "PATCH") {
    kind = "update";
    if (rq.body === null || typeof rq.body !== "object" || Array.isArray(rq.body))
      throw errors.invalidBody("Empty or invalid json");
    const colNames = parsed.columns ?? Object.keys(rq.body as object);
    const cols = checkColumns(table, colNames);
    const where = whereParts(plainSrc);
    if (cols.length === 0) {
      mutationSql = `SELECT ${t}.* FROM ${target} WHERE false`;
    } else {
      const bodyParam = params.add(rq.bodyText, "json");
      mutationSql =
        `UPDATE ${target} SET ${cols.map((c) => `${q(c.name)} = pgrst_body.${q(c.name)}`).join(", ")} ` +
        `FROM (SELECT * FROM json_populate_record(null::${q(table.schema)}.${q(table.name)}, ${bodyParam})) AS pgrst_body` +
        (where.length ? ` WHERE ${where.join(" AND ")}` : "");
    }
  } else {
    kind = "delete";
    const where = whereParts(plainSrc);
    mutationSql = `DELETE FROM ${target}${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  }

  // what comes back
  const needRows = representation || headersOnly;
  const isSelectOnly = mutationSql.startsWith("SELECT");
  // an upsert tells inserted rows from updated ones (xmax is 0 on a freshly inserted row version)
  const upsert = conflict !== "" && !table.isView;
  const insertedCol = upsert ? `, (${t}.xmax = 0) AS pgrst_inserted` : "";
  const returning = isSelectOnly ? "" : needRows ? ` RETURNING ${t}.*${insertedCol}` : ` RETURNING 1${insertedCol}`;
  const insertedSql = upsert
    ? "(SELECT pg_catalog.count(*) FROM pgrst_source WHERE pgrst_inserted)::int8"
    : "null::int8";
  let bodySql: string;
  if (representation) {
    const built = buildSelect({
      cache: rq.cache,
      params,
      parsed: {
        ...parsed,
        filters: parsed.filters.filter((f) => f.path.length > 0),
        logic: parsed.logic.filter((l) => l.path.length > 0),
      },
      topRange: { offset: 0, limit: null },
      source: mutationSource(table),
      paginate: false,
    });
    bodySql = `SELECT ${insertedSql} AS inserted, pg_catalog.count(_postgrest_t)::int8 AS page_total, ${bodyExpr(rq.media)} AS body FROM (${built.sql}) _postgrest_t`;
  } else if (headersOnly) {
    const pk = table.pk.length ? table.pk : [];
    bodySql = `SELECT ${insertedSql} AS inserted, pg_catalog.count(*)::int8 AS page_total, (SELECT row_to_json(x)::text FROM (SELECT ${pk.length ? pk.map((c) => q(c)).join(", ") : "1 AS one"} FROM pgrst_source LIMIT 1) x) AS body FROM pgrst_source`;
  } else {
    bodySql = `SELECT ${insertedSql} AS inserted, pg_catalog.count(*)::int8 AS page_total, null::text AS body FROM pgrst_source`;
  }
  return { kind, sql: `WITH pgrst_source AS (${mutationSql}${returning}) ${bodySql}`, params };
}

function mutationSource(table: Table): Source {
  return {
    table,
    columns: table.columns,
    fromSql: `pgrst_source AS ${q(table.name)}`,
    alias: table.name,
    name: table.name,
  };
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
