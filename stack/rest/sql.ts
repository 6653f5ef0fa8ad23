/**
 * Builds the SQL of a read (of a table, of a function's rows, or of what a
 * write returned) from the parsed query and its plan (plan.ts): the select
 * list with embeds as JSON subqueries, conditions (sql-filters.ts), order
 * and pagination. Identifiers come only from the schema cache (quoted);
 * every value from the URL or the body is a bound parameter. JSON is built
 * inside SQL so values keep Postgres' JSON representation.
 */
import { errors } from "./errors.ts";
import type { Filter, LogicTree, OrderTerm } from "./parse-filters.ts";
import type { SelectEmbed, SelectField, SelectItem } from "./parse-select.ts";
import type { ParsedQuery, Range } from "./parser.ts";
import { type ReadPlanNode, planRead } from "./plan.ts";
import { type Relationship, type SchemaCache, quoteIdent as q } from "./schema.ts";
import { filterSql, logicSql } from "./sql-filters.ts";
import { Params, colExpr, rowOf, type Source } from "./sql-source.ts";

export interface Level {
  path: string[];
  filters: Filter[];
  logic: LogicTree[];
  order: OrderTerm[];
  range: Range | null;
  embedFilters: { name: string; filter: Filter }[];
}

/** Everything the parsed query says about one embed path. */
function levelFor(parsed: ParsedQuery, path: string[]): Level {
  const same = (p: string[]) => p.length === path.length && p.every((x, i) => x === path[i]);
  const filters: Filter[] = [];
  const embedFilters: { name: string; filter: Filter }[] = [];
  for (const f of parsed.filters) {
    if (same(f.path)) filters.push(f.filter);
  }
  return {
    path,
    filters,
    logic: parsed.logic.filter((l) => same(l.path)).map((l) => l.tree),
    order: parsed.order.filter((o) => same(o.path)).flatMap((o) => o.terms),
    range: parsed.ranges.get(path.join(".")) ?? null,
    embedFilters,
  };
}

export interface BuildOptions {
  cache: SchemaCache;
  params: Params;
  parsed: ParsedQuery;
  /** top-level limit/offset after Range header and max-rows */
  topRange: { offset: number; limit: number | null };
  /** the relation to read from at the top */
  source: Source;
  /** include the order/limit/offset of the top level (not for mutations) */
  paginate: boolean;
}

export interface BuiltSelect {
  /** `select … from … where … order … limit …` producing one row per result row */
  sql: string;
  /** `select 1 from … where …` (no pagination) for counting */
  countSql: string;
  /** output column names in order */
  outputs: string[];
  hasAggregates: boolean;
}

/** State of one buildSelect call: a counter for the aliases of helper relations. */
interface BuildState {
  counter: number;
  usedPaths: Set<string>;
}

export function buildSelect(opts: BuildOptions): BuiltSelect {
  const state: BuildState = { counter: 0, usedPaths: new Set<string>([""]) };
  const usedPaths = state.usedPaths;
  // plan first (relationships resolved, their errors raised), then print SQL from the plan
  const plan = planRead(opts.cache, opts.source.table, opts.parsed.select);
  const built = buildLevel(opts, state, plan, opts.source, [], opts.parsed.select, true);
  // every filter/order/limit path must name an embedded resource of this request
  for (const f of opts.parsed.filters) checkPath(f.path, usedPaths);
  for (const l of opts.parsed.logic) checkPath(l.path, usedPaths);
  for (const o of opts.parsed.order) checkPath(o.path, usedPaths);
  for (const r of opts.parsed.ranges.keys()) if (r) checkPath(r.split("."), usedPaths);
  return built;
}

/**
 * The statement that reads one page: `source` in the CTE pgrst_source, and
 * one row of `total` (the count of the rows of `countFrom` when an exact
 * count is wanted, else null), `page_total` and `body` (an expression over
 * the page's rows, _postgrest_t).
 */
export function pageStatement(source: string, body: string, countFrom: string | null): string {
  return (
    `WITH pgrst_source AS (${source}) SELECT ` +
    `${countFrom ? `(SELECT pg_catalog.count(*) FROM ${countFrom})` : "null::int8"} AS total, ` +
    `pg_catalog.count(_postgrest_t)::int8 AS page_total, ${body} AS body FROM (SELECT * FROM pgrst_source) _postgrest_t`
  );
}

