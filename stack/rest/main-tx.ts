/**
 * Runs a planned request's statement (PostgREST's MainTx): in one
 * transaction as the request's role with its claims and statement_timeout
 * (read only for reads), with the counts Prefer asks for (planned and
 * estimated ones from EXPLAIN), explain() in place of the statement when the
 * media type asks for the plan, and the checks that must undo a write
 * (singular answers, max-affected, a page beyond the end). `Prefer:
 * tx=rollback` answers as a commit would and rolls back.
 */
import { CallerRefusedError } from "../db/admission.ts";
import type { JwtClaims, Queryable } from "../db/types.ts";
import type { ServiceContext } from "../context.ts";
import type { ApiRequest } from "./api-request.ts";
import { RestError, errors, fromPgError, isPgError } from "./errors.ts";
import type { ActionPlan } from "./plan-types.ts";
import type { Statement } from "./query.ts";

/** What the statement answered. */
export type ResultSet =
  /** explain(): the plan, as text */
  | { kind: "plan"; body: string }
  /** a function returning void ran */
  | { kind: "void" }
  | { kind: "rows"; pageTotal: number; total: number | null; inserted: number | null; body: string | null };

/** The caller, as the identity check found it. */
export interface AuthResult {
  role: string;
  claims: JwtClaims;
  /** who the embedded database's admission holds back (absent: nobody) */
  caller?: string;
}

/** Thrown inside the transaction to roll it back while still answering. */
class Rollback {
  constructor(readonly result: ResultSet) {}
}

type Row = { total?: number | null; inserted?: number | null; page_total: number; body: string | null };

export async function runMainTx(
  ctx: ServiceContext,
  auth: AuthResult,
  req: ApiRequest,
  plan: ActionPlan,
  statement: Statement,
  preRequest: string | null = null,
): Promise<ResultSet> {
  const read = req.method === "GET" || req.method === "HEAD";
  const role = auth.role as "anon" | "authenticated" | "service_role";
  const requestContext = {
    claims: auth.claims,
    role: auth.role,
    method: req.method,
    path: req.path,
    headers: req.headers,
    statementTimeoutMs: ctx.config.rest.statementTimeout[role] ?? 0,
    caller: auth.caller,
  };
  try {
    return await ctx.db.asRequest(requestContext, async (tx) => {
      if (read) await tx.query("set transaction read only");
      // db-pre-request: in the request's own transaction, as its role, before the statement
      // (a RAISE there answers instead, e.g. RAISE SQLSTATE 'PGRST' with its own status)
      if (preRequest) await tx.query(`select ${preRequest}()`);
      const result = await execute(ctx, tx, req, plan, statement);
      if (req.prefs.tx === "rollback") throw new Rollback(result);
      return result;
    });
  } catch (e) {
    if (e instanceof Rollback) return e.result;
    if (e instanceof CallerRefusedError) {
      // class 53 is PostgREST's 503; Retry-After as a rate limit says it
      throw new RestError(503, e.code, e.message, e.detail, e.hint, { "Retry-After": String(e.retryAfterSeconds) });
    }
    if (isPgError(e) && !(e instanceof RestError)) throw fromPgError(e, auth.role !== "anon");
    throw e;
  }
}

async function execute(
  ctx: ServiceContext,
  tx: Queryable,
  req: ApiRequest,
  plan: ActionPlan,
  statement: Statement,
): Promise<ResultSet> {
  const { prefs, media } = req;
  const strictMax = prefs.handling === "strict" && prefs.maxAffected !== undefined;
  if (plan.kind === "call" && plan.result.kind === "void") {
    // a void function runs even when its plan was asked for
    await tx.query(statement.sql, statement.params);
    if (strictMax) throw errors.maxAffectedRpc();
    return { kind: "void" };
  }
  if (media.plan) return { kind: "plan", body: await explain(tx, req, statement) };
  const { rows } = await tx.query<Row>(statement.sql, statement.params);
  const row = rows[0];
  const pageTotal = Number(row.page_total);
  const number = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const result = { kind: "rows" as const, pageTotal, total: null, inserted: number(row.inserted), body: row.body };
  if (plan.kind === "mutate") {
    const { kind } = plan.mutate;
    const representation = prefs.return === "representation";
    if (media.media === "object" && (representation || kind !== "insert") && pageTotal !== 1)
      throw errors.singularity(pageTotal);
    if (strictMax && (kind === "update" || kind === "delete") && pageTotal > prefs.maxAffected!) {
      throw errors.maxAffected(pageTotal);
    }
    return { ...result, total: prefs.count ? pageTotal : null };
  }
  let total: number | null;
  if (plan.kind === "read") {
    total = await countTotal(ctx, tx, req, number(row.total), statement);
    if (media.media === "object" && pageTotal !== 1) throw errors.singularity(pageTotal);
  } else {
    const { returnsSet } = plan.call.routine;
    if (strictMax) {
      if (!returnsSet) throw errors.maxAffectedRpc();
      if (pageTotal > prefs.maxAffected!) throw errors.maxAffected(pageTotal);
    }
    if (media.media === "object" && returnsSet && pageTotal !== 1) throw errors.singularity(pageTotal);
    // a function returning one value counts as one row (PostgREST counts the call's result rows)
    total = returnsSet ? await countTotal(ctx, tx, req, number(row.total), statement) : prefs.count ? pageTotal : null;
  }
  // the 416 of readStatus (response.ts): a page that starts beyond the end
  if (total !== null && plan.offset > total) {
    throw errors.invalidRange(`An offset of ${plan.offset} was requested, but there are only ${total} rows.`);
  }
  return { ...result, total };
}

async function countTotal(
  ctx: ServiceContext,
  tx: Queryable,
  req: ApiRequest,
  exactTotal: number | null,
  statement: Statement,
): Promise<number | null> {
  const mode = req.prefs.count;
  if (!mode) return null;
  if (mode === "exact") return exactTotal;
  const planned = await plannedRows(tx, statement.countSql, statement.params);
  if (mode === "planned") return planned;
  // estimated: exact up to max-rows, the planner's estimate beyond
  const maxRows = ctx.config.rest.maxRows;
  if (exactTotal !== null && (exactTotal <= maxRows || planned < maxRows)) return exactTotal;
  return planned;
}

async function plannedRows(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = rows[0]?.["QUERY PLAN"];
  const plan = typeof raw === "string" ? JSON.parse(raw) : raw;
  return Number((plan as { Plan: { "Plan Rows": number } }[])[0].Plan["Plan Rows"]);
}

/** explain(): the plan of the statement the request would run, in the asked format. */
async function explain(tx: Queryable, req: ApiRequest, statement: Statement): Promise<string> {
  const plan = req.media.plan!;
  const options = [`FORMAT ${plan.format.toUpperCase()}`, ...plan.options.map((o) => o.toUpperCase())];
  const { rows } = await tx.query<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (${options.join(", ")}) ${statement.sql}`,
    statement.params,
  );
  if (plan.format !== "json") return rows.map((r) => String(r["QUERY PLAN"])).join("\n");
  const raw = rows[0]?.["QUERY PLAN"];
  return typeof raw === "string" ? raw : JSON.stringify(raw);
}
