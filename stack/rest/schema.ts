/**
 * The schema cache: tables, views, columns, keys, relationships and functions
 * of the exposed schemas, read from pg_catalog. Every identifier a request
 * names is looked up here before it reaches SQL.
 */
import type { Queryable } from "../db/types.ts";

export interface Column {
  name: string;
  /** format_type() of the column, e.g. "text", "integer[]", "status" */
  type: string;
  /** schema-qualified, quoted type usable in a cast */
  typeSql: string;
  typeOid: number;
  /** pg_type.typcategory ('A' array, 'S' string, 'N' numeric, 'U' user, 'E' enum …) */
  category: string;
  typname: string;
  nullable: boolean;
  default: string | null;
  generated: boolean;
  position: number;
}

export interface Table {
  schema: string;
  name: string;
  kind: "table" | "view" | "materialized" | "foreign" | "partitioned";
  isView: boolean;
  columns: Map<string, Column>;
  pk: string[];
  /** unique constraints (incl. the primary key), as column lists */
  uniques: string[][];
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
}

export type Cardinality = "m2o" | "o2m" | "o2o" | "m2m";

export interface Junction {
  table: Table;
  constraint1: string;
  constraint2: string;
  /** [junction column, source column] */
  sourceCols: [string, string][];
  /** [junction column, target column] */
  targetCols: [string, string][];
}

export interface Relationship {
  source: Table;
  target: Table;
  cardinality: Cardinality;
  isSelf: boolean;
  constraint: string;
  /** [source column, target column] (not for m2m) */
  cols: [string, string][];
  junction?: Junction;
}

export interface RoutineParam {
  name: string;
  type: string;
  typeSql: string;
  hasDefault: boolean;
  variadic: boolean;
}

export interface Routine {
  oid: number;
  schema: string;
  name: string;
  params: RoutineParam[];
  returnsSet: boolean;
  /** format_type of the return type */
  returnType: string;
  /** "void" | "scalar" | "composite" (a table/composite/record with out columns) */
  returnKind: "void" | "scalar" | "composite";
  /** when the function returns rows of a known table type */
  returnTable: Table | null;
  /** output columns (composite/returns table) */
  outColumns: Map<string, Column>;
  volatility: "i" | "s" | "v";
}

export interface SchemaCache {
  schemas: string[];
  tables: Map<string, Table>;
  /** keyed by source table key */
  relationships: Map<string, Relationship[]>;
  routines: Map<string, Routine[]>;
  /** type names usable in casts: lower-case name → SQL */
  types: Map<string, string>;
  aggregatesEnabled: boolean;
  loadedAt: number;
}

export const key = (schema: string, name: string) => `${schema}\u0000${name}`;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const TYPE_ALIASES: Record<string, string> = {
  int: "int4",
  integer: "int4",
  smallint: "int2",
  bigint: "int8",
  real: "float4",
  float: "float8",
  "double precision": "float8",
  decimal: "numeric",
  boolean: "bool",
  varchar: "varchar",
  "character varying": "varchar",
  character: "bpchar",
  char: "bpchar",
  "timestamp with time zone": "timestamptz",
  "timestamp without time zone": "timestamp",
  "time with time zone": "timetz",
  "time without time zone": "time",
};

const KINDS: Record<string, Table["kind"]> = {
  r: "table",
  v: "view",
  m: "materialized",
  f: "foreign",
  p: "partitioned",
};

