/**
 * One REST request: identity, schema profile, parse, plan, run as the
 * request's role, and shape the response as PostgREST would.
 */
import type { Context } from "hono";
import type { Queryable } from "../db/types.ts";
import type { ServiceContext } from "../context.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import {
  BodyTooLargeError,
  checkQueryParam,
  parseJsonWithLimits,
  readBodyLimited,
  type LimitViolation,
} from "../http/limits.ts";
import { RestError, errors, fromPgError, isPgError } from "./errors.ts";
import { parsePrefer, parseQuery, parseRangeHeader, type ParsedQuery, type SelectItem } from "./parser.ts";
import {
  bodyExpr,
  negotiate,
  preferenceApplied,
  readStatus,
  contentRange,
  type Negotiated,
  type Prefs,
} from "./response.ts";
import { closest } from "./hints.ts";
import { type Column, type Routine, type SchemaCache, type Table, key, quoteIdent as q } from "./schema.ts";
import { Params, buildSelect, filterSql, logicSql, type Source } from "./sql.ts";

export interface HandlerEnv {
  ctx: ServiceContext;
  cache(): Promise<SchemaCache>;
}

type Reply = { status: number; headers: Record<string, string>; body: string | null };

/** Thrown inside the transaction to roll it back while still answering. */
class Rollback {
  constructor(readonly reply: Reply) {}
}

const JSON_CT = "application/json; charset=utf-8";

export function errorReply(e: RestError): Reply {
  return {
    status: e.status,
    headers: { "Content-Type": JSON_CT, ...e.headers },
    body: JSON.stringify(e.body()),
  };
}

export async function handleRequest(
  env: HandlerEnv,
  c: Context,
  kind: "table" | "rpc",
  name: string,
): Promise<Response> {
  let reply: Reply;
  try {
    reply = await process(env, c, kind, name);
  } catch (e) {
    if (e instanceof Rollback) reply = e.reply;
    else if (e instanceof RestError) reply = errorReply(e);
    else if (isPgError(e)) reply = errorReply(fromPgError(e, true));
    else {
      console.error("[rest] unexpected error:", e);
      reply = errorReply(errors.unexpected());
    }
  }
  const body = c.req.method === "HEAD" ? null : reply.body;
  return new Response(body, { status: reply.status, headers: reply.headers });
}