/**
 * A page of rows read from `opts.source` (a table, or the rows a function
 * returns): the select with its embeds, conditions, order and pagination in
 * a page statement, counting all its rows when `exactCount`; `countSql`
 * selects the same rows without paging (for a planned count).
 */
export function buildPageRead(
  opts: Omit<BuildOptions, "paginate">,
  body: string,
  exactCount: boolean,
): { sql: string; countSql: string } {
  const built = buildSelect({ ...opts, paginate: true });
  const sql = pageStatement(built.sql, body, exactCount ? `(${built.countSql}) _pgrst_c` : null);
  return { sql, countSql: built.countSql };
}

function checkPath(path: string[], used: Set<string>) {
  if (path.length === 0) return;
  if (!used.has(path.join("."))) throw errors.notEmbedded(path[path.length - 1]);
}

/** A level's SQL with its parts, which a parent level embeds. */
interface LevelSql extends BuiltSelect {
  selectList: string;
  fromSql: string;
  whereSql: string;
  groupSql: string;
  tailSql: string;
}

function castSql(cache: SchemaCache, name: string): string {
  const t = cache.types.get(name.toLowerCase());
  if (!t) throw errors.undefinedType(name);
  return t;
}

function outputName(item: SelectField): string {
  if (item.alias) return item.alias;
  if (item.agg) return item.agg;
  if (item.field.json.length) {
    for (let i = item.field.json.length - 1; i >= 0; i--) if (!item.field.json[i].index) return item.field.json[i].key;
  }
  return item.field.name;
}

/** An embed that selects nothing (`users()`), nor do its embeds: it only filters, its key is left out. */
function isEmptyEmbed(item: SelectEmbed): boolean {
  return item.children.every((c) => c.type === "embed" && isEmptyEmbed(c));
}

