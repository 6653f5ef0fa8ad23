/**
 * Loads the schema cache from pg_catalog: relations with their columns and
 * keys (a single-table view takes its base table's), the type names usable
 * in casts, relationships (schema-relationships.ts), functions
 * (schema-routines.ts) and the pgrst.* settings that switch features on.
 */
import type { Queryable } from "../db/types.ts";
import { type Catalog, readCatalog } from "./schema-catalog.ts";
import { buildRelationships, type ForeignKey } from "./schema-relationships.ts";
import { buildRoutines } from "./schema-routines.ts";
import { type SchemaCache, type Table, key, quoteIdent } from "./schema.ts";

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
  const catalog = await readCatalog(db, schemas);
  const { byOid, tables } = tablesOf(catalog);
  const fks = keysOf(catalog, byOid);
  return {
    schemas,
    tables,
    relationships: buildRelationships(fks, catalog.computedFns, byOid),
    routines: buildRoutines(catalog.funcs, byOid),
    types: castTypes(catalog),
    aggregatesEnabled: setting(catalog, "pgrst.db_aggregates_enabled", process.env.PGRST_DB_AGGREGATES_ENABLED),
    planEnabled: setting(catalog, "pgrst.db_plan_enabled", process.env.PGRST_DB_PLAN_ENABLED),
    geoJsonFn: catalog.geo[0] ? `${quoteIdent(catalog.geo[0].schema)}.st_asgeojson` : null,
    preRequest: preRequestFn(catalog, process.env.PGRST_DB_PRE_REQUEST),
    loadedAt: Date.now(),
  };
}

/**
 * pgrst.db_pre_request (PostgREST's db-pre-request): a function name,
 * schema-qualified or not (then the first exposed schema), quoted for SQL.
 */
function preRequestFn(catalog: Catalog, fromEnv: string | undefined): string | null {
  const found = catalog.settings.map((r) => r.setting).find((s) => s.startsWith("pgrst.db_pre_request="));
  const name = (found ? found.slice("pgrst.db_pre_request=".length) : (fromEnv ?? "")).trim();
  if (!name) return null;
  const parts = name.split(".").map((p) => p.trim().replace(/^"(.*)"$/, "$1"));
  if (parts.length > 2 || parts.some((p) => !p)) return null;
  return parts.map(quoteIdent).join(".");
}

/** Type names usable in casts: lower-case name → SQL (pg_catalog's first, then SQL's spellings). */
function castTypes(catalog: Catalog): Map<string, string> {
  const types = new Map<string, string>();
  for (const t of catalog.typeRows) {
    const sql = `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
    if (!types.has(t.name) || t.schema === "pg_catalog") types.set(t.name, sql);
  }
  for (const [alias, real] of Object.entries(TYPE_ALIASES)) types.set(alias, `"pg_catalog".${quoteIdent(real)}`);
  return types;
}

/** A boolean pgrst.* setting of the authenticator role, else the environment's, else off. */
function setting(catalog: Catalog, name: string, fromEnv: string | undefined): boolean {
  const found = catalog.settings.map((r) => r.setting).find((s) => s.startsWith(`${name}=`));
  return (found ? found.split("=")[1] : (fromEnv ?? "false")).toLowerCase() === "true";
}

/** The relations with their columns, by oid and by schema-qualified name. */
function tablesOf(catalog: Catalog): { byOid: Map<number, Table>; tables: Map<string, Table> } {
  const byOid = new Map<number, Table>();
  const tables = new Map<string, Table>();
  for (const r of catalog.rels) {
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
  for (const c of catalog.cols) {
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
      missingDefault: c.def ?? c.identdef,
      generated: c.generated,
      position: c.num,
    });
  }
  return { byOid, tables };
}

/** Sets each relation's primary and unique keys, and returns the foreign keys (a single-table view takes its base table's). */
function keysOf(catalog: Catalog, byOid: Map<number, Table>): ForeignKey[] {
  const fks: ForeignKey[] = [];
  for (const c of catalog.cons) {
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
  for (const vb of catalog.viewBases) {
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
  return fks;
}