async function process(env: HandlerEnv, c: Context, kind: "table" | "rpc", name: string): Promise<Reply> {
  const { ctx } = env;
  const method = c.req.method.toUpperCase();
  if (kind === "rpc" && !["GET", "HEAD", "POST"].includes(method)) {
    throw errors.rpcMethod(method);
  }
  if (kind === "table" && !["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"].includes(method)) {
    throw errors.unsupportedMethod(method);
  }

  // who is calling
  const who = await resolveIdentity(c, ctx.keys);
  if (isIdentityError(who)) {
    if (who.reason === "expired") throw errors.jwt(401, "PGRST303", "JWT expired");
    if (who.reason === "role") throw errors.unknownRole(who.message);
    throw errors.jwt(401, "PGRST301", who.message);
  }
  const authed = who.role !== "anon";

  // which schema
  const exposed = ctx.config.rest.schemas.length ? ctx.config.rest.schemas : ["public"];
  const read = method === "GET" || method === "HEAD";
  const profileHeader = c.req.header(read ? "accept-profile" : "content-profile");
  const schema = profileHeader ?? exposed[0];
  if (!exposed.includes(schema)) throw errors.unacceptableSchema(schema, exposed);
  const negotiatedByProfile = profileHeader !== undefined;

  const url = new URL(c.req.url);
  const { limits } = ctx.config;
  const queryParams = [...url.searchParams.entries()];
  for (const [k, v] of queryParams) {
    const bad = checkQueryParam(k, v, limits);
    if (bad) throw overLimit("PGRST100", bad);
  }
  const parsed = parseQuery(queryParams, { isRpcRead: kind === "rpc" && read });
  const depth = embedDepth(parsed.select);
  if (depth > limits.embedDepth) {
    throw overLimit("PGRST100", {
      message: "The select parameter embeds resources too deeply",
      details: `Resources may be embedded at most ${limits.embedDepth} levels deep; this select embeds ${depth}`,
    });
  }
  const cache = await env.cache();
  const media = negotiate(c.req.header("accept"), { plan: cache.planEnabled, geoJsonFn: cache.geoJsonFn });
  const { prefs, invalid } = parsePrefer(c.req.header("prefer"));
  if (prefs.handling === "strict" && invalid.length) throw errors.invalidPreferences(invalid);

  // the body
  let bodyText: string | null = null;
  let body: unknown = undefined;
  if (method === "POST" || method === "PATCH" || method === "PUT") {
    let buf: Uint8Array;
    try {
      buf = await readBodyLimited(c.req.raw, ctx.config.maxBodyBytes);
    } catch (e) {
      if (e instanceof BodyTooLargeError) throw tooLarge(ctx.config.maxBodyBytes);
      throw e;
    }
    bodyText = new TextDecoder().decode(buf);
    const ct = (c.req.header("content-type") ?? "application/json").toLowerCase();
    if (bodyText.trim() === "") {
      body = kind === "rpc" ? {} : undefined;
      bodyText = kind === "rpc" ? "{}" : null;
    } else if (ct.includes("json") || ct.startsWith("*/*")) {
      const result = parseJsonWithLimits(bodyText, limits);
      if (result.ok) body = result.value;
      else if ("violation" in result) throw overLimit("PGRST102", result.violation);
      else throw errors.invalidBody("Empty or invalid json");
    } else if (ct.startsWith("application/x-www-form-urlencoded")) {
      const form = Object.fromEntries(new URLSearchParams(bodyText));
      for (const [k, v] of Object.entries(form)) {
        const bad = checkQueryParam(k, v, limits);
        if (bad) throw overLimit("PGRST102", bad);
      }
      body = form;
      bodyText = JSON.stringify(form);
    } else {
      throw errors.mediaType([ct]);
    }
    if (kind === "table" && body === undefined) throw errors.invalidBody("Empty or invalid json");
  }

  const reqCtx = {
    claims: who.claims,
    role: who.role,
    method,
    path: url.pathname.replace(/^.*\/rest\/v1/, "") || "/",
    headers: Object.fromEntries(
      [...c.req.raw.headers.entries()].filter(([k]) => k !== "authorization" && k !== "apikey"),
    ),
    statementTimeoutMs: ctx.config.rest.statementTimeout[who.role as "anon" | "authenticated" | "service_role"] ?? 0,
  };
  const rangeHeader = read ? parseRangeHeader(c.req.header("range")) : null;
  const rq: Req = {
    env,
    cache,
    schema,
    method,
    parsed,
    media,
    prefs,
    body,
    bodyText,
    rangeHeader,
    authed,
    negotiatedByProfile,
    name,
  };

  const run = async (fn: (tx: Queryable) => Promise<Reply>): Promise<Reply> => {
    try {
      return await ctx.db.asRequest(reqCtx, async (tx) => {
        if (read) await tx.query("set transaction read only");
        const r = await fn(tx);
        if (prefs.tx === "rollback") throw new Rollback(r);
        return r;
      });
    } catch (e) {
      if (isPgError(e) && !(e instanceof RestError)) throw fromPgError(e, authed);
      throw e;
    }
  };

  if (kind === "rpc") return run((tx) => callRoutine(rq, tx));
  const table = cache.tables.get(key(schema, name));
  if (!table) {
    const names = [...cache.tables.values()].filter((t) => t.schema === schema).map((t) => t.name);
    throw errors.tableNotFound(schema, name, closest(name, names));
  }
  if (read) return run((tx) => readTable(rq, tx, table));
  return run((tx) => mutate(rq, tx, table));
}

function tooLarge(limit: number) {
  return errors.payloadTooLarge(limit);
}

