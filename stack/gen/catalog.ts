/**
 * What `gen types` reads from pg_catalog for the exposed schemas: tables and
 * views with their columns, foreign keys, functions with their arguments,
 * enums and composite types.
 */
import type { Queryable } from "../db/types.ts";

export interface Relation {
  id: number;
  schema: string;
  name: string;
  kind: "table" | "view";
  /** views: update and delete both work through it */
  updatable: boolean;
}

export interface Column {
  relationId: number;
  name: string;
  type: TypeRef;
  nullable: boolean;
  hasDefault: boolean;
  identityAlways: boolean;
  updatable: boolean;
}

export interface TypeRef {
  schema: string;
  /** pg_type.typname: "int4", "_text" for text[], "task_status" */
  name: string;
}

export interface ForeignKey {
  name: string;
  schema: string;
  relation: string;
  columns: string[];
  referencedSchema: string;
  referencedRelation: string;
  referencedColumns: string[];
  oneToOne: boolean;
}

export interface Argument {
  mode: "in" | "out" | "inout" | "variadic" | "table";
  name: string;
  type: TypeRef;
  hasDefault: boolean;
}

export interface Routine {
  schema: string;
  name: string;
  args: Argument[];
  returnsSet: boolean;
  returnType: TypeRef;
  /** the table or view whose rows it returns */
  returnRelationId: number | null;
}

export interface EnumType {
  schema: string;
  name: string;
  values: string[];
}

export interface CompositeType {
  schema: string;
  name: string;
  attributes: Array<{ name: string; type: TypeRef }>;
}

export interface Catalog {
  schemas: string[];
  relations: Relation[];
  columns: Column[];
  foreignKeys: ForeignKey[];
  routines: Routine[];
  enums: EnumType[];
  composites: CompositeType[];
}

const ARG_MODES: Record<string, Argument["mode"]> = { i: "in", o: "out", b: "inout", v: "variadic", t: "table" };

