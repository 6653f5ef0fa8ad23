/**
 * The plan of a read (PostgREST's readPlan): the select tree as levels, each
 * with its outputs, the joins of its embeds (aliases, junctions, spreads,
 * empty embeds), its conditions, its order (related orders through to-one
 * embeds) and its page. Relationships are found for the whole tree first
 * (plan-relationships.ts), then each level is planned depth first, then
 * every filter, order and limit path is checked against the embeds: the
 * errors come in that order, as they always have here.
 *
 * Aliases follow PostgREST's: an embedded relation is `<target>_<depth>`,
 * its join `<source>_<name>_<depth>` (so the same unaliased embed twice fails
 * as in PostgREST, with 42712); junctions and related orders are numbered
 * in the order they are planned.
 */
import { errors } from "./errors.ts";
import type { Filter, OrderTerm as OrderItem } from "./parse-filters.ts";
import type { SelectEmbed, SelectField, SelectItem } from "./parse-select.ts";
import type { ParsedQuery, Range } from "./parser.ts";
import { type Scope, planFilter, planLogic, resolveField, rowValue } from "./plan-fields.ts";
import { type EmbedTree, relationshipsOf } from "./plan-relationships.ts";
import type { Condition, Equality, From, Join, OrderTerm, Output, ReadNode } from "./plan-types.ts";
import type { Relationship, SchemaCache } from "./schema.ts";

/** The state of one read's planning. */
interface Planner {
  cache: SchemaCache;
  query: ParsedQuery;
  /** numbers the aliases of junctions and related orders */
  counter: number;
  /** the embed paths of the select ("" for the top), for the paths of filters, orders and limits */
  usedPaths: Set<string>;
}

/** What the parent knows of an embed: for filters on its name and orders through it. */
interface EmbedInfo {
  rel: Relationship;
  join: string;
  toOne: boolean;
  aggregate: string;
}

/** Plans a read of `from` (seen as `scope`), with `page` as the top level's LIMIT/OFFSET (null: none). */
export function planRead(
  cache: SchemaCache,
  from: From,
  scope: Scope,
  query: ParsedQuery,
  page: Range | null,
): ReadNode {
  const embeds = relationshipsOf(cache, scope.table, query.select);
  const planner: Planner = { cache, query, counter: 0, usedPaths: new Set([""]) };
  const node = planLevel(planner, { from, scope, embeds, path: [], select: query.select }, page);
  // every filter/order/limit path must name an embedded resource of this request
  for (const f of query.filters) checkPath(f.path, planner.usedPaths);
  for (const l of query.logic) checkPath(l.path, planner.usedPaths);
  for (const o of query.order) checkPath(o.path, planner.usedPaths);
  for (const r of query.ranges.keys()) if (r) checkPath(r.split("."), planner.usedPaths);
  return node;
}

function checkPath(path: string[], used: Set<string>) {
  if (path.length === 0) return;
  if (!used.has(path.join("."))) throw errors.notEmbedded(path[path.length - 1]);
}

interface Level {
  from: From;
  scope: Scope;
  embeds: EmbedTree;
  path: string[];
  select: SelectItem[];
  junction?: ReadNode["junction"];
}

/** One level; `page` is the top level's (undefined below it, where the query string's limit/offset apply). */
function planLevel(p: Planner, level: Level, page?: Range | null): ReadNode {
  const top = page !== undefined;
  const select: Output[] = [];
  const joins: Join[] = [];
  const aggregates = new Set<Output>();
  const byName = new Map<string, EmbedInfo>();
  for (const item of level.select) {
    if (item.type === "field") {
      for (const out of fieldOutputs(p, level.scope, item, top)) {
        if (out.kind === "count" || (out.kind === "field" && out.agg)) aggregates.add(out);
        select.push(out);
      }
      continue;
    }
    const planned = planEmbed(p, level, item);
    joins.push(planned.join);
    select.push(...planned.outputs);
    byName.set(item.alias ?? item.name, planned.info);
  }
  const same = (q: string[]) => q.length === level.path.length && q.every((x, i) => x === level.path[i]);
  const where = [
    ...p.query.filters.filter((f) => same(f.path)).map((f) => levelFilter(level.scope, f.filter, byName)),
    ...p.query.logic.filter((l) => same(l.path)).map((l) => planLogic(level.scope, l.tree)),
  ];
  const order = p.query.order
    .filter((o) => same(o.path))
    .flatMap((o) => o.terms)
    .map((t) => orderTerm(p, level.scope, t, byName));
  return {
    from: level.from,
    alias: level.scope.alias,
    junction: level.junction,
    select,
    joins,
    where,
    order,
    groupBy: aggregates.size ? select.flatMap((o, i) => (aggregates.has(o) ? [] : [i + 1])) : [],
    range: top ? page : (p.query.ranges.get(level.path.join(".")) ?? null),
  };
}

/** The outputs of one field of the select (`*` is every column, in order). */
function fieldOutputs(p: Planner, scope: Scope, item: SelectField, top: boolean): Output[] {
  if (item.field.name === "*" && !item.agg) {
    const cols = [...scope.columns.values()].sort((a, b) => a.position - b.position);
    return cols.map((c) => ({ kind: "field", field: resolveField(scope, { name: c.name, json: [] }), name: c.name }));
  }
  // rel(count): the row count of an embedded resource (predates, and is not gated like, aggregates)
  const isCount = item.field.name === "count" && !item.agg && !item.cast && item.field.json.length === 0;
  if (!top && isCount && !scope.columns.has("count")) return [{ kind: "count", name: item.alias ?? "count" }];
  const field = item.field.name === "*" ? "*" : resolveField(scope, item.field);
  const cast = item.cast ? castSql(p.cache, item.cast) : undefined;
  if (item.agg && !p.cache.aggregatesEnabled) throw errors.aggregatesNotAllowed();
  const aggCast = item.agg && item.aggCast ? castSql(p.cache, item.aggCast) : undefined;
  return [{ kind: "field", field, cast, agg: item.agg, aggCast, name: outputName(item) }];
}