/** Input over a limit of stack/http/limits.ts: 400 with PostgREST's parse-error (PGRST100) or body (PGRST102) code. */
function overLimit(code: "PGRST100" | "PGRST102", v: LimitViolation) {
  return errors.overLimit(code, v.message, v.details ?? null);
}

/** How deeply a select embeds resources (iteratively: the parser already bounds it, this reads the limit). */
function embedDepth(items: SelectItem[]): number {
  let max = 0;
  const stack: [SelectItem[], number][] = [[items, 0]];
  while (stack.length) {
    const [list, depth] = stack.pop()!;
    for (const item of list) {
      if (item.type !== "embed") continue;
      max = Math.max(max, depth + 1);
      stack.push([item.children, depth + 1]);
    }
  }
  return max;
}

interface Req {
  env: HandlerEnv;
  cache: SchemaCache;
  schema: string;
  method: string;
  parsed: ParsedQuery;
  media: Negotiated;
  prefs: Prefs;
  body: unknown;
  bodyText: string | null;
  rangeHeader: { from: number; to: number | null } | null;
  authed: boolean;
  negotiatedByProfile: boolean;
  name: string;
}

function topRange(rq: Req): { offset: number; limit: number | null } {
  const maxRows = rq.env.ctx.config.rest.maxRows;
  const own = rq.parsed.ranges.get("") ?? { offset: 0, limit: null };
  let offset = own.offset;
  let limit = own.limit;
  if (rq.rangeHeader) {
    const { from, to } = rq.rangeHeader;
    if (to !== null && to < from)
      throw errors.invalidRange(
        "The lower boundary must be lower than or equal to the upper boundary in the Range header.",
      );
    // intersect [from, to] with [offset, offset+limit-1]
    const lo = Math.max(from, offset);
    const hiA = to;
    const hiB = limit !== null ? offset + limit - 1 : null;
    const hi = hiA === null ? hiB : hiB === null ? hiA : Math.min(hiA, hiB);
    offset = lo;
    limit = hi === null ? null : Math.max(0, hi - lo + 1);
  }
  if (maxRows > 0) limit = limit === null ? maxRows : Math.min(limit, maxRows);
  return { offset, limit };
}

function headersFor(rq: Req, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { ...extra };
  if (rq.negotiatedByProfile) h["Content-Profile"] = rq.schema;
  return h;
}

async function countTotal(
  rq: Req,
  tx: Queryable,
  exactSqlTotal: number | null,
  countSql: string,
  params: unknown[],
): Promise<number | null> {
  const mode = rq.prefs.count;
  if (!mode) return null;
  if (mode === "exact") return exactSqlTotal;
  const planned = await plannedRows(tx, countSql, params);
  if (mode === "planned") return planned;
  // estimated: exact up to max-rows, the planner's estimate beyond
  const maxRows = rq.env.ctx.config.rest.maxRows;
  if (exactSqlTotal !== null && (exactSqlTotal <= maxRows || planned < maxRows)) return exactSqlTotal;
  return planned;
}

async function plannedRows(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = rows[0]?.["QUERY PLAN"];
  const plan = typeof raw === "string" ? JSON.parse(raw) : raw;
  return Number((plan as { Plan: { "Plan Rows": number } }[])[0].Plan["Plan Rows"]);
}