export async function loadSchemaCache(db: Queryable, schemas: string[]): Promise<SchemaCache> {
  const rels = await db.query<{
    oid: number;
    schema: string;
    name: string;
    relkind: string;
    insertable: boolean;
    updatable: boolean;
    deletable: boolean;
  }>(
    `select c.oid::int8 as oid, n.nspname as schema, c.relname as name, c.relkind::text as relkind,
            (c.relkind in ('r','p') or (pg_relation_is_updatable(c.oid::regclass, true) & 8) = 8) as insertable,
            (c.relkind in ('r','p') or (pg_relation_is_updatable(c.oid::regclass, true) & 4) = 4) as updatable,
            (c.relkind in ('r','p') or (pg_relation_is_updatable(c.oid::regclass, true) & 16) = 16) as deletable
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r','v','m','f','p') and n.nspname = any($1::text[])`,
    [schemas],
  );
  const cols = await db.query<{
    oid: number;
    name: string;
    type: string;
    typeoid: number;
    typname: string;
    typschema: string;
    category: string;
    elemname: string | null;
    elemschema: string | null;
    notnull: boolean;
    def: string | null;
    generated: boolean;
    num: number;
  }>(
    `select a.attrelid::int8 as oid, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            a.atttypid::int8 as typeoid, t.typname, tn.nspname as typschema, t.typcategory::text as category,
            et.typname as elemname, etn.nspname as elemschema,
            a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as def, a.attgenerated <> '' as generated, a.attnum::int as num
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_type t on t.oid = a.atttypid
       join pg_namespace tn on tn.oid = t.typnamespace
       left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
       left join pg_namespace etn on etn.oid = et.typnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attnum > 0 and not a.attisdropped and c.relkind in ('r','v','m','f','p') and n.nspname = any($1::text[])
      order by a.attrelid, a.attnum`,
    [schemas],
  );
  const cons = await db.query<{
    name: string;
    contype: string;
    oid: number;
    foid: number | null;
    cols: string[];
    fcols: string[] | null;
  }>(
    `select con.conname as name, con.contype::text as contype, con.conrelid::int8 as oid, nullif(con.confrelid, 0)::int8 as foid,
            array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as cols,
            case when con.contype = 'f' then array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) end as fcols
       from pg_constraint con
       join pg_class c on c.oid = con.conrelid
       join pg_namespace n on n.oid = c.relnamespace
      where con.contype in ('p','u','f') and n.nspname = any($1::text[])
      order by con.conname`,
    [schemas],
  );
  // single-table views: their base table, to carry its keys over (by column name)
  const viewBases = await db.query<{ oid: number; base: number }>(
    `select v.oid::int8 as oid, min(d.refobjid)::int8 as base
       from pg_class v
       join pg_namespace n on n.oid = v.relnamespace
       join pg_rewrite r on r.ev_class = v.oid
       join pg_depend d on d.objid = r.oid and d.classid = 'pg_rewrite'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjid <> v.oid
      where v.relkind = 'v' and n.nspname = any($1::text[])
      group by v.oid
     having count(distinct d.refobjid) = 1`,
    [schemas],
  );
  const funcs = await db.query<{
    oid: number;
    schema: string;
    name: string;
    volatility: "i" | "s" | "v";
    retset: boolean;
    rettype: string;
    rettypeoid: number;
    rettyptype: string;
    rettyprelid: number;
    nargdefaults: number;
    args: {
      name: string | null;
      type: string;
      typsql: string;
      mode: string;
      category: string;
      typname: string;
      typeoid: number;
    }[];
  }>(
    `select p.oid::int8 as oid, n.nspname as schema, p.proname as name, p.provolatile::text as volatility, p.proretset as retset,
            format_type(p.prorettype, null) as rettype, p.prorettype::int8 as rettypeoid, rt.typtype::text as rettyptype,
            rt.typrelid::int8 as rettyprelid, p.pronargdefaults::int as nargdefaults,
            coalesce((select json_agg(json_build_object(
                'name', coalesce(p.proargnames[k.i], ''), 'type', format_type(k.t, null),
                'typsql', quote_ident(tn.nspname) || '.' || quote_ident(t.typname),
                'mode', coalesce(p.proargmodes[k.i]::text, 'i'), 'category', t.typcategory, 'typname', t.typname, 'typeoid', k.t)
                order by k.i)
              from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality k(t, i)
              join pg_type t on t.oid = k.t join pg_namespace tn on tn.oid = t.typnamespace), '[]') as args
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type rt on rt.oid = p.prorettype
      where n.nspname = any($1::text[]) and p.prokind = 'f'`,
    [schemas],
  );
  const typeRows = await db.query<{ name: string; schema: string }>(
    `select t.typname as name, n.nspname as schema from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where (n.nspname = 'pg_catalog' or n.nspname = any($1::text[])) and t.typname !~ '^_' and t.typtype in ('b','e','d','r','m','c')
        and (t.typrelid = 0 or (select relkind from pg_class where oid = t.typrelid) = 'c')`,
    [schemas],
  );
  const settings = await db.query<{ setting: string }>(
    `select unnest(s.setconfig) as setting from pg_db_role_setting s
      where s.setrole = (select oid from pg_roles where rolname = 'authenticator')
        and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))`,
  );

  const types = new Map<string, string>();
  for (const t of typeRows.rows) {
    const sql = `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
    if (!types.has(t.name) || t.schema === "pg_catalog") types.set(t.name, sql);
  }
  for (const [alias, real] of Object.entries(TYPE_ALIASES)) types.set(alias, `"pg_catalog".${quoteIdent(real)}`);

  const byOid = new Map<number, Table>();
  const tables = new Map<string, Table>();
  for (const r of rels.rows) {
    const t: Table = {
      schema: r.schema,
      name: r.name,
      kind: KINDS[r.relkind],
      isView: r.relkind === "v" || r.relkind === "m",
      columns: new Map(),
      pk: [],
      uniques: [],
      insertable: r.insertable,
      updatable: r.updatable,
      deletable: r.deletable,
    };
    byOid.set(Number(r.oid), t);
    tables.set(key(r.schema, r.name), t);
  }
  for (const c of cols.rows) {
    const t = byOid.get(Number(c.oid));
    if (!t) continue;
    const typeSql =
      c.category === "A" && c.elemname
        ? `${quoteIdent(c.elemschema!)}.${quoteIdent(c.elemname)}[]`
        : `${quoteIdent(c.typschema)}.${quoteIdent(c.typname)}`;
    t.columns.set(c.name, {
      name: c.name,
      type: c.type,
      typeSql,
      typeOid: Number(c.typeoid),
      category: c.category,
      typname: c.typname,
      nullable: !c.notnull,
      default: c.def,
      generated: c.generated,
      position: c.num,
    });
  }
  const fks: { name: string; source: Table; target: Table; cols: [string, string][] }[] = [];
  for (const c of cons.rows) {
    const t = byOid.get(Number(c.oid));
    if (!t) continue;
    if (c.contype === "p") {
      t.pk = c.cols;
      t.uniques.push(c.cols);
    } else if (c.contype === "u") t.uniques.push(c.cols);
    else if (c.contype === "f" && c.foid) {
      const ft = byOid.get(Number(c.foid));
      if (!ft) continue;
      fks.push({ name: c.name, source: t, target: ft, cols: c.cols.map((col, i) => [col, c.fcols![i]]) });
    }
  }
  // views over a single table: inherit its primary key and its foreign keys by column name
  for (const vb of viewBases.rows) {
    const view = byOid.get(Number(vb.oid));
    const base = byOid.get(Number(vb.base));
    if (!view || !base || base.isView) continue;
    const has = (cs: string[]) => cs.every((c) => view.columns.has(c));
    if (base.pk.length && has(base.pk)) view.pk = [...base.pk];
    for (const u of base.uniques) if (has(u)) view.uniques.push([...u]);
    for (const fk of [...fks]) {
      if (fk.source === base && has(fk.cols.map((c) => c[0]))) fks.push({ ...fk, source: view });
      if (fk.target === base && has(fk.cols.map((c) => c[1]))) fks.push({ ...fk, target: view });
    }
  }

  const relationships = new Map<string, Relationship[]>();
  const add = (r: Relationship) => {
    const k = key(r.source.schema, r.source.name);
    const list = relationships.get(k) ?? [];
    list.push(r);
    relationships.set(k, list);
  };
  const isUnique = (t: Table, colsOf: string[]) =>
    t.uniques.some((u) => u.length === colsOf.length && u.every((c) => colsOf.includes(c)));
  for (const fk of fks) {
    const oneToOne = isUnique(
      fk.source,
      fk.cols.map((c) => c[0]),
    );
    const isSelf = fk.source === fk.target;
    add({
      source: fk.source,
      target: fk.target,
      cardinality: oneToOne ? "o2o" : "m2o",
      isSelf,
      constraint: fk.name,
      cols: fk.cols,
    });
    add({
      source: fk.target,
      target: fk.source,
      cardinality: oneToOne ? "o2o" : "o2m",
      isSelf,
      constraint: fk.name,
      cols: fk.cols.map(([a, b]) => [b, a]),
    });
  }
  // many-to-many through a junction whose primary key holds both foreign keys' columns
  for (const a of fks) {
    for (const b of fks) {
      if (a.source !== b.source || a.name === b.name) continue;
      const j = a.source;
      const jcols = [...a.cols.map((c) => c[0]), ...b.cols.map((c) => c[0])];
      if (!jcols.every((c) => j.pk.includes(c))) continue;
      add({
        source: a.target,
        target: b.target,
        cardinality: "m2m",
        isSelf: a.target === b.target,
        constraint: "",
        cols: [],
        junction: {
          table: j,
          constraint1: a.name,
          constraint2: b.name,
          sourceCols: a.cols.map(([jc, sc]) => [jc, sc]),
          targetCols: b.cols.map(([jc, tc]) => [jc, tc]),
        },
      });
    }
  }

  const routines = new Map<string, Routine[]>();
  for (const f of funcs.rows) {
    const inArgs = f.args.filter((a) => a.mode === "i" || a.mode === "b" || a.mode === "v");
    const outArgs = f.args.filter((a) => a.mode === "o" || a.mode === "b" || a.mode === "t");
    const params: RoutineParam[] = inArgs.map((a, i) => ({
      name: a.name ?? "",
      type: a.type,
      typeSql: a.type,
      hasDefault: i >= inArgs.length - f.nargdefaults,
      variadic: a.mode === "v",
    }));
    let returnKind: Routine["returnKind"] = "scalar";
    let returnTable: Table | null = null;
    const outColumns = new Map<string, Column>();
    if (f.rettype === "void") returnKind = "void";
    else if (f.rettyptype === "c" || (f.rettype === "record" && outArgs.length > 0)) {
      returnKind = "composite";
      if (f.rettyptype === "c") returnTable = byOid.get(Number(f.rettyprelid)) ?? null;
      if (returnTable) for (const [k2, v] of returnTable.columns) outColumns.set(k2, v);
      else
        outArgs.forEach((a, i) =>
          outColumns.set(a.name ?? `column${i + 1}`, {
            name: a.name ?? "",
            type: a.type,
            typeSql: a.typsql,
            typeOid: Number(a.typeoid),
            category: a.category,
            typname: a.typname,
            nullable: true,
            default: null,
            generated: false,
            position: i + 1,
          }),
        );
    } else if (outArgs.length === 1) {
      returnKind = "scalar";
    }
    const r: Routine = {
      oid: Number(f.oid),
      schema: f.schema,
      name: f.name,
      params,
      returnsSet: f.retset,
      returnType: f.rettype,
      returnKind,
      returnTable,
      outColumns,
      volatility: f.volatility,
    };
    const k = key(f.schema, f.name);
    const list = routines.get(k) ?? [];
    list.push(r);
    routines.set(k, list);
  }

  const aggSetting = settings.rows.map((r) => r.setting).find((s) => s.startsWith("pgrst.db_aggregates_enabled="));
  const aggregatesEnabled =
    (aggSetting ? aggSetting.split("=")[1] : (process.env.PGRST_DB_AGGREGATES_ENABLED ?? "false")).toLowerCase() ===
    "true";

  return { schemas, tables, relationships, routines, types, aggregatesEnabled, loadedAt: Date.now() };
}

/** Closest name (similarity ≥ threshold) for "Perhaps you meant" hints. */
export function closest(name: string, candidates: Iterable<string>, threshold = 0.75): string | null {
  let best: string | null = null;
  let bestScore = 0;
  for (const c of candidates) {
    const score = similarity(name, c);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return bestScore >= threshold ? best : null;
}

function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const d = levenshtein(a.toLowerCase(), b.toLowerCase());
  return 1 - d / Math.max(a.length, b.length, 1);
}

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
