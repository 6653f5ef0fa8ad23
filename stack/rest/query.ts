/**
 * The statement of a planned request (PostgREST's Query / Statements), as
 * PostgREST prints it: one statement answering one row of `total` (all rows,
 * when an exact count is wanted), `page_total` (the rows answered),
 * `inserted` (the rows an upsert inserted) and `body` (the answer's text,
 * aggregated inside Postgres in the negotiated media type). A read or a
 * function's rows are the CTE `pgrst_source`; a write is the CTE with its
 * RETURNING. Reads of levels are printed by query-read.ts.
 */
import type { Negotiated } from "./media.ts";
import type { ActionPlan, BodyShape, MutatePlan, PagePlan } from "./plan-types.ts";
import { Params, callFrom, condition, printLevel } from "./query-read.ts";
import { quoteIdent as q } from "./schema.ts";

export interface Statement {
  sql: string;
  params: unknown[];
  /** the same rows without paging, for a planned count (`SELECT 1 FROM …`) */
  countSql: string;
}

export function mainQuery(plan: ActionPlan, media: Negotiated): Statement {
  const params = new Params();
  switch (plan.kind) {
    case "read":
      return { ...page(plan.page, media, params), params: params.values };
    case "mutate":
      return { sql: mutateQuery(plan.mutate, media, params), countSql: "", params: params.values };
    case "call":
      return { ...callQuery(plan, media, params), params: params.values };
  }
}

/**
 * The statement that reads one page: `source` in the CTE pgrst_source, and
 * one row of `total` (the count of the rows of `countFrom` when an exact
 * count is wanted, else null), `page_total` and `body` (an expression over
 * the page's rows, _postgrest_t).
 */
function pageStatement(source: string, body: string, countFrom: string | null): string {
  return (
    `WITH pgrst_source AS (${source}) SELECT ` +
    `${countFrom ? `(SELECT pg_catalog.count(*) FROM ${countFrom})` : "null::int8"} AS total, ` +
    `pg_catalog.count(_postgrest_t)::int8 AS page_total, ${body} AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`
  );
}

function page(p: PagePlan, media: Negotiated, params: Params): { sql: string; countSql: string } {
  const level = printLevel(p.node, params);
  const sql = pageStatement(level.sql, bodyExpr(media, p.shape), p.exactCount ? `(${level.countSql}) _pgrst_c` : null);
  return { sql, countSql: level.countSql };
}

/** The SQL expression producing the body text over rows `_postgrest_t` of `pgrst_source`. */
export function bodyExpr(n: Negotiated, shape: BodyShape = "rows"): string {
  const strip = (e: string) => (n.stripNulls ? `json_strip_nulls(${e})` : e);
  if (n.media === "geojson" && n.geoJsonFn) {
    return `json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(${n.geoJsonFn}(_postgrest_t)::json), '[]'))::text`;
  }
  if (n.media === "csv") {
    return (
      `(SELECT coalesce(string_agg(a.k, ','), '') FROM (SELECT json_object_keys(r)::text AS k FROM (SELECT row_to_json(hh) AS r FROM pgrst_source AS hh LIMIT 1) s) a)` +
      ` || chr(10) || coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), chr(10)), '')`
    );
  }
  const first = (agg: string) => `coalesce((${strip(agg)}->0)::text, 'null')`;
  if (shape === "scalar") return first("json_agg(_postgrest_t.pgrst_scalar)");
  if (shape === "setof-scalar") {
    return n.media === "object"
      ? first("json_agg(_postgrest_t.pgrst_scalar)")
      : `coalesce(${strip("json_agg(_postgrest_t.pgrst_scalar)")}, '[]')::text`;
  }
  if (n.media === "object" || shape === "single-composite") return first("json_agg(_postgrest_t)");
  return `coalesce(${strip("json_agg(_postgrest_t)")}, '[]')::text`;
}

function callQuery(
  plan: Extract<ActionPlan, { kind: "call" }>,
  media: Negotiated,
  params: Params,
): { sql: string; countSql: string } {
  const result = plan.result;
  if (result.kind === "composite") return page(result.page, media, params);
  const call = { kind: "call", call: plan.call } as const;
  if (result.kind === "void") return { sql: `SELECT 1 FROM ${callFrom(call, params)} AS pgrst_call`, countSql: "" };
  // a scalar, or a set of scalars
  const from = `${callFrom(call, params)} AS pgrst_call(pgrst_scalar)`;
  const { limit, offset } = result.range;
  const tail = `${limit !== null ? ` LIMIT ${Number(limit)}` : ""}${offset ? ` OFFSET ${Number(offset)}` : ""}`;
  const body =
    media.media === "csv"
      ? `coalesce(string_agg(_postgrest_t.pgrst_scalar::text, chr(10)), '')`
      : bodyExpr(media, result.shape);
  const sql = pageStatement(
    `SELECT pgrst_call.pgrst_scalar FROM ${from}${tail}`,
    body,
    result.exactCount ? from : null,
  );
  return { sql, countSql: `SELECT 1 FROM ${from}` };
}