/** explain(): the plan of the statement the request would run, in the asked format. */
async function explainReply(rq: Req, tx: Queryable, sql: string, params: unknown[]): Promise<Reply> {
  const plan = rq.media.plan!;
  const opts = [`FORMAT ${plan.format.toUpperCase()}`, ...plan.options.map((o) => o.toUpperCase())];
  const { rows } = await tx.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (${opts.join(", ")}) ${sql}`, params);
  const body =
    plan.format === "json"
      ? (() => {
          const raw = rows[0]?.["QUERY PLAN"];
          return typeof raw === "string" ? raw : JSON.stringify(raw);
        })()
      : rows.map((r) => String(r["QUERY PLAN"])).join("\n");
  return { status: 200, headers: headersFor(rq, { "Content-Type": rq.media.contentType }), body };
}

// ---------------------------------------------------------------- reads

async function readTable(rq: Req, tx: Queryable, table: Table): Promise<Reply> {
  const params = new Params();
  const range = topRange(rq);
  const src: Source = {
    table,
    columns: table.columns,
    fromSql: `${q(table.schema)}.${q(table.name)} AS ${q(table.name)}`,
    alias: table.name,
    name: table.name,
  };
  const built = buildSelect({
    cache: rq.cache,
    params,
    parsed: rq.parsed,
    topRange: range,
    source: src,
    paginate: true,
  });
  const wantExact = rq.prefs.count === "exact" || rq.prefs.count === "estimated";
  const sql =
    `WITH pgrst_source AS (${built.sql}) SELECT ` +
    `${wantExact ? `(SELECT pg_catalog.count(*) FROM (${built.countSql}) _pgrst_c)` : "null::int8"} AS total, ` +
    `pg_catalog.count(_postgrest_t)::int8 AS page_total, ${bodyExpr(rq.media)} AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`;
  if (rq.media.plan) return explainReply(rq, tx, sql, params.values);
  const { rows } = await tx.query<{ total: number | null; page_total: number; body: string }>(sql, params.values);
  const r = rows[0];
  const pageTotal = Number(r.page_total);
  const total = await countTotal(rq, tx, r.total === null ? null : Number(r.total), built.countSql, params.values);
  if (rq.media.media === "object" && pageTotal !== 1) throw errors.singularity(pageTotal);
  const { status, range: cr } = readStatus(range.offset, pageTotal, total);
  if (status === 416) {
    throw errors.invalidRange(`An offset of ${range.offset} was requested, but there are only ${total ?? 0} rows.`);
  }
  const pa = preferenceApplied(rq.prefs, ["count", "tx", "handling", "timezone"]);
  return {
    status,
    headers: headersFor(rq, {
      "Content-Type": rq.media.contentType,
      "Content-Range": cr,
      ...(pa ? { "Preference-Applied": pa } : {}),
    }),
    body: r.body,
  };
}

// ---------------------------------------------------------------- writes

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

async function mutate(rq: Req, tx: Queryable, table: Table): Promise<Reply> {
  const params = new Params();
  const { prefs, parsed } = rq;
  const t = q(table.name);
  const target = `${q(table.schema)}.${q(table.name)} AS ${t}`;
  const representation = prefs.return === "representation";
  const headersOnly = prefs.return === "headers-only";
  let mutationSql: string;
  let kind: "insert" | "update" | "delete" | "upsert-put";
  let conflict = "";

  const whereParts = (src: Source) => [
    ...parsed.filters.filter((f) => f.path.length === 0).map((f) => filterSql(src, f.filter, params)),
    ...parsed.logic.filter((l) => l.path.length === 0).map((l) => logicSql(src, l.tree, params)),
  ];
  const plainSrc: Source = { table, columns: table.columns, fromSql: target, alias: table.name, name: table.name };

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
  let built: ReturnType<typeof buildSelect> | null = null;
  if (representation) {
    built = buildSelect({
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
  const sql = `WITH pgrst_source AS (${mutationSql}${returning}) ${bodySql}`;
  if (rq.media.plan) return explainReply(rq, tx, sql, params.values);
  const { rows } = await tx.query<{ inserted: number | null; page_total: number; body: string | null }>(
    sql,
    params.values,
  );
  const pageTotal = Number(rows[0].page_total);
  const inserted = rows[0].inserted === null ? null : Number(rows[0].inserted);

  if (rq.media.media === "object" && (representation || kind !== "insert") && pageTotal !== 1)
    throw errors.singularity(pageTotal);
  if (
    prefs.handling === "strict" &&
    prefs.maxAffected !== undefined &&
    (kind === "update" || kind === "delete") &&
    pageTotal > prefs.maxAffected
  ) {
    throw errors.maxAffected(pageTotal);
  }
  const total = prefs.count ? pageTotal : null;
  const headers: Record<string, string> = {};
  let status: number;
  if (kind === "insert" || kind === "upsert-put") {
    headers["Content-Range"] = contentRange(1, 0, total);
    if (headersOnly && rows[0].body && table.pk.length) {
      const first = JSON.parse(rows[0].body) as Record<string, unknown>;
      const qs = table.pk.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(first[c]))}`).join("&");
      headers["Location"] = `/${table.name}?${qs}`;
    }
    // PostgREST: an upsert that inserted nothing answers 200; PUT answers 201 when it inserted
    if (kind === "upsert-put") status = representation ? (inserted ? 201 : 200) : 204;
    else status = inserted === 0 && prefs.resolution === "merge-duplicates" ? 200 : 201;
    const resolutionApplied = table.pk.length > 0 || parsed.onConflict !== null;
    const pa = preferenceApplied(resolutionApplied ? prefs : { ...prefs, resolution: undefined }, [
      "resolution",
      "missing",
      "return",
      "count",
      "tx",
      "handling",
      "timezone",
    ]);
    if (pa) headers["Preference-Applied"] = pa;
  } else {
    headers["Content-Range"] = kind === "update" ? contentRange(0, pageTotal - 1, total) : contentRange(1, 0, total);
    status = representation ? 200 : 204;
    const pa = preferenceApplied(prefs, ["return", "count", "tx", "handling", "timezone", "maxAffected"]);
    if (pa) headers["Preference-Applied"] = pa;
  }
  if (representation) {
    headers["Content-Type"] = rq.media.contentType;
    return { status, headers: headersFor(rq, headers), body: rows[0].body };
  }
  return { status, headers: headersFor(rq, headers), body: null };
}

