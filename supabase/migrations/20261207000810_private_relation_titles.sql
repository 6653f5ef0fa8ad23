-- A relation's activity event names the other task (task_relations_record_change):
-- between a team-wide task and a private project's task, the team-wide task's
-- activity would show the private task's title to people who can't see it
-- (issue 41; decision 0039). Such events keep the other task's key and number
-- but not its title: when the relation is made, and, for events already made,
-- when the project turns private.

create or replace function public.task_relations_record_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  rel public.task_relations;
  kind text := case when tg_op = 'INSERT' then 'relation_added' else 'relation_removed' end;
  from_ref jsonb;
  to_ref jsonb;
  from_project uuid;
  to_project uuid;
  -- may each side's event name the other task's title? (same project, or the other is team-wide)
  from_named boolean;
  to_named boolean;
begin
  if tg_op = 'INSERT' then rel := new; else rel := old; end if;
  from_ref := coalesce(public.task_ref(rel.from_task_id), '{}'::jsonb);
  to_ref := coalesce(public.task_ref(rel.to_task_id), '{}'::jsonb);
  select t.project_id into from_project from public.tasks t where t.id = rel.from_task_id;
  select t.project_id into to_project from public.tasks t where t.id = rel.to_task_id;
  to_named := from_project is not distinct from to_project
    or exists (select 1 from public.projects p where p.id = to_project and p.visibility = 'team');
  from_named := from_project is not distinct from to_project
    or exists (select 1 from public.projects p where p.id = from_project and p.visibility = 'team');
  perform public.record_task_event(rel.from_task_id, kind, jsonb_build_object(
    'relation', rel.kind::text, 'other_task_id', rel.to_task_id,
    'number', to_ref -> 'number', 'title', case when to_named then to_ref -> 'title' end,
    'project_key', to_ref -> 'project_key'));
  perform public.record_task_event(rel.to_task_id, kind, jsonb_build_object(
    'relation', case rel.kind when 'blocks' then 'blocked_by' when 'duplicates' then 'duplicated_by' else 'relates' end,
    'other_task_id', rel.from_task_id,
    'number', from_ref -> 'number', 'title', case when from_named then from_ref -> 'title' end,
    'project_key', from_ref -> 'project_key'));
  return null;
end;
$$;

create or replace function private.projects_after_visibility() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.forget_unseen_project(new.id);
  -- other projects' relation events name this project's tasks by key and number only
  update public.task_events e
  set data = e.data - 'title'
  where e.team_id = new.team_id
    and e.project_id <> new.id
    and e.kind in ('relation_added', 'relation_removed')
    and e.data ? 'title'
    and (e.data ->> 'other_task_id')::uuid in (select t.id from public.tasks t where t.project_id = new.id);
  return null;
end;
$$;