/** A write in the CTE pgrst_source with its RETURNING, and the select over it that answers. */
function mutateQuery(m: MutatePlan, media: Negotiated, params: Params): string {
  const t = q(m.table.name);
  const mutation = mutationSql(m, params);
  const selectOnly = m.kind === "update" && m.columns.length === 0;
  const insertedCol = m.countInserted ? `, (${t}.xmax = 0) AS pgrst_inserted` : "";
  const returning = selectOnly ? "" : ` RETURNING ${m.returnRows ? `${t}.*` : "1"}${insertedCol}`;
  const inserted = m.countInserted
    ? "(SELECT pg_catalog.count(*) FROM pgrst_source WHERE pgrst_inserted)::int8"
    : "null::int8";
  let answer: string;
  if (m.result.kind === "representation") {
    const level = printLevel(m.result.node, params);
    answer = `SELECT ${inserted} AS inserted, pg_catalog.count(_postgrest_t)::int8 AS page_total, ${bodyExpr(media)} AS body FROM (${level.sql}) _postgrest_t`;
  } else if (m.result.kind === "headers-only") {
    const pk = m.result.pk.length ? m.result.pk.map((c) => q(c)).join(", ") : "1 AS one";
    answer = `SELECT ${inserted} AS inserted, pg_catalog.count(*)::int8 AS page_total, (SELECT row_to_json(x)::text FROM (SELECT ${pk} FROM pgrst_source LIMIT 1) x) AS body FROM pgrst_source`;
  } else {
    answer = `SELECT ${inserted} AS inserted, pg_catalog.count(*)::int8 AS page_total, null::text AS body FROM pgrst_source`;
  }
  return `WITH pgrst_source AS (${mutation}${returning}) ${answer}`;
}

function mutationSql(m: MutatePlan, params: Params): string {
  const type = `${q(m.table.schema)}.${q(m.table.name)}`;
  const target = `${type} AS ${q(m.table.name)}`;
  const where = m.where.length ? ` WHERE ${m.where.map((c) => condition(c, params)).join(" AND ")}` : "";
  if (m.kind === "delete") return `DELETE FROM ${target}${where}`;
  if (m.kind === "update") {
    if (m.columns.length === 0) return `SELECT ${q(m.table.name)}.* FROM ${target} WHERE false`;
    const sets = m.columns.map((c) => `${q(c.name)} = pgrst_body.${q(c.name)}`).join(", ");
    return (
      `UPDATE ${target} SET ${sets} ` +
      `FROM (SELECT * FROM json_populate_record(null::${type}, ${params.add(m.body, "json")})) AS pgrst_body${where}`
    );
  }
  const body = params.add(m.body, "json");
  const rows = `(CASE WHEN json_typeof(${body}) = 'array' THEN ${body} ELSE json_build_array(${body}) END)`;
  const conflict = !m.conflict
    ? ""
    : ` ON CONFLICT (${m.conflict.columns.map((c) => q(c)).join(", ")}) ${
        m.conflict.update
          ? `DO UPDATE SET ${m.columns.map((c) => `${q(c.name)} = EXCLUDED.${q(c.name)}`).join(", ")}`
          : "DO NOTHING"
      }`;
  if (m.columns.length === 0) return `INSERT INTO ${target} SELECT FROM json_array_elements(${rows})${conflict}`;
  const columns = m.columns.map((c) => `pgrst_body.${q(c.name)}`).join(", ");
  let select: string;
  if (m.defaults) {
    const defaults = m.defaults.map(([name, sql]) => `'${name.replace(/'/g, "''")}', ${sql}`);
    const defsObj = defaults.length ? `jsonb_build_object(${defaults.join(", ")})` : `'{}'::jsonb`;
    select = `SELECT ${columns} FROM jsonb_array_elements(${rows}::jsonb) AS pgrst_elem, LATERAL jsonb_populate_record(null::${type}, ${defsObj} || pgrst_elem) AS pgrst_body`;
  } else {
    select = `SELECT ${columns} FROM json_populate_recordset(null::${type}, ${rows}) AS pgrst_body`;
  }
  return `INSERT INTO ${target} (${m.columns.map((c) => q(c.name)).join(", ")}) ${select}${conflict}`;
}