// ---------------------------------------------------------------- rpc

/**
 * PostgREST's findProc: a function matches when the argument names cover its
 * required parameters and stay within its parameters; one with a single
 * unnamed json/jsonb parameter is the fallback for a JSON body. More than one
 * match is PGRST203 (candidates in the schema cache's order), none PGRST202.
 */
function chooseRoutine(rq: Req, argNames: string[], isPost: boolean): { routine: Routine; singleJson: boolean } {
  const candidates = rq.cache.routines.get(key(rq.schema, rq.name)) ?? [];
  const singleObject = rq.prefs.params === "single-object";
  const isJsonType = (t: string) => t === "json" || t === "jsonb";
  const keys = new Set(argNames);
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  const matchesParams = (r: Routine) => {
    if (r.params.length === 0) return keys.size === 0;
    const req = new Set(r.params.filter((p) => !p.hasDefault).map((p) => p.name));
    const opt = new Set(r.params.filter((p) => p.hasDefault).map((p) => p.name));
    if (opt.size === 0) return sameSet(keys, req);
    if (req.size === 0) return [...keys].every((k) => opt.has(k));
    return sameSet(new Set([...keys].filter((k) => !opt.has(k))), req);
  };
  const singleUnnamed = (r: Routine) =>
    isPost && r.params.length === 1 && r.params[0].name === "" && isJsonType(r.params[0].type);
  /** a single unnamed parameter takes the whole body (PostgREST's positional call) */
  const positional = (r: Routine) => r.params.length === 1 && r.params[0].name === "";
  const matched: Routine[] = [];
  const fallback: Routine[] = [];
  for (const r of candidates) {
    if (singleObject) {
      if (isPost && r.params.length === 1 && isJsonType(r.params[0].type)) matched.push(r);
      continue;
    }
    if (matchesParams(r)) matched.push(r);
    else if (singleUnnamed(r)) fallback.push(r);
  }
  const pick = (r: Routine) => ({ routine: r, singleJson: singleObject || positional(r) });
  const chosen = matched.length ? matched : fallback;
  if (chosen.length === 1) return pick(chosen[0]);
  if (chosen.length > 1) {
    throw errors.ambiguousFunction(
      chosen.map((r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(", ")})`),
    );
  }
  // not found: suggest other parameters of the same function, or a function of a similar name
  const paramList = (names: string[]) => `(${[...names].sort().join(", ")})`;
  const suggestion = candidates.length
    ? closest(
        paramList(argNames),
        candidates.map((r) => paramList(r.params.map((p) => p.name))),
        0.33,
      )
    : closest(
        rq.name,
        [...rq.cache.routines.values()]
          .flat()
          .filter((r) => r.schema === rq.schema)
          .map((r) => r.name),
      );
  throw errors.noFunction(rq.schema, rq.name, argNames, isPost, suggestion);
}

async function callRoutine(rq: Req, tx: Queryable): Promise<Reply> {
  const isPost = rq.method === "POST";
  let args: Record<string, unknown>;
  if (isPost) {
    if (rq.body === null || typeof rq.body !== "object" || Array.isArray(rq.body)) {
      if (rq.prefs.params !== "single-object") throw errors.invalidBody("Empty or invalid json");
    }
    args = (rq.body ?? {}) as Record<string, unknown>;
  } else {
    args = {};
    for (const [k, v] of rq.parsed.rpcParams) {
      // repeated keys make an array argument (PostgREST: ?v=1&v=2)
      if (k in args) args[k] = Array.isArray(args[k]) ? [...(args[k] as unknown[]), v] : [args[k], v];
      else args[k] = v;
    }
  }
  const argNames = isPost && Array.isArray(rq.body) ? [] : Object.keys(args);
  const { routine, singleJson } = chooseRoutine(rq, argNames, isPost);
  const params = new Params();
  const fnSql = `${q(routine.schema)}.${q(routine.name)}`;
  let callArgs: string;
  let argsFrom = "";
  if (singleJson) {
    const p0 = routine.params[0];
    const cast = ["json", "jsonb", "text", "xml", "bytea"].includes(p0.type) ? p0.type : "json";
    callArgs = params.add(isPost ? (rq.bodyText ?? "{}") : JSON.stringify(args), cast);
  } else {
    const used = routine.params.filter((p) => argNames.includes(p.name));
    if (used.length) {
      const argJson = isPost ? rq.bodyText : JSON.stringify(args);
      argsFrom = `json_to_record(${params.add(argJson, "json")}) AS pgrst_args(${used.map((p) => `${q(p.name)} ${p.typeSql}`).join(", ")})`;
      // GET arrays come as repeated params: pass them as a JSON array
      callArgs = used.map((p) => `${p.variadic ? "VARIADIC " : ""}${q(p.name)} := pgrst_args.${q(p.name)}`).join(", ");
    } else callArgs = "";
  }
  const call = `${fnSql}(${callArgs})`;
  const range = topRange(rq);
  const media = rq.media;

  if (routine.returnKind === "composite") {
    const table: Table = routine.returnTable ?? {
      schema: routine.schema,
      name: routine.name,
      kind: "table",
      isView: false,
      columns: routine.outColumns,
      pk: [],
      uniques: [],
      insertable: false,
      updatable: false,
      deletable: false,
    };
    const alias = routine.name;
    const fromSql = `${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call} AS ${q(alias)}`;
    const src: Source = { table, columns: routine.outColumns, fromSql, alias, name: routine.name };
    const built = buildSelect({
      cache: rq.cache,
      params,
      parsed: rq.parsed,
      topRange: range,
      source: src,
      paginate: true,
    });
    const wantExact = rq.prefs.count === "exact" || rq.prefs.count === "estimated";
    const kind = routine.returnsSet ? "rows" : "single-composite";
    const sql =
      `WITH pgrst_source AS (${built.sql}) SELECT ` +
      `${wantExact ? `(SELECT pg_catalog.count(*) FROM (${built.countSql}) _pgrst_c)` : "null::int8"} AS total, ` +
      `pg_catalog.count(_postgrest_t)::int8 AS page_total, ${bodyExpr(media, kind)} AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`;
    if (rq.media.plan) return explainReply(rq, tx, sql, params.values);
    const { rows } = await tx.query<{ total: number | null; page_total: number; body: string }>(sql, params.values);
    return rpcReply(rq, tx, routine, rows[0], range.offset, built.countSql, params.values);
  }

  if (routine.returnKind === "void") {
    await tx.query(
      `SELECT 1 FROM ${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call} AS pgrst_call`,
      params.values,
    );
    const pa = preferenceApplied(rq.prefs, ["count", "tx", "handling", "timezone", "maxAffected"]);
    if (rq.prefs.handling === "strict" && rq.prefs.maxAffected !== undefined) throw errors.maxAffectedRpc();
    return { status: 204, headers: headersFor(rq, pa ? { "Preference-Applied": pa } : {}), body: null };
  }

  // scalar or setof scalar
  if (rq.parsed.filters.length || rq.parsed.logic.length || rq.parsed.order.length) {
    // filters apply to the function's result column named like the function
  }
  const from = `${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call} AS pgrst_call(pgrst_scalar)`;
  const tail = routine.returnsSet
    ? `${range.limit !== null ? ` LIMIT ${Number(range.limit)}` : ""}${range.offset ? ` OFFSET ${Number(range.offset)}` : ""}`
    : "";
  const inner = `SELECT pgrst_call.pgrst_scalar FROM ${from}${tail}`;
  const wantExact = routine.returnsSet && (rq.prefs.count === "exact" || rq.prefs.count === "estimated");
  const bodyKind = routine.returnsSet ? "setof-scalar" : "scalar";
  const body =
    media.media === "csv"
      ? `coalesce(string_agg(_postgrest_t.pgrst_scalar::text, chr(10)), '')`
      : bodyExpr(media, bodyKind);
  const sql =
    `WITH pgrst_source AS (${inner}) SELECT ${wantExact ? `(SELECT pg_catalog.count(*) FROM ${from})` : "null::int8"} AS total, ` +
    `pg_catalog.count(_postgrest_t)::int8 AS page_total, ${body} AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`;
  if (rq.media.plan) return explainReply(rq, tx, sql, params.values);
  const { rows } = await tx.query<{ total: number | null; page_total: number; body: string }>(sql, params.values);
  return rpcReply(rq, tx, routine, rows[0], range.offset, `SELECT 1 FROM ${from}`, params.values);
}

async function rpcReply(
  rq: Req,
  tx: Queryable,
  routine: Routine,
  r: { total: number | null; page_total: number; body: string },
  offset: number,
  countSql: string,
  params: unknown[],
): Promise<Reply> {
  const pageTotal = Number(r.page_total);
  if (rq.prefs.handling === "strict" && rq.prefs.maxAffected !== undefined) {
    if (!routine.returnsSet) throw errors.maxAffectedRpc();
    if (pageTotal > rq.prefs.maxAffected) throw errors.maxAffected(pageTotal);
  }
  if (rq.media.media === "object" && routine.returnsSet && pageTotal !== 1) throw errors.singularity(pageTotal);
  // a function returning one value counts as one row (PostgREST counts the call's result rows)
  const total = routine.returnsSet
    ? await countTotal(rq, tx, r.total === null ? null : Number(r.total), countSql, params)
    : rq.prefs.count
      ? pageTotal
      : null;
  const { status, range } = readStatus(offset, pageTotal, total);
  if (status === 416)
    throw errors.invalidRange(`An offset of ${offset} was requested, but there are only ${total ?? 0} rows.`);
  const pa = preferenceApplied(rq.prefs, ["count", "tx", "handling", "timezone", "maxAffected"]);
  return {
    status,
    headers: headersFor(rq, {
      "Content-Type": rq.media.contentType,
      "Content-Range": range,
      ...(pa ? { "Preference-Applied": pa } : {}),
    }),
    body: r.body,
  };
}
