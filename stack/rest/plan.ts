/**
 * The plan of a request (PostgREST's Plan.actionPlan): the table or the
 * function it names, the page it reads (the Range header and limit/offset,
 * within max-rows), and the read, write or call planned by plan-read.ts,
 * plan-mutate.ts and plan-call.ts. Every PGRST error a request can earn
 * before it runs is raised while planning.
 */
import type { ApiRequest } from "./api-request.ts";
import { errors } from "./errors.ts";
import { closest } from "./hints.ts";
import type { Range } from "./parser.ts";
import { planCall, planCallResult } from "./plan-call.ts";
import { tableScope } from "./plan-fields.ts";
import { planMutate } from "./plan-mutate.ts";
import { planRead } from "./plan-read.ts";
import type { ActionPlan } from "./plan-types.ts";
import { type SchemaCache, type Table, key } from "./schema.ts";

export function actionPlan(req: ApiRequest, cache: SchemaCache, maxRows: number): ActionPlan {
  if (req.action.kind === "call") {
    const call = planCall(cache, req);
    const range = topRange(req, maxRows);
    return { kind: "call", call, result: planCallResult(cache, req, call, range), offset: range.offset };
  }
  const table = findTable(cache, req.schema, req.target);
  if (req.action.kind === "mutate") return { kind: "mutate", table, mutate: planMutate(cache, req, table) };
  const range = topRange(req, maxRows);
  const exactCount = req.prefs.count === "exact" || req.prefs.count === "estimated";
  const from = { kind: "relation", relation: { schema: table.schema, name: table.name } } as const;
  const node = planRead(cache, from, tableScope(table), req.query, range);
  return { kind: "read", table, page: { node, shape: "rows", exactCount }, offset: range.offset };
}

function findTable(cache: SchemaCache, schema: string, name: string): Table {
  const table = cache.tables.get(key(schema, name));
  if (table) return table;
  const names = [...cache.tables.values()].filter((t) => t.schema === schema).map((t) => t.name);
  throw errors.tableNotFound(schema, name, closest(name, names));
}

/** The top level's page: limit/offset intersected with the Range header, within max-rows. */
function topRange(req: ApiRequest, maxRows: number): Range {
  const own = req.query.ranges.get("") ?? { offset: 0, limit: null };
  let offset = own.offset;
  let limit = own.limit;
  if (req.rangeHeader) {
    const { from, to } = req.rangeHeader;
    if (to !== null && to < from)
      throw errors.invalidRange(
        "The lower boundary must be lower than or equal to the upper boundary in the Range header.",
      );
    // intersect [from, to] with [offset, offset+limit-1]
    const lo = Math.max(from, offset);
    const hiB = limit !== null ? offset + limit - 1 : null;
    const hi = to === null ? hiB : hiB === null ? to : Math.min(to, hiB);
    offset = lo;
    limit = hi === null ? null : Math.max(0, hi - lo + 1);
  }
  if (maxRows > 0) limit = limit === null ? maxRows : Math.min(limit, maxRows);
  return { offset, limit };
}