function buildLevel(
  opts: BuildOptions,
  state: BuildState,
  node: ReadPlanNode,
  src: Source,
  path: string[],
  select: SelectItem[],
  top: boolean,
): LevelSql {
  const usedPaths = state.usedPaths;
  const depth = path.length + 1;
  const { cache, params, parsed } = opts;
  const level = levelFor(parsed, path);
  const selects: { sql: string; name: string; agg: boolean }[] = [];
  const joins: string[] = [];
  const where: string[] = [];
  let hasAggregates = false;
  const embedsByName = new Map<
    string,
    { alias: string; rel: Relationship; joinAlias: string; toOne: boolean; aggCol: string }
  >();

  for (const item of select) {
    if (item.type === "field") {
      if (item.field.name === "*" && !item.agg) {
        const cols = [...src.columns.values()].sort((a, b) => a.position - b.position);
        for (const c of cols) selects.push({ sql: `${q(src.alias)}.${q(c.name)}`, name: c.name, agg: false });
        continue;
      }
      // rel(count): the row count of an embedded resource (predates, and is not gated like, aggregates)
      if (
        !top &&
        item.field.name === "count" &&
        !item.agg &&
        !item.cast &&
        item.field.json.length === 0 &&
        !src.columns.has("count")
      ) {
        hasAggregates = true;
        selects.push({ sql: "pg_catalog.count(*)", name: item.alias ?? "count", agg: true });
        continue;
      }
      let expr = item.field.name === "*" ? "*" : colExpr(src, item.field, params);
      if (item.cast) expr = `CAST(${expr} AS ${castSql(cache, item.cast)})`;
      if (item.agg) {
        if (!cache.aggregatesEnabled) throw errors.aggregatesNotAllowed();
        hasAggregates = true;
        expr = `${item.agg}(${expr})`;
        if (item.aggCast) expr = `CAST(${expr} AS ${castSql(cache, item.aggCast)})`;
      }
      selects.push({ sql: expr, name: outputName(item), agg: !!item.agg });
      continue;
    }
    // an embedded resource
    const planned = node.embeds.get(item)!;
    const rel = planned.rel;
    const childPath = [...path, item.alias ?? item.name];
    usedPaths.add(childPath.join("."));
    // PostgREST's aliases: the embedded relation is <target>_<depth>, its join <source>_<name>_<depth>
    // (so the same unaliased embed twice fails as in PostgREST, with 42712)
    const childAlias = `${rel.target.name}_${depth}`;
    const childSrc: Source = {
      table: rel.target,
      columns: rel.target.columns,
      fromSql: rel.computedFn
        ? `${q(rel.computedFn.schema)}.${q(rel.computedFn.name)}(${rowOf(src)}) AS ${q(childAlias)}`
        : `${q(rel.target.schema)}.${q(rel.target.name)} AS ${q(childAlias)}`,
      alias: childAlias,
      name: rel.target.name,
    };
    const toOne = rel.cardinality === "m2o" || rel.cardinality === "o2o";
    const joinCond: string[] = [];
    let fromSql = childSrc.fromSql;
    if (rel.computedFn) {
      // the function's argument is the join
    } else if (rel.cardinality === "m2m") {
      const j = rel.junction!;
      const jAlias = `${j.table.name}_${++state.counter}`;
      fromSql += ` JOIN ${q(j.table.schema)}.${q(j.table.name)} AS ${q(jAlias)} ON ${j.targetCols
        .map(([jc, tc]) => `${q(jAlias)}.${q(jc)} = ${q(childAlias)}.${q(tc)}`)
        .join(" AND ")}`;
      for (const [jc, sc] of j.sourceCols) joinCond.push(`${q(jAlias)}.${q(jc)} = ${q(src.alias)}.${q(sc)}`);
    } else {
      for (const [sc, tc] of rel.cols) joinCond.push(`${q(childAlias)}.${q(tc)} = ${q(src.alias)}.${q(sc)}`);
    }
    const child = buildLevel(opts, state, planned.node, { ...childSrc, fromSql }, childPath, item.children, false);
    const joinAlias = `${src.table.name}_${item.alias ?? item.name}_${depth}`;
    const childConds = [...joinCond, ...(child.whereSql ? [child.whereSql] : [])];
    const childWhere = childConds.length ? ` WHERE ${childConds.join(" AND ")}` : "";
    const inner = item.join === "inner";
    const empty = !item.spread && isEmptyEmbed(item);
    if (item.spread && !toOne) {
      // a to-many spread (PostgREST 12.2+): each selected column becomes an array over the related rows
      const rowsAlias = `${childAlias}_rows`;
      const aggCol = `${childAlias}_agg`;
      const cols = child.outputs.map((name) => `COALESCE(json_agg(${q(rowsAlias)}.${q(name)}), '[]') AS ${q(name)}`);
      joins.push(
        `${inner ? "INNER" : "LEFT"} JOIN LATERAL (SELECT json_agg(${q(rowsAlias)}) AS ${q(aggCol)}${cols.length ? `, ${cols.join(", ")}` : ""} FROM (SELECT ${child.selectList || "NULL"} FROM ${child.fromSql}${childWhere}${child.groupSql}${child.tailSql}) AS ${q(rowsAlias)}) AS ${q(joinAlias)} ON ${inner ? `${q(joinAlias)}.${q(aggCol)} IS NOT NULL` : "TRUE"}`,
      );
      for (const name of child.outputs) selects.push({ sql: `${q(joinAlias)}.${q(name)}`, name, agg: false });
      embedsByName.set(item.alias ?? item.name, { alias: childAlias, rel, joinAlias, toOne, aggCol });
      continue;
    }
    if (toOne) {
      joins.push(
        `${inner ? "INNER" : "LEFT"} JOIN LATERAL (SELECT ${child.selectList || "NULL"} FROM ${child.fromSql}${childWhere}${child.groupSql}${child.tailSql}) AS ${q(joinAlias)} ON TRUE`,
      );
      if (empty) {
        // joined for its filters only
      } else if (item.spread) {
        for (const name of child.outputs) selects.push({ sql: `${q(joinAlias)}.${q(name)}`, name, agg: false });
      } else {
        selects.push({ sql: `row_to_json(${q(joinAlias)}.*)`, name: item.alias ?? item.name, agg: false });
      }
      embedsByName.set(item.alias ?? item.name, { alias: childAlias, rel, joinAlias, toOne, aggCol: "" });
    } else {
      const aggCol = `${childAlias}_agg`;
      const rowsAlias = `${childAlias}_rows`;
      joins.push(
        `${inner ? "INNER" : "LEFT"} JOIN LATERAL (SELECT json_agg(${q(rowsAlias)}) AS ${q(aggCol)} FROM (SELECT ${child.selectList || "NULL"} FROM ${child.fromSql}${childWhere}${child.groupSql}${child.tailSql}) AS ${q(rowsAlias)}) AS ${q(joinAlias)} ON ${inner ? `${q(joinAlias)}.${q(aggCol)} IS NOT NULL` : "TRUE"}`,
      );
      if (!empty)
        selects.push({
          sql: `COALESCE(${q(joinAlias)}.${q(aggCol)}, '[]')`,
          name: item.alias ?? item.name,
          agg: false,
        });
      embedsByName.set(item.alias ?? item.name, { alias: childAlias, rel, joinAlias, toOne, aggCol });
    }
  }

  // filters of this level; a filter on an embedded resource's name is an is-null test on it
  for (const f of level.filters) {
    const embed =
      f.field.json.length === 0 && !src.columns.has(f.field.name) ? embedsByName.get(f.field.name) : undefined;
    if (embed) {
      if (f.operation.kind !== "is" || (f.operation.value !== "null" && f.operation.value !== "not_null")) {
        throw errors.unacceptableFilter(f.field.name);
      }
      const isNull = (f.operation.value === "null") !== f.negate;
      const target = embed.toOne ? `row_to_json(${q(embed.joinAlias)}.*)` : `${q(embed.joinAlias)}.${q(embed.aggCol)}`;
      where.push(`${target} IS ${isNull ? "" : "NOT "}NULL`);
      continue;
    }
    where.push(filterSql(src, f, params));
  }
  for (const t of level.logic) where.push(logicSql(src, t, params));

  // ordering
  const orderParts: string[] = [];
  for (const term of level.order) {
    let expr: string;
    if (term.relation) {
      const embed = embedsByName.get(term.relation);
      if (!embed) throw errors.notEmbedded(term.relation);
      if (!embed.toOne) throw errors.relatedOrderNotToOne(src.name, term.relation);
      const t = embed.rel.target;
      if (embed.rel.computedFn) throw errors.relatedOrderNotToOne(src.name, term.relation);
      const a = `${t.name}_o${++state.counter}`;
      const tsrc: Source = { table: t, columns: t.columns, fromSql: "", alias: a, name: t.name };
      const e = colExpr(tsrc, term.field, params);
      const cond = embed.rel.cols.map(([sc, tc]) => `${q(a)}.${q(tc)} = ${q(src.alias)}.${q(sc)}`).join(" AND ");
      expr = `(SELECT ${e} FROM ${q(t.schema)}.${q(t.name)} AS ${q(a)} WHERE ${cond} LIMIT 1)`;
    } else {
      expr = colExpr(src, term.field, params);
    }
    orderParts.push(
      `${expr}${term.dir === "desc" ? " DESC" : term.dir === "asc" ? " ASC" : ""}${term.nulls === "first" ? " NULLS FIRST" : term.nulls === "last" ? " NULLS LAST" : ""}`,
    );
  }
  let groupSql = "";
  if (hasAggregates) {
    const groups = selects.map((s, i) => (s.agg ? null : String(i + 1))).filter((x): x is string => x !== null);
    if (groups.length) groupSql = ` GROUP BY ${groups.join(", ")}`;
  }
  let tailSql = "";
  if (orderParts.length) tailSql += ` ORDER BY ${orderParts.join(", ")}`;
  const range = top ? opts.topRange : level.range;
  if (!top || opts.paginate) {
    if (range && range.limit !== null) tailSql += ` LIMIT ${Number(range.limit)}`;
    if (range && range.offset) tailSql += ` OFFSET ${Number(range.offset)}`;
  }
  const selectList = selects.length ? selects.map((s) => `${s.sql} AS ${q(s.name)}`).join(", ") : "";
  const fromSql = `${src.fromSql}${joins.length ? " " + joins.join(" ") : ""}`;
  const whereSql = where.join(" AND ");
  const sql = `SELECT ${selectList} FROM ${fromSql}${whereSql ? ` WHERE ${whereSql}` : ""}${groupSql}${tailSql}`;
  const countSql = `SELECT 1 FROM ${fromSql}${whereSql ? ` WHERE ${whereSql}` : ""}`;
  return {
    sql,
    countSql,
    outputs: selects.map((s) => s.name),
    hasAggregates,
    selectList,
    fromSql,
    whereSql,
    groupSql,
    tailSql,
  };
}
