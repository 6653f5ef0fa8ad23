-- The board reads each column of a project (200 tasks at a time) out of
-- projects with thousands of tasks. The first tasks read policy called
-- has_project_role() once per row, before the column's filter could narrow
-- anything: each column query cost as much as the whole project (240 ms at
-- 6,000 tasks). The same rule, written as "the task's project is one of mine",
-- lets Postgres compute my projects once per query (a hashed subplan).
-- Same meaning: any role (viewer and up) in the project's team may read.

create function public.my_project_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id
  from public.projects p
  join public.team_members m on m.team_id = p.team_id
  where m.user_id = auth.uid()
$$;

revoke execute on function public.my_project_ids() from public, anon;
grant execute on function public.my_project_ids() to authenticated, service_role;

drop policy "members see their teams' tasks" on public.tasks;

create policy "members see their teams' tasks"
on public.tasks for select
to authenticated
using (project_id in (select public.my_project_ids()));
