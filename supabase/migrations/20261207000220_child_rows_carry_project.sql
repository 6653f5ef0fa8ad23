-- Read policies decide once per query, not once per row (issue 37; docs/decisions/0034-scale.md).
--
-- The read policies of comments, attachments and task watchers called
-- has_task_role(task_id, 'viewer') for every row: a security definer function
-- (never inlined) that joins tasks, projects and team_members per row. At
-- 20,000 tasks counting 25,000 comments took 1.7–4.3 s. The set-based
-- `task_id in (select id from tasks)` still hashes every task the person can
-- see on each read (1.46× the panel, 2.23× a count, measured). So the child
-- row keeps its task's project id, and the policy compares it with the
-- person's projects, a list of a few ids made once per query
-- (`project_id in (select private.my_project_ids())`, as tasks,
-- checklist_items and task_labels already do): 1.0×.
--
-- THE PATTERN for a table of rows that belong to a task (see 0034):
--   1. a column `project_id uuid not null default private.filled_by_keep_project_id()`
--      (a copy of the task's, not a reference: the task_id foreign key deletes the row
--      with its task; the default only tells the API's types that nobody sends it);
--   2. `create trigger keep_project_id before insert on public.<table> for each row
--       execute function private.keep_project_id();` (fills it from new.task_id,
--      whatever the client sent);
--   3. the read policy `using (project_id in (select private.my_project_ids()))`.
-- A task never changes project (tasks_project_fixed below), so the copy stays
-- right. Write policies may still check the task per row: a write touches the
-- rows it names. tests/integration/db-catalog.test.ts fails on a read policy
-- that calls a helper per row.
--
-- The same for the tables whose read policies called is_member / has_role /
-- shares_team_with per row (teams, projects, team_members, invitations,
-- profiles): they compare with the person's teams (or teammates), made once.
-- The attachments bucket's files name their task in the path
-- (`<task id>/<file>`): its read policy looks the task up through the tasks
-- policy (an index probe, planned as a semi-join with the person's projects
-- made once) instead of calling has_task_role per file.

create function private.keep_project_id() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- not found: left null, so the insert fails (row-level security first: no hint that a task exists)
  new.project_id := (select t.project_id from public.tasks t where t.id = new.task_id);
  return new;
end;
$$;

revoke execute on function private.keep_project_id() from public, anon, authenticated;

create function private.tasks_project_fixed() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'A task stays in its project.' using errcode = '23514', detail = 'tasks_project_fixed';
end;
$$;

revoke execute on function private.tasks_project_fixed() from public, anon, authenticated;

create trigger tasks_project_fixed
before update of project_id on public.tasks
for each row when (old.project_id is distinct from new.project_id)
execute function private.tasks_project_fixed();

-- comments, attachments, task_watchers: the column, filled for the rows there are
alter table public.comments add column project_id uuid;
alter table public.attachments add column project_id uuid;
alter table public.task_watchers add column project_id uuid;

update public.comments c set project_id = t.project_id from public.tasks t where t.id = c.task_id;
update public.attachments a set project_id = t.project_id from public.tasks t where t.id = a.task_id;
update public.task_watchers w set project_id = t.project_id from public.tasks t where t.id = w.task_id;

alter table public.comments alter column project_id set not null;
alter table public.attachments alter column project_id set not null;
alter table public.task_watchers alter column project_id set not null;

-- A default that says who fills the column: nobody sends it (authenticated has no insert grant
-- on it), so the API's types (supabase gen types) must not ask for it on insert; keep_project_id()
-- replaces the null before the not-null check.
create function private.filled_by_keep_project_id() returns uuid
language sql
stable
set search_path = ''
as $$ select null::uuid $$;

revoke execute on function private.filled_by_keep_project_id() from public, anon;
grant execute on function private.filled_by_keep_project_id() to authenticated, service_role;

alter table public.comments alter column project_id set default private.filled_by_keep_project_id();
alter table public.attachments alter column project_id set default private.filled_by_keep_project_id();
alter table public.task_watchers alter column project_id set default private.filled_by_keep_project_id();

create trigger keep_project_id before insert on public.comments
for each row execute function private.keep_project_id();
create trigger keep_project_id before insert on public.attachments
for each row execute function private.keep_project_id();
create trigger keep_project_id before insert on public.task_watchers
for each row execute function private.keep_project_id();

drop policy "members see comments" on public.comments;
create policy "members see comments"
on public.comments for select
to authenticated
using (project_id in (select private.my_project_ids()));

drop policy "members see attachments" on public.attachments;
create policy "members see attachments"
on public.attachments for select
to authenticated
using (project_id in (select private.my_project_ids()));

drop policy "readers of a task see its watchers" on public.task_watchers;
create policy "readers of a task see its watchers"
on public.task_watchers for select
to authenticated
using (project_id in (select private.my_project_ids()));

-- the attachments bucket: the task named by the path, if the person may read it
drop policy "members read their teams' attachment files" on storage.objects;
create policy "members read their teams' attachment files"
on storage.objects for select
to authenticated
using (
  bucket_id = 'attachments'
  and exists (select 1 from public.tasks t where t.id = private.attachment_task_id(name))
);

-- teams, projects, team members, invitations, profiles: the person's teams, once per query
create function private.my_admin_team_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.team_id from public.team_members m
  where m.user_id = auth.uid() and m.role >= 'admin'::public.team_role and (select private.has_required_aal())
$$;

create function private.my_teammate_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select distinct theirs.user_id
  from public.team_members mine
  join public.team_members theirs on theirs.team_id = mine.team_id
  where mine.user_id = auth.uid() and (select private.has_required_aal())
$$;

revoke execute on function private.my_admin_team_ids(), private.my_teammate_ids() from public, anon;
grant execute on function private.my_admin_team_ids(), private.my_teammate_ids() to authenticated, service_role;

drop policy "members see their teams" on public.teams;
create policy "members see their teams"
on public.teams for select
to authenticated
using (id in (select private.my_team_ids()));

drop policy "members see their teams' projects" on public.projects;
create policy "members see their teams' projects"
on public.projects for select
to authenticated
using (team_id in (select private.my_team_ids()));

drop policy "members see who is in their teams" on public.team_members;
create policy "members see who is in their teams"
on public.team_members for select
to authenticated
using (team_id in (select private.my_team_ids()));

drop policy "admins and the invited person see invitations" on public.invitations;
create policy "admins and the invited person see invitations"
on public.invitations for select
to authenticated
using (
  team_id in (select private.my_admin_team_ids())
  or (accepted_at is null and revoked_at is null and expires_at > now()
      and lower(email) = lower(coalesce((select auth.jwt()) ->> 'email', '')))
);

drop policy "people see themselves and their teammates" on public.profiles;
create policy "people see themselves and their teammates"
on public.profiles for select
to authenticated
using (id = (select auth.uid()) or id in (select private.my_teammate_ids()));
