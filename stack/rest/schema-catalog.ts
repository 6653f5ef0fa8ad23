/**
 * The rows of pg_catalog the schema cache is built from, read in one pass:
 * relations, columns, keys, single-table views' base tables, functions,
 * functions of one row (computed fields and relationships), type names, a
 * PostGIS GeoJSON function and the authenticator's pgrst.* settings.
 */
import type { Queryable } from "../db/types.ts";

export type Catalog = Awaited<ReturnType<typeof readCatalog>>;

export async function readCatalog(db: Queryable, schemas: string[]) {
  return {
    ...(await readRelations(db, schemas)),
    ...(await readKeys(db, schemas)),
    ...(await readFunctions(db, schemas)),
    ...(await readTypesAndSettings(db, schemas)),
  };
}

/** Relations and their columns. */
async function readRelations(db: Queryable, schemas: string[]) {
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
    identdef: string | null;
    generated: boolean;
    num: number;
  }>(
    `select a.attrelid::int8 as oid, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            a.atttypid::int8 as typeoid, t.typname, tn.nspname as typschema, t.typcategory::text as category,
            et.typname as elemname, etn.nspname as elemschema,
            a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as def,
            case when a.attidentity = 'd' then format('nextval(%L)', pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname)) end as identdef,
            a.attgenerated <> '' as generated, a.attnum::int as num
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
  return { rels: rels.rows, cols: cols.rows };
}

/** Primary, unique and foreign keys, and the base table of each single-table view. */
async function readKeys(db: Queryable, schemas: string[]) {
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
  return { cons: cons.rows, viewBases: viewBases.rows };
}

/** Functions, and functions of one table row. */
async function readFunctions(db: Queryable, schemas: string[]) {
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
  // functions of one table-row argument: computed relationships (returning rows of a relation) and computed fields
  const computedFns = await db.query<{
    schema: string;
    name: string;
    argrel: number;
    retrel: number;
    retset: boolean;
    rows: number;
    rettype: string;
    rettypeoid: number;
    typsql: string;
    category: string;
    typname: string;
  }>(
    `select n.nspname as schema, p.proname as name, at.typrelid::int8 as argrel, rt.typrelid::int8 as retrel,
            p.proretset as retset, p.prorows::float8 as rows, format_type(p.prorettype, null) as rettype,
            p.prorettype::int8 as rettypeoid, quote_ident(rtn.nspname) || '.' || quote_ident(rt.typname) as typsql,
            rt.typcategory::text as category, rt.typname
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type at on at.oid = p.proargtypes[0]
       join pg_type rt on rt.oid = p.prorettype
       join pg_namespace rtn on rtn.oid = rt.typnamespace
      where p.pronargs = 1 and p.prokind = 'f' and at.typrelid <> 0 and rt.typname <> 'trigger'
        and n.nspname = any($1::text[])
      order by p.oid`,
    [schemas],
  );
  return { funcs: funcs.rows, computedFns: computedFns.rows };
}

/** Type names usable in casts, PostGIS' GeoJSON function, the authenticator's settings. */
async function readTypesAndSettings(db: Queryable, schemas: string[]) {
  const typeRows = await db.query<{ name: string; schema: string }>(
    `select t.typname as name, n.nspname as schema from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where (n.nspname = 'pg_catalog' or n.nspname = any($1::text[])) and t.typname !~ '^_' and t.typtype in ('b','e','d','r','m','c')
        and (t.typrelid = 0 or (select relkind from pg_class where oid = t.typrelid) = 'c')`,
    [schemas],
  );
  const geo = await db.query<{ schema: string }>(
    `select n.nspname as schema from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.proname = 'st_asgeojson' and p.proargtypes[0] = 'record'::regtype limit 1`,
  );
  const settings = await db.query<{ setting: string }>(
    `select unnest(s.setconfig) as setting from pg_db_role_setting s
      where s.setrole = (select oid from pg_roles where rolname = 'authenticator')
        and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))`,
  );

  return { typeRows: typeRows.rows, geo: geo.rows, settings: settings.rows };
}
