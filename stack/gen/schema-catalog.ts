/**
 * What `gen schema` reads from pg_catalog: every object of the given schemas
 * as SQL text, cut into keyed parts (a table's definition, each of its
 * policies, triggers, indexes, grants…) so that the parts the stack's own
 * base schema made can be told apart from the ones the migrations made.
 */
import type { Queryable } from "../db/types.ts";

export type FileKind = "tables" | "views" | "functions" | "types";

/** One statement (or a few that belong together) of one object's file. */
export interface Part {
  kind: FileKind;
  /** the object: "public.tasks", "storage.objects" */
  object: string;
  /** unique inside the object: "table", "policy members read", "index tasks_project_idx" */
  key: string;
  /** sort order inside the file (definition first, then rls, grants, policies, triggers, indexes) */
  order: number;
  sql: string;
}

const SYSTEM = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;
/** objects an extension owns (pgcrypto's functions…) are the extension's, not the project's */
const NOT_EXTENSION = (classid: string, oid: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${classid}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;

const ident = (name: string) =>
  /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
const RESERVED = new Set([
  "user",
  "order",
  "group",
  "table",
  "select",
  "from",
  "where",
  "to",
  "default",
  "check",
  "references",
  "primary",
  "unique",
  "end",
  "limit",
  "offset",
  "all",
  "desc",
  "asc",
  "column",
  "constraint",
  "grant",
  "position",
]);
const qualified = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`;

/** `grant … to …` lines for an ACL, one per grantee, in grantee order; the owner's own rights are left out. */
function grants(
  acl: Array<{ grantee: string; privilege: string }>,
  on: string,
  owner: string,
  columns?: string,
): string[] {
  const byGrantee = new Map<string, string[]>();
  for (const { grantee, privilege } of acl) {
    if (grantee === owner) continue;
    byGrantee.set(grantee, [...(byGrantee.get(grantee) ?? []), privilege.toLowerCase()]);
  }
  return [...byGrantee.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([grantee, privileges]) => {
      const what = privileges
        .sort()
        .map((p) => (columns ? `${p} (${columns})` : p))
        .join(", ");
      return `grant ${what} on ${on} to ${grantee === "PUBLIC" ? "public" : ident(grantee)};`;
    });
}

type AclRow = { grantee: string; privilege: string };

export async function readSchemaParts(db: Queryable): Promise<Part[]> {
  const parts: Part[] = [];
  const add = (kind: FileKind, object: string, key: string, order: number, sql: string) =>
    parts.push({ kind, object, key, order, sql: sql.trimEnd() });

  // tables (ordinary and partitioned) and views
  const relations = (
    await db.query<{
      oid: number;
      schema: string;
      name: string;
      relkind: string;
      owner: string;
      rls: boolean;
      force: boolean;
      comment: string | null;
      options: string[] | null;
      acl: AclRow[] | null;
      viewdef: string | null;
    }>(
      `select c.oid::int8 as oid, n.nspname as schema, c.relname as name, c.relkind::text as relkind,
              pg_get_userbyid(c.relowner) as owner, c.relrowsecurity as rls, c.relforcerowsecurity as force,
              obj_description(c.oid, 'pg_class') as comment, c.reloptions as options,
              (select json_agg(json_build_object('grantee', case when a.grantee = 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end,
                                                 'privilege', a.privilege_type) order by a.privilege_type)
                 from aclexplode(c.relacl) a) as acl,
              case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid, true) end as viewdef
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm') and ${SYSTEM} and ${NOT_EXTENSION("pg_class", "c.oid")}`,
    )
  ).rows;
  const relById = new Map(relations.map((r) => [Number(r.oid), r]));

  const columns = (
    await db.query<{
      rel: number;
      name: string;
      type: string;
      notnull: boolean;
      def: string | null;
      identity: string;
      generated: string;
      comment: string | null;
      acl: AclRow[] | null;
    }>(
      `select a.attrelid::int8 as rel, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
              a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as def, a.attidentity::text as identity,
              a.attgenerated::text as generated, col_description(a.attrelid, a.attnum) as comment,
              (select json_agg(json_build_object('grantee', case when x.grantee = 0 then 'PUBLIC' else pg_get_userbyid(x.grantee) end,
                                                 'privilege', x.privilege_type) order by x.privilege_type)
                 from aclexplode(a.attacl) x) as acl
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p', 'v', 'm') and ${SYSTEM}
        order by a.attrelid, a.attnum`,
    )
  ).rows;

  const constraints = (
    await db.query<{ rel: number; name: string; type: string; def: string }>(
      `select con.conrelid::int8 as rel, con.conname as name, con.contype::text as type,
              pg_get_constraintdef(con.oid, true) as def
         from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
        where con.contype in ('p', 'u', 'c', 'f', 'x') and ${SYSTEM}
        order by con.conrelid, case con.contype when 'p' then 0 when 'u' then 1 when 'f' then 2 when 'c' then 3 else 4 end, con.conname`,
    )
  ).rows;

  const byRel = <T extends { rel: number }>(rows: T[]) => {
    const map = new Map<number, T[]>();
    for (const row of rows) map.set(Number(row.rel), [...(map.get(Number(row.rel)) ?? []), row]);
    return map;
  };
  const columnsOf = byRel(columns);
  const constraintsOf = byRel(constraints);

  for (const rel of relations) {
    const object = `${rel.schema}.${rel.name}`;
    const name = qualified(rel.schema, rel.name);
    const cols = columnsOf.get(Number(rel.oid)) ?? [];
    if (rel.relkind === "r" || rel.relkind === "p") {
      const lines = cols.map((c) => {
        let line = `  ${ident(c.name)} ${c.type}`;
        if (c.identity) line += ` generated ${c.identity === "a" ? "always" : "by default"} as identity`;
        else if (c.generated === "s") line += ` generated always as (${c.def}) stored`;
        else if (c.def !== null) line += ` default ${c.def}`;
        if (c.notnull) line += " not null";
        return line;
      });
      for (const con of constraintsOf.get(Number(rel.oid)) ?? [])
        lines.push(`  constraint ${ident(con.name)} ${con.def}`);
      let sql = `create table ${name} (\n${lines.join(",\n")}\n)${rel.relkind === "p" ? "" : ""}`;
      if (rel.options?.length) sql += ` with (${rel.options.join(", ")})`;
      sql += ";";
      add("tables", object, "table", 0, sql);
    } else {
      const options = rel.options?.length ? ` with (${rel.options.join(", ")})` : "";
      const materialized = rel.relkind === "m" ? "materialized " : "";
      add(
        "views",
        object,
        "view",
        0,
        `create ${materialized}view ${name}${options} as\n${rel.viewdef!.trimEnd().replace(/;$/, "")};`,
      );
    }
    const kind: FileKind = rel.relkind === "r" || rel.relkind === "p" ? "tables" : "views";
    const comments: string[] = [];
    if (rel.comment !== null)
      comments.push(`comment on ${kind === "tables" ? "table" : "view"} ${name} is ${literal(rel.comment)};`);
    for (const c of cols)
      if (c.comment !== null) comments.push(`comment on column ${name}.${ident(c.name)} is ${literal(c.comment)};`);
    if (comments.length) add(kind, object, "comments", 1, comments.join("\n"));
    if (rel.rls) add(kind, object, "rls", 2, `alter table ${name} enable row level security;`);
    if (rel.force) add(kind, object, "force rls", 2, `alter table ${name} force row level security;`);
    const tableGrants = grants(rel.acl ?? [], `table ${name}`, rel.owner);
    // column grants, grouped by grantee and privilege
    const columnAcl = new Map<string, string[]>();
    for (const c of cols)
      for (const a of c.acl ?? []) {
        const key = `${a.grantee}\u0000${a.privilege}`;
        columnAcl.set(key, [...(columnAcl.get(key) ?? []), ident(c.name)]);
      }
    for (const [key, names] of [...columnAcl.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const [grantee, privilege] = key.split("\u0000");
      tableGrants.push(...grants([{ grantee, privilege }], `table ${name}`, rel.owner, names.join(", ")));
    }
    // grants are one part per grantee, so a migration's grant to one role on a stack table shows alone
    for (const line of tableGrants) add(kind, object, `grant ${line}`, 3, line);
  }

  // policies
  const policies = (
    await db.query<{
      rel: number;
      name: string;
      permissive: boolean;
      cmd: string;
      roles: string[];
      qual: string | null;
      check: string | null;
    }>(
      `select p.polrelid::int8 as rel, p.polname as name, p.polpermissive as permissive, p.polcmd::text as cmd,
              array(select case when r = 0 then 'public' else pg_get_userbyid(r) end from unnest(p.polroles) r order by 1) as roles,
              pg_get_expr(p.polqual, p.polrelid, true) as qual, pg_get_expr(p.polwithcheck, p.polrelid, true) as check
         from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
        where ${SYSTEM}
        order by p.polrelid, p.polname`,
    )
  ).rows;
  const COMMANDS: Record<string, string> = { r: "select", a: "insert", w: "update", d: "delete", "*": "all" };
  for (const p of policies) {
    const rel = relById.get(Number(p.rel));
    if (!rel) continue;
    let sql = `create policy ${ident(p.name)} on ${qualified(rel.schema, rel.name)}`;
    if (!p.permissive) sql += " as restrictive";
    sql += `\n  for ${COMMANDS[p.cmd]} to ${p.roles.map((r) => (r === "public" ? r : ident(r))).join(", ")}`;
    if (p.qual !== null) sql += `\n  using (${p.qual})`;
    if (p.check !== null) sql += `\n  with check (${p.check})`;
    add(kind(rel.relkind), `${rel.schema}.${rel.name}`, `policy ${p.name}`, 4, `${sql};`);
  }

  // triggers (not the ones Postgres makes for foreign keys)
  const triggers = (
    await db.query<{ rel: number; name: string; def: string; enabled: string }>(
      `select t.tgrelid::int8 as rel, t.tgname as name, pg_get_triggerdef(t.oid, true) as def, t.tgenabled::text as enabled
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where not t.tgisinternal and ${SYSTEM}
        order by t.tgrelid, t.tgname`,
    )
  ).rows;
  for (const t of triggers) {
    const rel = relById.get(Number(t.rel));
    if (!rel) continue;
    let sql = `${t.def.replace(/ (BEFORE|AFTER|INSTEAD OF) /, "\n  $1 ").replace(/ FOR EACH /, "\n  FOR EACH ")};`;
    if (t.enabled === "D") sql += `\nalter table ${qualified(rel.schema, rel.name)} disable trigger ${ident(t.name)};`;
    add(kind(rel.relkind), `${rel.schema}.${rel.name}`, `trigger ${t.name}`, 5, sql);
  }

  // indexes that no constraint made
  const indexes = (
    await db.query<{ rel: number; name: string; def: string }>(
      `select i.indrelid::int8 as rel, ic.relname as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i join pg_class ic on ic.oid = i.indexrelid
         join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
        where not exists (select 1 from pg_constraint con where con.conindid = i.indexrelid and con.conrelid = i.indrelid)
          and ${SYSTEM}
        order by i.indrelid, ic.relname`,
    )
  ).rows;
  for (const i of indexes) {
    const rel = relById.get(Number(i.rel));
    if (!rel) continue;
    add(kind(rel.relkind), `${rel.schema}.${rel.name}`, `index ${i.name}`, 6, `${i.def};`);
  }

  // publications (Realtime's) the table is in
  const published = (
    await db.query<{ rel: number; pub: string }>(
      `select pr.prrelid::int8 as rel, p.pubname as pub from pg_publication_rel pr join pg_publication p on p.oid = pr.prpubid
        order by p.pubname`,
    )
  ).rows;
  for (const p of published) {
    const rel = relById.get(Number(p.rel));
    if (!rel) continue;
    add(
      "tables",
      `${rel.schema}.${rel.name}`,
      `publication ${p.pub}`,
      7,
      `alter publication ${ident(p.pub)} add table ${qualified(rel.schema, rel.name)};`,
    );
  }

  // functions and procedures: the current definition, then who may call it
  const routines = (
    await db.query<{
      schema: string;
      name: string;
      args: string;
      def: string;
      kind: string;
      owner: string;
      comment: string | null;
      acl: AclRow[] | null;
      defaultacl: boolean;
    }>(
      `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
              pg_get_functiondef(p.oid) as def, p.prokind::text as kind, pg_get_userbyid(p.proowner) as owner,
              obj_description(p.oid, 'pg_proc') as comment,
              (select json_agg(json_build_object('grantee', case when a.grantee = 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end,
                                                 'privilege', a.privilege_type) order by a.privilege_type)
                 from aclexplode(p.proacl) a) as acl,
              p.proacl is null as defaultacl
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where p.prokind in ('f', 'p') and ${SYSTEM} and ${NOT_EXTENSION("pg_proc", "p.oid")}
        order by n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)`,
    )
  ).rows;
  for (const r of routines) {
    const object = `${r.schema}.${r.name}`;
    const signature = `${r.kind === "p" ? "procedure" : "function"} ${qualified(r.schema, r.name)}(${r.args})`;
    add("functions", object, `${r.args} definition`, 0, `${r.def.trimEnd()};`);
    if (r.comment !== null)
      add("functions", object, `${r.args} comment`, 1, `comment on ${signature} is ${literal(r.comment)};`);
    const lines = r.defaultacl
      ? [`-- ${signature}: Postgres's default rights (public may execute)`]
      : [`revoke all on ${signature} from public;`, ...grants(r.acl ?? [], signature, r.owner)];
    add("functions", object, `${r.args} grants`, 2, lines.join("\n"));
  }

  // enums, composite types and domains
  const types = (
    await db.query<{
      schema: string;
      name: string;
      typtype: string;
      labels: string[] | null;
      def: string | null;
      attrs: string[] | null;
    }>(
      `select n.nspname as schema, t.typname as name, t.typtype::text as typtype,
              case when t.typtype = 'e' then array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder) end as labels,
              case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod)
                     || coalesce(' default ' || t.typdefault, '') || case when t.typnotnull then ' not null' else '' end
                     || coalesce((select string_agg(' constraint ' || quote_ident(con.conname) || ' ' || pg_get_constraintdef(con.oid, true), '' order by con.conname)
                                    from pg_constraint con where con.contypid = t.oid), '') end as def,
              case when t.typtype = 'c' then array(select quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
                                                     from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum) end as attrs
         from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where (t.typtype in ('e', 'd') or (t.typtype = 'c' and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c'))
          and ${SYSTEM} and ${NOT_EXTENSION("pg_type", "t.oid")}`,
    )
  ).rows;
  for (const t of types) {
    const name = qualified(t.schema, t.name);
    const sql =
      t.typtype === "e"
        ? `create type ${name} as enum (${t.labels!.map(literal).join(", ")});`
        : t.typtype === "d"
          ? `create domain ${name} as ${t.def};`
          : `create type ${name} as (\n${t.attrs!.map((a) => `  ${a}`).join(",\n")}\n);`;
    add("types", `${t.schema}.${t.name}`, "type", 0, sql);
  }
  return parts;
}

function kind(relkind: string): FileKind {
  return relkind === "v" || relkind === "m" ? "views" : "tables";
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The scheduled jobs (pg_cron's cron.job), by name. */
export async function readCronJobs(db: Queryable): Promise<Array<{ name: string; schedule: string; command: string }>> {
  const exists = await db.query<{ ok: boolean }>(`select to_regclass('cron.job') is not null as ok`);
  if (!exists.rows[0]?.ok) return [];
  return (
    await db.query<{ name: string; schedule: string; command: string }>(
      `select coalesce(jobname, jobid::text) as name, schedule, command from cron.job order by 1`,
    )
  ).rows;
}