function castSql(cache: SchemaCache, name: string): string {
  const t = cache.types.get(name.toLowerCase());
  if (!t) throw errors.undefinedType(name);
  return t;
}

function outputName(item: SelectField): string {
  if (item.alias) return item.alias;
  if (item.agg) return item.agg;
  for (let i = item.field.json.length - 1; i >= 0; i--) if (!item.field.json[i].index) return item.field.json[i].key;
  return item.field.name;
}

/** An embed that selects nothing (`users()`), nor do its embeds: it only filters, its key is left out. */
function isEmptyEmbed(item: SelectEmbed): boolean {
  return item.children.every((c) => c.type === "embed" && isEmptyEmbed(c));
}

/** An embedded resource: its level, the join that brings it in, and the outputs it adds to its parent. */
function planEmbed(p: Planner, parent: Level, item: SelectEmbed): { join: Join; outputs: Output[]; info: EmbedInfo } {
  const { rel, embeds } = parent.embeds.get(item)!;
  const path = [...parent.path, item.alias ?? item.name];
  p.usedPaths.add(path.join("."));
  const depth = path.length;
  const alias = `${rel.target.name}_${depth}`;
  const from: From = rel.computedFn
    ? { kind: "computed", fn: rel.computedFn, row: rowValue(parent.scope) }
    : { kind: "relation", relation: { schema: rel.target.schema, name: rel.target.name } };
  const on: Equality[] = [];
  let junction: Level["junction"];
  if (rel.computedFn) {
    // the function's argument is the join
  } else if (rel.cardinality === "m2m") {
    const j = rel.junction!;
    const jAlias = `${j.table.name}_${++p.counter}`;
    junction = {
      relation: { schema: j.table.schema, name: j.table.name },
      alias: jAlias,
      on: j.targetCols.map(([jc, tc]) => [
        [jAlias, jc],
        [alias, tc],
      ]),
    };
    for (const [jc, sc] of j.sourceCols)
      on.push([
        [jAlias, jc],
        [parent.scope.alias, sc],
      ]);
  } else {
    for (const [sc, tc] of rel.cols)
      on.push([
        [alias, tc],
        [parent.scope.alias, sc],
      ]);
  }
  const scope: Scope = { table: rel.target, columns: rel.target.columns, alias, name: rel.target.name };
  const node = planLevel(p, { from, scope, embeds, path, select: item.children, junction });
  const joinAlias = `${parent.scope.table.name}_${item.alias ?? item.name}_${depth}`;
  const toOne = rel.cardinality === "m2o" || rel.cardinality === "o2o";
  const mode = toOne ? "to-one" : item.spread ? "spread-many" : "to-many";
  const join: Join = {
    mode,
    inner: item.join === "inner",
    alias: joinAlias,
    rowsAlias: `${alias}_rows`,
    aggregate: `${alias}_agg`,
    on,
    node,
  };
  const name = item.alias ?? item.name;
  const spread = (): Output[] => node.select.map((o) => ({ kind: "spread", join: joinAlias, name: o.name }));
  const empty = !item.spread && isEmptyEmbed(item);
  const outputs: Output[] = item.spread
    ? spread()
    : empty
      ? [] // joined for its filters only
      : [{ kind: "embed", join: joinAlias, as: toOne ? "object" : "array", aggregate: join.aggregate, name }];
  return { join, outputs, info: { rel, join: joinAlias, toOne, aggregate: toOne ? "" : join.aggregate } };
}

/** A filter of a level; one on an embedded resource's name is an is-null test on it. */
function levelFilter(scope: Scope, f: Filter, embeds: Map<string, EmbedInfo>): Condition {
  const embed = f.field.json.length === 0 && !scope.columns.has(f.field.name) ? embeds.get(f.field.name) : undefined;
  if (!embed) return planFilter(scope, f);
  if (f.operation.kind !== "is" || (f.operation.value !== "null" && f.operation.value !== "not_null")) {
    throw errors.unacceptableFilter(f.field.name);
  }
  const isNull = (f.operation.value === "null") !== f.negate;
  return { kind: "embed-null", join: embed.join, toOne: embed.toOne, aggregate: embed.aggregate, isNull };
}

/** One order term; a related one (`rel(col)`) reads a to-one embed's column by a subquery. */
function orderTerm(p: Planner, scope: Scope, term: OrderItem, embeds: Map<string, EmbedInfo>): OrderTerm {
  const dir = term.dir === "desc" ? "DESC" : term.dir === "asc" ? "ASC" : undefined;
  const nulls = term.nulls === "first" ? "FIRST" : term.nulls === "last" ? "LAST" : undefined;
  if (!term.relation) return { by: { kind: "field", field: resolveField(scope, term.field) }, dir, nulls };
  const embed = embeds.get(term.relation);
  if (!embed) throw errors.notEmbedded(term.relation);
  if (!embed.toOne || embed.rel.computedFn) throw errors.relatedOrderNotToOne(scope.name, term.relation);
  const t = embed.rel.target;
  const alias = `${t.name}_o${++p.counter}`;
  const field = resolveField({ table: t, columns: t.columns, alias, name: t.name }, term.field);
  const on: Equality[] = embed.rel.cols.map(([sc, tc]) => [
    [alias, tc],
    [scope.alias, sc],
  ]);
  return { by: { kind: "related", field, relation: { schema: t.schema, name: t.name }, alias, on }, dir, nulls };
}
