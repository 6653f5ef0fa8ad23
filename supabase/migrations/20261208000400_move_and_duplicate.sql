-- Move a task to another project of its team, and duplicate a task (issue 39; docs/product.md §18;
-- docs/decisions/0046-move-and-duplicate.md).
--
-- A task kept its project for good until now (private.tasks_project_fixed, 20261207000220): every
-- row of a task carries the task's project id (decision 0034), so a move has to rewrite them all at
-- once. public.move_task_to_project does it in one transaction; the trigger stays and lets only it
-- through (a transaction-local setting it sets and clears).
--
-- The old key keeps working: public.task_moves holds every key a task had (WEB-12 → the task), read
-- by the task page (a 301 to the new address), by text_references (WEB-12 in Markdown) and by
-- moved_task_address. Numbers are never handed out twice (projects.next_task_number only grows), so
-- an old key can't clash with a new task.

-- the old keys -----------------------------------------------------------------------------------
create table public.task_moves (
  from_project_id uuid not null references public.projects (id) on delete cascade,
  from_number integer not null,
  task_id uuid not null references public.tasks (id) on delete cascade,
  -- the task's project now (kept by move_task_to_project), so the read policy compares ids only
  project_id uuid not null references public.projects (id) on delete cascade,
  moved_at timestamptz not null default now(),
  primary key (from_project_id, from_number)
);

create index task_moves_task_id_idx on public.task_moves (task_id);
create index task_moves_project_id_idx on public.task_moves (project_id);

comment on table public.task_moves is
  'Every key a task had before it moved to another project (WEB-12 → the task); written by move_task_to_project only.';

revoke all on table public.task_moves from anon, authenticated;
grant select on table public.task_moves to authenticated;
grant delete, insert, select, update on table public.task_moves to service_role;

alter table public.task_moves enable row level security;

-- who sees either project sees the move (the old project's board hears the task leave it; the task
-- itself is read through the tasks policy)
create policy "members see the moves of the projects they see" on public.task_moves
  for select to authenticated
  using (from_project_id in (select private.my_project_ids()) or project_id in (select private.my_project_ids()));

create policy "two-factor accounts need aal2" on public.task_moves as restrictive
  for all to authenticated
  using ((select private.has_required_aal()))
  with check ((select private.has_required_aal()));

alter publication supabase_realtime add table public.task_moves;

-- only the move changes a task's project -------------------------------------------------------------
create or replace function private.tasks_project_fixed()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('teamboard.moving_tasks', true) = 'on' then
    return new;
  end if;
  raise exception 'A task stays in its project.' using errcode = '23514', detail = 'tasks_project_fixed';
end;
$$;

-- field values by name and kind ------------------------------------------------------------------------
-- A task's values in words its target can take: the field's name and kind, and the value (a select's
-- options by name, as field_values_before_write accepts them).
create or replace function private.field_values_snapshot(task uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
    'name', f.name,
    'kind', f.kind,
    'value', case when f.kind in ('select', 'multi_select')
                  then (select jsonb_agg(o.name order by o.position) from public.field_options o
                        where o.id = any (v.option_ids))
                  else v.value end
  ) order by f.position), '[]'::jsonb)
  from public.field_values v
  join public.fields f on f.id = v.field_id
  where v.task_id = $1
$$;

