/**
 * One REST request: identity, schema profile, parse, plan, run as the
 * request's role, and shape the response as PostgREST would.
 *
 * Slightly over 400 lines on purpose: what remains is the request's path from
 * top to bottom (the SQL lives in write.ts, rpc.ts and sql.ts), and it reads
 * best in one place.
 */
import type { Context } from "hono";
import type { Queryable } from "../db/types.ts";
import type { ServiceContext } from "../context.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import { checkQueryParam } from "../http/limits.ts";
import { readBody } from "./body.ts";
import { RestError, errors, fromPgError, isPgError, limitError } from "./errors.ts";
import { embedDepth } from "./parse-select.ts";
import { parseQuery, type ParsedQuery } from "./parser.ts";
import { parsePrefer, parseRangeHeader } from "./prefer.ts";
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
import { type Routine, type SchemaCache, type Table, key } from "./schema.ts";
import { buildCall, resolveCall } from "./rpc.ts";
import { Params, tableSource } from "./sql-source.ts";
import { buildPageRead } from "./sql.ts";
import { buildWrite } from "./write.ts";

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
    if (bad) throw limitError("PGRST100", bad);
  }
  const parsed = parseQuery(queryParams, { isRpcRead: kind === "rpc" && read });
  const depth = embedDepth(parsed.select);
  if (depth > limits.embedDepth) {
    throw limitError("PGRST100", {
      message: "The select parameter embeds resources too deeply",
      details: `Resources may be embedded at most ${limits.embedDepth} levels deep; this select embeds ${depth}`,
    });
  }
  const cache = await env.cache();
  const media = negotiate(c.req.header("accept"), { plan: cache.planEnabled, geoJsonFn: cache.geoJsonFn });
  const { prefs, invalid } = parsePrefer(c.req.header("prefer"));
  if (prefs.handling === "strict" && invalid.length) throw errors.invalidPreferences(invalid);

  const { body, bodyText } =
    method === "POST" || method === "PATCH" || method === "PUT"
      ? await readBody(c.req.raw, kind, ctx.config.maxBodyBytes, limits)
      : { body: undefined, bodyText: null };

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
  const wantExact = rq.prefs.count === "exact" || rq.prefs.count === "estimated";
  const { sql, countSql } = buildPageRead(
    { cache: rq.cache, params, parsed: rq.parsed, topRange: range, source: tableSource(table) },
    bodyExpr(rq.media),
    wantExact,
  );
  if (rq.media.plan) return explainReply(rq, tx, sql, params.values);
  const { rows } = await tx.query<{ total: number | null; page_total: number; body: string }>(sql, params.values);
  const r = rows[0];
  const pageTotal = Number(r.page_total);
  const total = await countTotal(rq, tx, r.total === null ? null : Number(r.total), countSql, params.values);
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

async function mutate(rq: Req, tx: Queryable, table: Table): Promise<Reply> {
  const { prefs, parsed } = rq;
  const representation = prefs.return === "representation";
  const headersOnly = prefs.return === "headers-only";
  const { kind, sql, params } = buildWrite(rq, table);
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

async function callRoutine(rq: Req, tx: Queryable): Promise<Reply> {
  const resolved = resolveCall(rq);
  const range = topRange(rq);
  const statement = buildCall(rq, resolved, range);
  const { params } = statement;
  if (statement.returns === "void") {
    await tx.query(statement.sql, params.values);
    if (rq.prefs.handling === "strict" && rq.prefs.maxAffected !== undefined) throw errors.maxAffectedRpc();
    const pa = preferenceApplied(rq.prefs, ["count", "tx", "handling", "timezone", "maxAffected"]);
    return { status: 204, headers: headersFor(rq, pa ? { "Preference-Applied": pa } : {}), body: null };
  }
  if (rq.media.plan) return explainReply(rq, tx, statement.sql, params.values);
  const { rows } = await tx.query<{ total: number | null; page_total: number; body: string }>(
    statement.sql,
    params.values,
  );
  return rpcReply(rq, tx, resolved.routine, rows[0], range.offset, statement.countSql, params.values);
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
