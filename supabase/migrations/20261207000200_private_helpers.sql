-- Grants and exposure (issue 37; issue 35 L4; docs/decisions/0034-scale.md).
--
-- 1. public.due_reminders gets the project's revoke/grant pattern: it was the
--    only table that kept the default privileges (anon and authenticated could
--    insert, update, delete and truncate it; RLS stopped the row writes, not
--    TRUNCATE). People read their own reminders; only remind_due_tasks()
--    (security definer) writes.
--
-- 2. The helpers that row-level security policies (and the RPCs' own checks)
--    use move out of the schema the API exposes (`public`, as PostgREST's
--    db-schemas) into `private`, with the same rights: a policy runs them as
--    the person asking, so `authenticated` keeps EXECUTE and USAGE on the
--    schema, but /rest/v1/rpc/<name> no longer finds them (PGRST202, 404).
--    `alter function … set schema` keeps each function's OID and grants, so
--    the policies (which store the OID) keep working unchanged. Function bodies
--    are text, though: every body that named a helper as `public.<name>(` is
--    rewritten below to `private.<name>(` (a mechanical replace on
--    pg_get_functiondef, so any function an earlier migration defined is
--    covered, whichever branch wrote it). New SQL calls them as
--    `private.<name>(…)`; tests/integration/db-catalog.test.ts fails when a
--    body still names one in `public`, or when a helper is callable through
--    the API.
--
-- 3. tasks_assignee_id_idx (assignee_id where assignee_id is not null) is
--    covered by tasks_assignee_due_idx (assignee_id, due_on, same predicate).

-- 1. due_reminders
revoke all on table public.due_reminders from anon, authenticated, service_role;
grant select on table public.due_reminders to authenticated, service_role;

-- 2. private helpers
create schema if not exists private;
comment on schema private is
  'Helpers for row-level security and the RPCs'' checks; not exposed by the API (not in db-schemas).';
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

alter function public.has_required_aal() set schema private;
alter function public.require_aal() set schema private;
alter function public.is_member(uuid) set schema private;
alter function public.has_role(uuid, text) set schema private;
alter function public.shares_team_with(uuid) set schema private;
alter function public.has_project_role(uuid, text, boolean) set schema private;
alter function public.has_task_role(uuid, text, boolean) set schema private;
alter function public.my_project_ids() set schema private;
alter function public.my_team_ids() set schema private;
alter function public.attachment_task_id(text) set schema private;

-- Bodies that call a helper as public.<name>( now call private.<name>(.
do $$
declare
  f record;
  helpers constant text :=
    'has_required_aal|require_aal|is_member|has_role|shares_team_with|has_project_role|has_task_role|my_project_ids|my_team_ids|attachment_task_id';
  definition text;
begin
  for f in
    select p.oid
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ('pg_catalog', 'information_schema')
      and p.prokind in ('f', 'p')
      and p.prosrc ~ ('public\.(' || helpers || ')\s*\(')
  loop
    definition := regexp_replace(
      pg_get_functiondef(f.oid),
      'public\.(' || helpers || ')(\s*\()',
      'private.\1\2',
      'g'
    );
    execute definition;
  end loop;
end;
$$;

-- 3. the redundant index
drop index public.tasks_assignee_id_idx;