export async function readCatalog(db: Queryable, schemas: string[]): Promise<Catalog> {
  const relations = (
    await db.query<{ id: number; schema: string; name: string; relkind: string; updatable: boolean }>(
      `select c.oid::int8 as id, n.nspname as schema, c.relname as name, c.relkind::text as relkind,
              (pg_relation_is_updatable(c.oid::regclass, false) & 20) = 20 as updatable
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'f', 'v', 'm') and n.nspname = any($1::text[])`,
      [schemas],
    )
  ).rows.map(
    (r) =>
      ({
        id: Number(r.id),
        schema: r.schema,
        name: r.name,
        kind: r.relkind === "v" || r.relkind === "m" ? "view" : "table",
        updatable: r.updatable,
      }) as Relation,
  );

  const columns = (
    await db.query<{
      rel: number;
      name: string;
      typschema: string;
      typname: string;
      notnull: boolean;
      hasdefault: boolean;
      identity: string;
      updatable: boolean;
    }>(
      `select a.attrelid::int8 as rel, a.attname as name, tn.nspname as typschema, t.typname,
              (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as notnull,
              (a.atthasdef or a.attidentity <> '') as hasdefault, a.attidentity::text as identity,
              pg_column_is_updatable(a.attrelid, a.attnum, false) as updatable
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
         join pg_type t on t.oid = a.atttypid
         join pg_namespace tn on tn.oid = t.typnamespace
        where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p', 'f', 'v', 'm') and n.nspname = any($1::text[])`,
      [schemas],
    )
  ).rows.map((r) => ({
    relationId: Number(r.rel),
    name: r.name,
    type: { schema: r.typschema, name: r.typname },
    nullable: !r.notnull,
    hasDefault: r.hasdefault,
    identityAlways: r.identity === "a",
    updatable: r.updatable,
  }));

  const foreignKeys = (
    await db.query<{
      name: string;
      schema: string;
      relation: string;
      cols: string[];
      fschema: string;
      frelation: string;
      fcols: string[];
      one: boolean;
    }>(
      `select con.conname as name, n.nspname as schema, c.relname as relation,
              array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
                      join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as cols,
              fn.nspname as fschema, fc.relname as frelation,
              array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
                      join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as fcols,
              exists (select 1 from pg_constraint u
                       where u.conrelid = con.conrelid and u.contype in ('p', 'u')
                         and (select array_agg(x order by x) from unnest(u.conkey) x) = (select array_agg(x order by x) from unnest(con.conkey) x)) as one
         from pg_constraint con
         join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
         join pg_class fc on fc.oid = con.confrelid join pg_namespace fn on fn.oid = fc.relnamespace
        where con.contype = 'f' and n.nspname = any($1::text[])`,
      [schemas],
    )
  ).rows.map((r) => ({
    name: r.name,
    schema: r.schema,
    relation: r.relation,
    columns: r.cols,
    referencedSchema: r.fschema,
    referencedRelation: r.frelation,
    referencedColumns: r.fcols,
    oneToOne: r.one,
  }));

  const routines = (
    await db.query<{
      schema: string;
      name: string;
      retset: boolean;
      rettypschema: string;
      rettypname: string;
      retrelid: number;
      argnames: string[] | null;
      argmodes: string[] | null;
      argtypes: Array<{ schema: string; name: string }>;
      ndefaults: number;
    }>(
      `select n.nspname as schema, p.proname as name, p.proretset as retset,
              rtn.nspname as rettypschema, rt.typname as rettypname, rt.typrelid::int8 as retrelid,
              p.proargnames as argnames, p.proargmodes::text[] as argmodes,
              array(select json_build_object('schema', tn.nspname, 'name', t.typname)
                      from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(oid, i)
                      join pg_type t on t.oid = a.oid join pg_namespace tn on tn.oid = t.typnamespace
                     order by a.i) as argtypes,
              p.pronargdefaults::int as ndefaults
         from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace
         join pg_type rt on rt.oid = p.prorettype join pg_namespace rtn on rtn.oid = rt.typnamespace
        where p.prokind = 'f' and n.nspname = any($1::text[])`,
      [schemas],
    )
  ).rows.map((r) => {
    const types = r.argtypes.map((t) => (typeof t === "string" ? (JSON.parse(t) as TypeRef) : t));
    const modes = types.map((_, i) => ARG_MODES[r.argmodes?.[i] ?? "i"]);
    // the last `ndefaults` input arguments have defaults
    const inputs = modes
      .map((m, i) => (m === "in" || m === "inout" || m === "variadic" ? i : -1))
      .filter((i) => i >= 0);
    const withDefault = new Set(inputs.slice(inputs.length - r.ndefaults));
    return {
      schema: r.schema,
      name: r.name,
      returnsSet: r.retset,
      returnType: { schema: r.rettypschema, name: r.rettypname },
      returnRelationId: Number(r.retrelid) || null,
      args: types.map((type, i) => ({
        mode: modes[i],
        name: r.argnames?.[i] ?? "",
        type,
        hasDefault: withDefault.has(i),
      })),
    };
  });

  const enums = (
    await db.query<{ schema: string; name: string; values: string[] }>(
      `select n.nspname as schema, t.typname as name, array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder) as values
         from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where t.typtype = 'e' and n.nspname = any($1::text[])`,
      [schemas],
    )
  ).rows;

  const composites = (
    await db.query<{ schema: string; name: string; attributes: Array<{ name: string; schema: string; type: string }> }>(
      `select n.nspname as schema, t.typname as name,
              array(select json_build_object('name', a.attname, 'schema', tn.nspname, 'type', at.typname)
                      from pg_attribute a join pg_type at on at.oid = a.atttypid join pg_namespace tn on tn.oid = at.typnamespace
                     where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum) as attributes
         from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_class c on c.oid = t.typrelid
        where t.typtype = 'c' and c.relkind = 'c' and n.nspname = any($1::text[])`,
      [schemas],
    )
  ).rows.map((r) => ({
    schema: r.schema,
    name: r.name,
    attributes: r.attributes
      .map((a) => (typeof a === "string" ? JSON.parse(a) : a))
      .map((a) => ({ name: a.name, type: { schema: a.schema, name: a.type } })),
  }));

  return { schemas: [...schemas], relations, columns, foreignKeys, routines, enums, composites };
}