-- Puts a snapshot on a task: each value on the field of the task's project with the same name
-- (any capitals) and kind. Answers the names of those that had no such field or that the field
-- refuses (a number out of its range, an option it hasn't): they are left out.
create or replace function private.put_field_values(task uuid, snapshot jsonb)
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  item jsonb;
  target uuid;
  dropped text[] := '{}';
begin
  for item in select * from jsonb_array_elements(coalesce($2, '[]'::jsonb)) loop
    select f.id into target
    from public.fields f
    join public.tasks t on t.project_id = f.project_id
    where t.id = $1 and lower(btrim(f.name)) = lower(btrim(item ->> 'name')) and f.kind::text = item ->> 'kind';
    if target is null or item -> 'value' is null or item -> 'value' = 'null'::jsonb then
      dropped := dropped || (item ->> 'name');
      continue;
    end if;
    begin
      insert into public.field_values (task_id, field_id, project_id, value)
      values ($1, target, (select t.project_id from public.tasks t where t.id = $1), item -> 'value');
    exception when invalid_parameter_value then
      dropped := dropped || (item ->> 'name');
    end;
  end loop;
  return dropped;
end;
$$;

revoke all on function private.field_values_snapshot(uuid) from public;
revoke all on function private.put_field_values(uuid, jsonb) from public;

-- A status of the target for one of the source: the first (by position) of the same category, else
-- the target's first open one.
create or replace function private.status_like(status uuid, project uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select s.id
  from public.project_statuses s
  where s.project_id = $2
  order by s.category is distinct from (select x.category from public.project_statuses x where x.id = $1),
           s.category = 'completed', s.category = 'canceled', s.position
  limit 1
$$;

revoke all on function private.status_like(uuid, uuid) from public;

-- the move -----------------------------------------------------------------------------------------------
-- The task and its sub-tasks go to `target_project` of the same team, each with the next key there;
-- the task into `target_status` (null: the status like its own), its sub-tasks by category. A sub-task
-- moved alone leaves its parent. Everything of theirs moves: checklist, comments, activity,
-- attachments (their files are named by task id, not project), watchers, labels, assignees (those
-- who can't see the target are left off, as turning a project private does), and field values whose
-- field the target has by name and kind. One event in each project. Members+ of both projects.
create or replace function public.move_task_to_project(task_id uuid, target_project uuid, target_status uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
  source public.projects;
  target public.projects;
  ids uuid[];
  snapshots jsonb := '{}'::jsonb;
  moved record;
  dropped text[] := '{}';
  unassigned uuid[];
  first_number integer;
  change jsonb;
  tid uuid;
begin
  perform private.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select t.* into task from public.tasks t where t.id = $1;
  -- a task in the trash is found by nobody here (as through the API)
  if task.id is null or task.deleted_at is not null or not private.has_project_role(task.project_id, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  select p.* into source from public.projects p where p.id = task.project_id;
  select p.* into target from public.projects p where p.id = $2;
  if target.id is null or target.team_id <> source.team_id or not private.has_project_role(target.id, 'viewer') then
    raise exception 'Choose a project of this team to move the task to.' using errcode = '22023', detail = 'move_target_unknown';
  end if;
  if target.id = source.id then
    raise exception 'The task is in that project already.' using errcode = '22023', detail = 'move_target_same';
  end if;
  if not private.has_project_role(source.id, 'member') or not private.has_project_role(target.id, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  if source.archived_at is not null or target.archived_at is not null then
    raise exception 'This project is archived; its tasks are read-only.' using errcode = 'P0001', detail = 'project_archived';
  end if;
  if $3 is not null and not exists (select 1 from public.project_statuses s where s.id = $3 and s.project_id = target.id) then
    raise exception 'That status is not one of this project''s.' using errcode = '22023', detail = 'status_not_in_project';
  end if;

  -- both projects locked in one order (numbers, columns), then the task and its sub-tasks
  perform 1 from public.projects p where p.id in (source.id, target.id) order by p.id for update;
  ids := array(
    select t.id from public.tasks t
    where t.id = task.id or t.parent_id = task.id
    order by t.id <> task.id, t.number
    for update
  );
  select t.* into task from public.tasks t where t.id = $1;
  for tid in select unnest(ids) loop
    snapshots := snapshots || jsonb_build_object(tid::text, private.field_values_snapshot(tid));
  end loop;

  perform set_config('teamboard.moving_tasks', 'on', true);
  -- the keys they had, and the next ones of the target (in the order of their numbers)
  update public.task_moves m set project_id = target.id where m.task_id = any (ids);
  insert into public.task_moves (from_project_id, from_number, task_id, project_id)
  select source.id, t.number, t.id, target.id from public.tasks t where t.id = any (ids);
  update public.projects p set next_task_number = p.next_task_number + cardinality(ids)
  where p.id = target.id returning p.next_task_number - cardinality(ids) into first_number;
  -- one statement (a sub-task names its parent with the project: tasks_parent_in_project_fkey), at
  -- the ends of their new columns (tasks_close_gaps_after_update closes the numbering)
  update public.tasks t
  set project_id = target.id,
      number = first_number + o.n - 1,
      status_id = case when t.id = task.id then coalesce($3, private.status_like(t.status_id, target.id))
                       else private.status_like(t.status_id, target.id) end,
      position = 1000000 + o.n,
      parent_id = case when t.id = task.id then null else t.parent_id end,
      fields = '{}'::jsonb
  from unnest(ids) with ordinality as o (x, n)
  where t.id = o.x;
  -- one statement per table: the rows of every moved task follow it
  update public.checklist_items c set project_id = target.id where c.task_id = any (ids);
  update public.comments c set project_id = target.id where c.task_id = any (ids);
  update public.attachments a set project_id = target.id where a.task_id = any (ids);
  update public.task_labels l set project_id = target.id where l.task_id = any (ids);
  update public.task_events e set project_id = target.id where e.task_id = any (ids);
  -- people who can't see the target stop watching and are unassigned there
  delete from public.task_watchers w where w.task_id = any (ids) and not private.sees_project(target.id, w.user_id);
  update public.task_watchers w set project_id = target.id where w.task_id = any (ids);
  unassigned := array(
    select distinct a.person_id from public.task_assignees a
    where a.task_id = any (ids) and not private.sees_project(target.id, a.person_id)
  );
  delete from public.task_assignees a where a.task_id = any (ids) and a.person_id = any (unassigned);
  update public.task_assignees a set project_id = target.id where a.task_id = any (ids);
  delete from public.field_values v where v.task_id = any (ids);
  for tid in select unnest(ids) loop
    dropped := dropped || private.put_field_values(tid, snapshots -> tid::text);
  end loop;
  perform set_config('teamboard.moving_tasks', 'off', true);

  -- what the writes above recorded one by one is this move, recorded once in each project
  delete from public.task_events e
  where e.task_id = any (ids) and e.tx = pg_current_xact_id() and e.kind = 'task_updated';
  select t.* into moved from public.tasks t where t.id = $1;
  change := jsonb_build_object('project', jsonb_build_object(
    'from', jsonb_build_object('key', source.key, 'name', source.name, 'number', task.number),
    'to', jsonb_build_object('key', target.key, 'name', target.name, 'number', moved.number)));
  -- the old project's record names the task as it was there (as a deleted task's do), so the
  -- task's own timeline shows the move once
  insert into public.task_events (team_id, project_id, task_id, actor_id, kind, data, task_number, task_title)
  values (source.team_id, source.id, null, auth.uid(), 'task_updated',
          jsonb_build_object('changes', change, 'mentions', '[]'::jsonb), task.number, task.title);
  -- a status of another name (In progress to In progress says nothing)
  if lower((select s.name from public.project_statuses s where s.id = moved.status_id))
     is distinct from lower((select s.name from public.project_statuses s where s.id = task.status_id)) then
    change := change || jsonb_build_object('status', jsonb_build_object(
      'from', public.status_ref(task.status_id), 'to', public.status_ref(moved.status_id)));
  end if;
  insert into public.task_events (team_id, project_id, task_id, actor_id, kind, data)
  values (target.team_id, target.id, task.id, auth.uid(), 'task_updated',
          jsonb_build_object('changes', change, 'mentions', '[]'::jsonb));

  return jsonb_build_object(
    'project_key', target.key,
    'number', moved.number,
    'tasks', cardinality(ids),
    'dropped_fields', (select coalesce(jsonb_agg(distinct d), '[]'::jsonb) from unnest(dropped) d),
    'unassigned', (select coalesce(jsonb_agg(pr.display_name order by pr.display_name), '[]'::jsonb)
                   from public.profiles pr where pr.id = any (unassigned))
  );
end;
$$;

revoke all on function public.move_task_to_project(uuid, uuid, uuid) from public;
grant execute on function public.move_task_to_project(uuid, uuid, uuid) to authenticated, service_role;

-- the duplicate -------------------------------------------------------------------------------------------
-- A copy of the task in `target_project` (null: its own) with `title` (null: "Copy of …"): its
-- description, priority, due date, labels, assignees (who can see the target), field values (by
-- name and kind), and checklist unticked; not its comments, activity, attachments, sub-tasks or
-- repeat rule. One event: the copy's "created". Members+ of the target who can read the task.
create or replace function public.duplicate_task(task_id uuid, target_project uuid default null, title text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
  target public.projects;
  copy public.tasks;
  dropped text[];
  new_title text;
begin
  perform private.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select t.* into task from public.tasks t where t.id = $1;
  -- a task in the trash is found by nobody here (as through the API)
  if task.id is null or task.deleted_at is not null or not private.has_project_role(task.project_id, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  select p.* into target from public.projects p where p.id = coalesce($2, task.project_id);
  if target.id is null or target.team_id <> (select p.team_id from public.projects p where p.id = task.project_id)
     or not private.has_project_role(target.id, 'viewer') then
    raise exception 'Choose a project of this team to copy the task to.' using errcode = '22023', detail = 'move_target_unknown';
  end if;
  if not private.has_project_role(target.id, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  if target.archived_at is not null then
    raise exception 'This project is archived; its tasks are read-only.' using errcode = 'P0001', detail = 'project_archived';
  end if;
  new_title := btrim(coalesce($3, 'Copy of ' || task.title));
  if char_length(new_title) > 200 and $3 is null then
    new_title := left(new_title, 199) || '…';
  end if;

  insert into public.tasks (project_id, title, description, priority, due_on, status_id, created_by)
  values (target.id, new_title, task.description, task.priority, task.due_on,
          case when target.id = task.project_id then task.status_id else private.status_like(task.status_id, target.id) end,
          auth.uid())
  returning * into copy;
  insert into public.task_labels (task_id, label_id, project_id)
  select copy.id, l.label_id, target.id from public.task_labels l where l.task_id = task.id;
  insert into public.task_assignees (task_id, person_id, project_id)
  select copy.id, a.person_id, target.id from public.task_assignees a
  where a.task_id = task.id and private.sees_project(target.id, a.person_id)
  order by a.position;
  insert into public.checklist_items (task_id, project_id, title, position)
  select copy.id, target.id, c.title, c.position from public.checklist_items c where c.task_id = task.id
  order by c.position;
  dropped := private.put_field_values(copy.id, private.field_values_snapshot(task.id));

  -- the labels, assignees and values were part of the copy's creation: one event
  delete from public.task_events e
  where e.task_id = copy.id and e.tx = pg_current_xact_id() and e.kind <> 'task_created';
  update public.task_events e
  set data = e.data || jsonb_build_object('copied_from', public.task_ref(task.id))
  where e.task_id = copy.id and e.kind = 'task_created';

  select t.* into copy from public.tasks t where t.id = copy.id;
  return jsonb_build_object(
    'project_key', target.key,
    'number', copy.number,
    'dropped_fields', (select coalesce(jsonb_agg(distinct d), '[]'::jsonb) from unnest(dropped) d)
  );
end;
$$;

revoke all on function public.duplicate_task(uuid, uuid, text) from public;
grant execute on function public.duplicate_task(uuid, uuid, text) to authenticated, service_role;

-- an old key's task, where the reader may see it ---------------------------------------------------------
create or replace function public.moved_task_address(team_slug text, project_key text, task_number integer)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object('project_key', p.key, 'number', t.number)
  from public.task_moves m
  join public.projects old on old.id = m.from_project_id
  join public.teams tm on tm.id = old.team_id
  join public.tasks t on t.id = m.task_id
  join public.projects p on p.id = t.project_id
  where tm.slug = $1 and old.key = upper($2) and m.from_number = $3
$$;

revoke all on function public.moved_task_address(text, text, integer) from public;
grant execute on function public.moved_task_address(text, text, integer) to authenticated, service_role;

-- WEB-12 in text: a key the task had leads to it (restated from 20261207000810's text; the tasks
-- part also looks in task_moves)
create or replace function public.text_references(team_slug text, task_keys text[] default '{}'::text[],
  usernames text[] default '{}'::text[], attachment_ids uuid[] default '{}'::uuid[])
returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    'tasks', coalesce((
      select json_agg(json_build_object('key', k.key, 'number', t.number, 'project_key', p.key, 'title', t.title))
      from (
        select p.key || '-' || t.number as key, t.id
        from public.tasks t
        join public.projects p on p.id = t.project_id
        join public.teams tm on tm.id = p.team_id
        where tm.slug = $1 and (p.key || '-' || t.number) = any(coalesce($2, '{}'))
        union
        select old.key || '-' || m.from_number, m.task_id
        from public.task_moves m
        join public.projects old on old.id = m.from_project_id
        join public.teams tm on tm.id = old.team_id
        where tm.slug = $1 and (old.key || '-' || m.from_number) = any(coalesce($2, '{}'))
      ) k
      join public.tasks t on t.id = k.id
      join public.projects p on p.id = t.project_id
    ), '[]'::json),
    'people', coalesce((
      select json_agg(json_build_object('username', pr.username::text, 'display_name', pr.display_name))
      from public.profiles pr
      join public.team_members m on m.user_id = pr.id
      join public.teams tm on tm.id = m.team_id
      where tm.slug = $1 and lower(pr.username::text) = any(coalesce($3, '{}'))
    ), '[]'::json),
    'attachments', coalesce((
      select json_agg(json_build_object('id', f.id, 'file_name', f.file_name, 'content_type', f.content_type))
      from public.attachments f
      join public.tasks t on t.id = f.task_id
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      where tm.slug = $1 and f.id = any(coalesce($4, '{}'))
    ), '[]'::json)
  )
  where cardinality($2) + cardinality($3) + cardinality($4) <= 1000;
$$;
