-- Archive and trash for tasks (issue 39, docs/product.md §18, docs/decisions/0045-archive-and-trash.md).
--
-- Archived tasks keep their row and are left out of the board, list, calendars, feeds, My work and
-- search (unless asked). Deleted tasks stay in `tasks` with `deleted_at` set: the read policy hides
-- them from every read, so nothing that lists tasks needs to know; their comments, checklist,
-- labels, assignees, field values, watchers, attachments, relations and activity stay as they are
-- and come back with them. A daily job (purge-trash) deletes those deleted 30 days ago for good.

alter table public.tasks
  add column archived_at timestamptz,
  add column deleted_at timestamptz,
  add column deleted_by uuid references public.profiles (id) on delete set null;

comment on column public.tasks.archived_at is 'Off the board, lists and calendars; shown under Archived (archive_task / unarchive_task).';
comment on column public.tasks.deleted_at is 'In the project''s trash since then (trash_tasks); hidden by the read policy; purged 30 days later.';

create index tasks_deleted_by_idx on public.tasks (deleted_by) where deleted_by is not null;
-- the trash page and the purge job: a few rows, whatever the size of the table
create index tasks_trash_idx on public.tasks (project_id, deleted_at) where deleted_at is not null;
create index tasks_archived_idx on public.tasks (project_id, archived_at) where archived_at is not null;

-- A column's places 0..n-1 are its tasks on the board: archived and deleted ones keep their status and
-- old place but are outside the rule (they come back at the end of their column).
alter table public.tasks drop constraint tasks_column_position_key;
alter table public.tasks
  add constraint tasks_column_position_key exclude using btree (project_id with =, status_id with =, position with =)
  where (archived_at is null and deleted_at is null) deferrable initially deferred;

drop policy "members see their teams' tasks" on public.tasks;
create policy "members see their teams' tasks" on public.tasks
  for select to authenticated
  using (project_id in (select private.my_project_ids()) and deleted_at is null);

-- Archive: members+ (as for editing), in an active project.
create function public.archive_task(task_id uuid, archived boolean default true)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
begin
  perform private.require_aal();
  select * into task from public.tasks t where t.id = $1 and t.deleted_at is null;
  if not found or not private.has_project_role(task.project_id, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not private.has_project_role(task.project_id, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  perform 1 from public.projects p where p.id = task.project_id for update;
  if (select p.archived_at from public.projects p where p.id = task.project_id) is not null then
    raise exception 'This project is archived; its tasks are read-only.'
      using errcode = 'P0001', detail = 'project_archived';
  end if;
  if $2 and task.archived_at is null then
    update public.tasks t set archived_at = now() where t.id = task.id returning * into task;
    perform public.renumber_task_columns(array[task.status_id]);
  elsif not $2 and task.archived_at is not null then
    -- back at the end of its column
    update public.tasks t
    set archived_at = null,
        position = (select count(*) from public.tasks x
                    where x.project_id = task.project_id and x.status_id = task.status_id
                      and x.archived_at is null and x.deleted_at is null)
    where t.id = task.id
    returning * into task;
  end if;
  return task;
end;
$$;

revoke all on function public.archive_task(uuid, boolean) from public, anon;
grant execute on function public.archive_task(uuid, boolean) to authenticated, service_role;

-- Delete = to the trash: whoever may delete (admins+, the delete policy's rule), in an active project.
-- Returns how many went. Realtime checks a change against RLS when it delivers it, and a trashed
-- row is no longer visible: the columns' status rows are touched (no value changes) so that boards
-- open on the project, which listen to their statuses too, hear of it and read again.
create function public.trash_tasks(task_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  wanted integer;
  item record;
  statuses uuid[];
begin
  perform private.require_aal();
  select count(distinct x) into wanted from unnest($1) x where x is not null;
  if wanted = 0 then
    return 0;
  end if;
  if (select count(*) from public.tasks t
      where t.id = any ($1) and t.deleted_at is null and private.has_project_role(t.project_id, 'admin', true)) <> wanted then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  perform 1 from public.projects p
  where p.id in (select t.project_id from public.tasks t where t.id = any ($1))
  order by p.id
  for update;
  for item in select t.id, t.number, t.title from public.tasks t where t.id = any ($1) order by t.project_id, t.number loop
    perform public.record_task_event(item.id, 'task_deleted',
      jsonb_build_object('number', item.number, 'title', item.title));
  end loop;
  -- the team's activity names the task as it was (its row is hidden from readers now, as after a delete)
  update public.task_events e
  set task_number = t.number, task_title = t.title
  from public.tasks t
  where t.id = any ($1) and e.task_id = t.id;
  update public.tasks t set deleted_at = now(), deleted_by = auth.uid() where t.id = any ($1);
  statuses := array(select distinct t.status_id from public.tasks t where t.id = any ($1));
  perform public.renumber_task_columns(statuses);
  update public.project_statuses s set name = s.name where s.id = any (statuses);
  return wanted;
end;
$$;

revoke all on function public.trash_tasks(uuid[]) from public, anon;
grant execute on function public.trash_tasks(uuid[]) to authenticated, service_role;

-- A task of the trash, found for whoever may restore or purge it: admins+ of its active project.
create function private.trashed_task(task_id uuid)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
begin
  perform private.require_aal();
  select * into task from public.tasks t where t.id = $1 and t.deleted_at is not null;
  if not found or not private.has_project_role(task.project_id, 'viewer') then
    raise exception 'That task is not in the trash.' using errcode = 'PT404';
  end if;
  if not private.has_project_role(task.project_id, 'admin', true) then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  perform 1 from public.projects p where p.id = task.project_id for update;
  return task;
end;
$$;

revoke all on function private.trashed_task(uuid) from public, anon, authenticated;

-- Restore: back at the end of its column, with everything it had.
create function public.restore_task(task_id uuid)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks := private.trashed_task($1);
begin
  perform private.require_aal(); -- as private.trashed_task did: two-factor accounts need aal2
  update public.tasks t
  set deleted_at = null,
      deleted_by = null,
      position = (select count(*) from public.tasks x
                  where x.project_id = task.project_id and x.status_id = task.status_id
                    and x.archived_at is null and x.deleted_at is null)
  where t.id = task.id
  returning * into task;
  return task;
end;
$$;

revoke all on function public.restore_task(uuid) from public, anon;
grant execute on function public.restore_task(uuid) to authenticated, service_role;

-- Delete forever (admins+): the row goes, its activity stays (private.tasks_record_removal stamps it).
create function public.purge_task(task_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks := private.trashed_task($1);
begin
  perform private.require_aal(); -- as private.trashed_task did: two-factor accounts need aal2
  delete from public.tasks t where t.id = task.id;
  return 1;
end;
$$;

revoke all on function public.purge_task(uuid) from public, anon;
grant execute on function public.purge_task(uuid) to authenticated, service_role;

-- The trash page: newest first; admins+ of the project (others see nothing).
create function public.project_trash(project_id uuid)
returns table (id uuid, number integer, title text, deleted_at timestamptz, deleted_by_name text, purge_on timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.number, t.title, t.deleted_at, pr.display_name, t.deleted_at + interval '30 days'
  from public.tasks t
  left join public.profiles pr on pr.id = t.deleted_by
  where t.project_id = $1 and t.deleted_at is not null
    and private.has_required_aal()
    and private.has_project_role($1, 'admin')
  order by t.deleted_at desc, t.number desc
  limit 500
$$;

revoke all on function public.project_trash(uuid) from public, anon;
grant execute on function public.project_trash(uuid) to authenticated, service_role;

-- The purge job: deleted more than 30 days before `run_at`, at most `batch` a run.
create function private.purge_trash(run_at timestamptz default now(), batch integer default 5000)
returns integer
language sql
security definer
set search_path = ''
as $$
  with gone as (
    delete from public.tasks t
    where t.id in (select x.id from public.tasks x
                   where x.deleted_at is not null and x.deleted_at < $1 - interval '30 days'
                   limit $2)
    returning 1
  )
  select count(*)::integer from gone
$$;

revoke all on function private.purge_trash(timestamptz, integer) from public, anon, authenticated;

-- the run's own time (the scheduler's clock, as due-reminders takes it), so a test can move it
select cron.schedule('purge-trash', '29 3 * * *', $$
  select private.purge_trash(coalesce(
    (select max(d.start_time) from cron.job_run_details d join cron.job j on j.jobid = d.jobid
     where j.jobname = 'purge-trash' and d.status = 'running'),
    now()))
  $$);

drop function public.search_tasks(text, integer);

CREATE OR REPLACE FUNCTION public.renumber_task_columns(statuses uuid[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if coalesce(cardinality($1), 0) = 0 then
    return;
  end if;
  perform 1 from public.projects p
  where p.id in (select s.project_id from public.project_statuses s where s.id = any ($1))
  order by p.id
  for update;
  update public.tasks t
  set position = o.n - 1
  from (
    select x.id, row_number() over (partition by x.status_id order by x.position, x.id) as n
    from public.tasks x
    where x.status_id = any ($1) and x.archived_at is null and x.deleted_at is null
  ) o
  where t.id = o.id and t.position <> o.n - 1;
end;
$function$;

CREATE OR REPLACE FUNCTION public.tasks_before_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update public.projects p
  set next_task_number = p.next_task_number + 1
  where p.id = new.project_id
  returning p.next_task_number - 1 into new.number;
  if not found then
    raise exception 'Project not found.' using errcode = '23503';
  end if;
  if new.status_id is null then
    select s.id into new.status_id
    from public.project_statuses s
    where s.project_id = new.project_id and s.category in ('backlog', 'unstarted')
    order by s.category, s.position
    limit 1;
  end if;
  select count(*) into new.position
  from public.tasks t
  where t.project_id = new.project_id and t.status_id = new.status_id
    and t.archived_at is null and t.deleted_at is null;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION public.move_task(task_id uuid, status_id uuid, "position" integer DEFAULT NULL::integer)
 RETURNS tasks
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  project uuid;
  task public.tasks;
  others integer;
  place integer;
begin
  perform private.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select t.project_id into project from public.tasks t where t.id = $1;
  if project is null or not private.has_project_role(project, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not private.has_project_role(project, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;

  perform 1 from public.projects p where p.id = project for update;
  select * into task from public.tasks t where t.id = $1 for update;
  if not found or task.deleted_at is not null then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if task.archived_at is not null then
    raise exception 'This task is archived; unarchive it to put it on the board.'
      using errcode = 'P0001', detail = 'task_archived';
  end if;
  if (select p.archived_at from public.projects p where p.id = project) is not null then
    raise exception 'This project is archived; its tasks are read-only.'
      using errcode = 'P0001', detail = 'project_archived';
  end if;
  if $2 is null or not exists (select 1 from public.project_statuses s where s.id = $2 and s.project_id = project) then
    raise exception 'That status is not one of this project''s.' using errcode = '22023', detail = 'status_not_in_project';
  end if;
  if $3 is not null and $3 < 0 then
    raise exception 'A position is 0 or more.' using errcode = '22023', detail = 'position_negative';
  end if;

  -- take it out of its column, then make room at its new place
  update public.tasks t
  set position = t.position - 1
  where t.project_id = project and t.status_id = task.status_id and t.position > task.position
    and t.archived_at is null and t.deleted_at is null;

  select count(*) into others
  from public.tasks t
  where t.project_id = project and t.status_id = $2 and t.id <> task.id
    and t.archived_at is null and t.deleted_at is null;
  place := least(coalesce($3, others), others);

  update public.tasks t
  set position = t.position + 1
  where t.project_id = project and t.status_id = $2 and t.id <> task.id and t.position >= place
    and t.archived_at is null and t.deleted_at is null;

  update public.tasks t
  set status_id = $2, position = place
  where t.id = task.id
  returning * into task;
  return task;
end;
$function$;

CREATE OR REPLACE FUNCTION public.board_view(team_slug text, project_key text, assignee text DEFAULT NULL::text, label text DEFAULT NULL::text, q text DEFAULT NULL::text, limits jsonb DEFAULT '{}'::jsonb)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  proj record;
  me uuid := auth.uid();
  tsq tsquery;
  title_like text;
  wanted_label uuid;
  -- fields the team defines (…_fields.sql): the values a card shows (at most 3 fields) and the summed ones
  card_fields jsonb;
  hidden_keys text[];
  sum_fields uuid[];
  any_on_card boolean;
  result json;
begin
  if me is null then
    return null;
  end if;
  select p.id, p.key, p.name, p.description, p.archived_at, p.team_id into proj
  from public.projects p
  join public.teams t on t.id = p.team_id
  where t.slug = $1 and p.key = $2;
  if not found then
    return null;
  end if;
  if nullif($5, '') is not null then
    tsq := websearch_to_tsquery('english'::regconfig, $5);
    -- as the REST filter did: words anywhere (full text, stemmed) or a piece of the title as typed;
    -- `*` is dropped, LIKE's own wildcards are escaped
    title_like := '%' || replace(replace(replace(replace($5, '*', ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  if nullif(btrim($4), '') is not null then
    select l.id into wanted_label from public.labels l
    where l.team_id = proj.team_id and lower(btrim(l.name)) = lower(btrim($4));
    -- an unknown label matches no task
    wanted_label := coalesce(wanted_label, '00000000-0000-0000-0000-000000000000'::uuid);
  end if;
  select
    jsonb_agg(jsonb_build_object(
      'id', f.id, 'name', f.name, 'kind', f.kind, 'on_card', f.on_card, 'sum', f.sum,
      'options', coalesce((
        select jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'color', o.color) order by o.position, o.id)
        from public.field_options o where o.field_id = f.id
      ), '[]'::jsonb)
    ) order by f.position, f.id) filter (where f.on_card or f.sum),
    array_agg(f.id::text) filter (where not f.on_card),
    array_agg(f.id) filter (where f.sum),
    coalesce(bool_or(f.on_card), false)
  into card_fields, hidden_keys, sum_fields, any_on_card
  from public.fields f where f.project_id = proj.id;
  select json_build_object(
    'fields', coalesce(card_fields, '[]'::jsonb),
    'project', json_build_object(
      'id', proj.id, 'key', proj.key, 'name', proj.name,
      'description', proj.description, 'archived_at', proj.archived_at
    ),
    'statuses', coalesce((
      select json_agg(json_build_object(
        'id', s.id, 'name', s.name, 'color', s.color, 'category', s.category, 'position', s.position,
        'wip_limit', s.wip_limit,
        -- counted only where a WIP limit asks for it
        'count', case when s.wip_limit is not null then (
          select count(*) from public.tasks t where t.project_id = proj.id and t.status_id = s.id and t.archived_at is null
        ) end,
        'cards', coalesce(c.cards, '[]'::json),
        -- each summed number field's sum over the column's tasks, from the tasks' own copy of their values
        -- (the column's tasks by the (project, status) index; joining field_values to tasks cost a lookup a value)
        'sums', case when sum_fields is not null then (
          select json_object_agg(sf.id, coalesce((
            select sum((t.fields ->> sf.id::text)::numeric) from public.tasks t
            where t.project_id = proj.id and t.status_id = s.id and t.archived_at is null
          ), 0))
          from unnest(sum_fields) sf (id)
        ) end
      ) order by s.position)
      from public.project_statuses s
      left join lateral (
        select json_agg(json_strip_nulls(to_json(x)) order by x.position, x.id) as cards
        from (
          -- no status id (the column's); the counts by the task row's names, each only when it is not 0,
          -- and `repeats` only when true (a rule and no successor yet): a card's bytes are most of the
          -- board's, most cards count nothing, and a key left out is neither written, sent nor read
          select t.id, t.number, t.title, t.priority, t.assignee_id, nullif(t.assignee_ids, '{}') as assignee_ids, t.due_on,
                 t.start_on, t.due_time, t.due_at, t.position, t.label_ids,
                 -- only the fields shown on cards, and nothing when none is
                 case when any_on_card then t.fields - coalesce(hidden_keys, '{}') end as fields,
                 nullif(t.checklist_done, 0) as checklist_done, nullif(t.checklist_total, 0) as checklist_total,
                 nullif(t.subtasks_done, 0) as subtasks_done, nullif(t.subtasks_total, 0) as subtasks_total,
                 nullif(t.open_blockers, 0) as open_blockers,
                 nullif(t.comment_count, 0) as comment_count, nullif(t.attachment_count, 0) as attachment_count,
                 case when t.recurrence is not null and t.successor_id is null then true end as repeats
          from public.tasks t
          where t.project_id = proj.id
            and t.status_id = s.id
            and t.archived_at is null
            and (
              $3 is null
              or ($3 = 'me' and t.assignee_ids @> array[me])
              or ($3 = 'none' and t.assignee_ids = '{}')
              or ($3 not in ('me', 'none') and $3 ~* '^[0-9a-f-]{36}$' and t.assignee_ids @> array[lower($3)::uuid])
            )
            and (wanted_label is null or t.label_ids @> array[wanted_label])
            and (title_like is null or t.search @@ tsq or t.title ilike title_like)
          order by t.position, t.id
          limit least(greatest(coalesce(($6 ->> s.id::text)::integer, 200), 1), 5000) + 1
        ) x
      ) c on true
      where s.project_id = proj.id
    ), '[]'::json),
    'members', coalesce((
      select json_agg(json_build_object(
        'id', m.user_id, 'display_name', pr.display_name, 'avatar_path', pr.avatar_path
      ))
      from public.team_members m
      left join public.profiles pr on pr.id = m.user_id
      where m.team_id = proj.team_id
    ), '[]'::json),
    'labels', coalesce((
      select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by lower(l.name), l.id)
      from public.labels l
      where l.team_id = proj.team_id
    ), '[]'::json)
  ) into result;
  return result;
end;
$function$;

CREATE OR REPLACE FUNCTION public.task_table(project_id uuid DEFAULT NULL::uuid, mine text DEFAULT NULL::text, assignee text DEFAULT NULL::text, label text DEFAULT NULL::text, q text DEFAULT NULL::text, sort text DEFAULT 'key'::text, "group" text DEFAULT NULL::text, page_offset integer DEFAULT 0, page_size integer DEFAULT 100, fields text DEFAULT NULL::text)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  me uuid := auth.uid();
  descending boolean := left(coalesce($6, ''), 1) = '-';
  sort_key text := ltrim(coalesce($6, 'key'), '-');
  sort_expr text;
  group_expr text := 'null::text';
  group_order text := '';
  label_join text := '';
  scope text;
  tsq tsquery;
  title_like text;
  wanted_label uuid;
  today date;
  result json;
  -- fields the team defines: the one sorted or grouped by, the filters, the summed ones
  field record;
  field_sort text;
  field_where text := '';
  wanted jsonb;
  wanted_value text;
  sums_expr text := 'null::json';
begin
  if me is null then
    return null;
  end if;
  -- a field of this project (only a project's list has fields; My work's lists span projects)
  if $1 is not null and sort_key ~* '^field:[0-9a-f-]{36}$' then
    select f.id, f.kind into field from public.fields f
    where f.id = substr(sort_key, 7)::uuid and f.project_id = $1;
    if found then
      field_sort := case field.kind
        when 'number' then format('(t.fields ->> %L)::numeric', field.id)
        when 'date' then format('(t.fields ->> %L)::date', field.id)
        when 'checkbox' then format('coalesce((t.fields ->> %L)::boolean, false)', field.id)
        -- a select in its options' order, a multi-select by its first option
        when 'select' then format('(select o.position from public.field_options o where o.id = (t.fields ->> %L)::uuid)', field.id)
        when 'multi_select' then format(
          '(select min(o.position) from public.field_options o where o.id::text in (select jsonb_array_elements_text(t.fields -> %L)))', field.id)
        when 'person' then format('(select lower(fp.display_name) from public.profiles fp where fp.id = (t.fields ->> %L)::uuid)', field.id)
        else format('lower(t.fields ->> %L)', field.id)
      end;
    end if;
  end if;
  sort_expr := case
    when field_sort is not null then field_sort
    else case sort_key
      when 'title' then 'lower(t.title)'
      when 'status' then 's.position'
      when 'priority' then 'nullif(t.priority, ''none'')'
      when 'assignee' then 'lower(a.display_name)'
      when 'due' then 't.due_on'
      -- the first of its labels' names, A to Z; no label last
      when 'labels' then '(select min(lower(l.name)) from public.labels l where l.id = any (t.label_ids))'
      when 'updated' then 't.updated_at'
      else 'p.key'
    end
  end;
  sort_expr := sort_expr || case when descending then ' desc' else '' end || ' nulls last';
  -- the key, after the sort column, keeps equal values in one order (by project, then number)
  sort_expr := sort_expr || case when field_sort is null and (sort_key in ('key', '') or sort_key not in
    ('title', 'status', 'priority', 'assignee', 'due', 'labels', 'updated'))
    then case when descending then ', t.number desc' else ', t.number' end
    else ', p.key, t.number' end;

  if $1 is not null and coalesce($7, '') ~* '^field:[0-9a-f-]{36}$' then
    select f.id, f.kind into field from public.fields f
    where f.id = substr($7, 7)::uuid and f.project_id = $1 and f.kind in ('select', 'person', 'checkbox');
    if found then
      case field.kind
        when 'select' then
          group_expr := format('(t.fields ->> %L)', field.id);
          group_order := format('(select o.position from public.field_options o where o.id = (t.fields ->> %L)::uuid) nulls last, %s nulls last, ', field.id, group_expr);
        when 'person' then
          group_expr := format('(t.fields ->> %L)', field.id);
          group_order := format('(select lower(fp.display_name) from public.profiles fp where fp.id = (t.fields ->> %L)::uuid) nulls last, %s nulls last, ', field.id, group_expr);
        else
          -- ticked first; not set counts as not ticked
          group_expr := format('coalesce(t.fields ->> %L, ''false'')', field.id);
          group_order := group_expr || ' desc, ';
      end case;
    end if;
  end if;

  case $7
    when 'status' then
      group_expr := 's.id::text';
      group_order := 's.position, s.id, ';
    when 'priority' then
      group_expr := 't.priority::text';
      group_order := 't.priority desc, ';
    when 'assignee' then
      -- a task with two assignees is in both their groups; one without any, last, in the group of none
      group_expr := 'ga.person_id::text';
      group_order := 'lower(gp.display_name) nulls last, ga.person_id nulls last, ';
      label_join := 'cross join lateral unnest(case when t.assignee_ids = ''{}'' then array[null::uuid] else t.assignee_ids end) ga(person_id)
        left join public.profiles gp on gp.id = ga.person_id';
    when 'label' then
      -- a task with three labels is in three groups; one without any, last, in the group of none
      group_expr := 'g.label_id::text';
      group_order := 'lower(gl.name) nulls last, g.label_id nulls last, ';
      label_join := 'cross join lateral unnest(case when t.label_ids = ''{}'' then array[null::uuid] else t.label_ids end) g(label_id)
        left join public.labels gl on gl.id = g.label_id';
    else
      null;
  end case;

  -- filters by value: {"<field id>": "<value>"}; `none` is "no value"; a field not of this project is ignored
  if $1 is not null and nullif(btrim($10), '') is not null then
    begin
      wanted := $10::jsonb;
    exception when others then
      wanted := null;
    end;
    if jsonb_typeof(wanted) = 'object' then
      for field in
        select f.id, f.kind, btrim(wanted ->> f.id::text) as value from public.fields f
        where f.project_id = $1 and wanted ? f.id::text and nullif(btrim(wanted ->> f.id::text), '') is not null
      loop
        wanted_value := field.value;
        field_where := field_where || ' and ' || case
          when lower(wanted_value) = 'none' then format('not (t.fields ? %L)', field.id)
          when field.kind in ('text', 'link') then format('t.fields ->> %L ilike %L', field.id,
            '%' || replace(replace(replace(wanted_value, '\', '\\'), '%', '\%'), '_', '\_') || '%')
          when field.kind = 'number' then case when wanted_value ~ '^-?[0-9]+(\.[0-9]+)?$'
            then format('(t.fields ->> %L)::numeric = %L::numeric', field.id, wanted_value) else 'false' end
          when field.kind = 'checkbox' then case when lower(wanted_value) in ('yes', 'true', 'on')
            then format('t.fields -> %L = ''true''::jsonb', field.id)
            else format('coalesce(t.fields -> %L, ''false''::jsonb) = ''false''::jsonb', field.id) end
          when field.kind = 'multi_select' then format('t.fields -> %L @> jsonb_build_array(%L::text)', field.id, lower(wanted_value))
          when field.kind = 'person' and lower(wanted_value) = 'me' then format('t.fields ->> %L = %L', field.id, me)
          else format('t.fields ->> %L = %L', field.id, lower(wanted_value))
        end;
      end loop;
    end if;
  end if;

  -- each summed number field's sum over the row's group (over every row the filters keep, not one page)
  if $1 is not null then
    select 'json_build_object(' || string_agg(
             format('%L, coalesce(sum((t.fields ->> %L)::numeric) over (partition by %s), 0)', f.id, f.id, group_expr),
             ', ' order by f.position, f.id) || ')'
    into sums_expr
    from public.fields f where f.project_id = $1 and f.sum;
    sums_expr := coalesce(sums_expr, 'null::json');
  end if;

  scope := case $2
    when 'assigned' then 't.assignee_ids @> array[$2] and t.completed_at is null'
    when 'due' then 't.assignee_ids @> array[$2] and t.completed_at is null and t.due_on <= $9 + 7'
    when 'watching' then 'exists (select 1 from public.task_watchers w where w.task_id = t.id and w.user_id = $2)'
    when 'created' then 't.created_by = $2'
    else 't.project_id = $1'
  end;
  if $1 is null and $2 is null then
    return null;
  end if;
  select (now() at time zone coalesce(pr.time_zone, 'UTC'))::date into today
  from public.profiles pr where pr.id = me;
  today := coalesce(today, current_date);

  if nullif($5, '') is not null then
    tsq := websearch_to_tsquery('english'::regconfig, $5);
    title_like := '%' || replace(replace(replace(replace($5, '*', ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  if $1 is not null and nullif(btrim($4), '') is not null then
    select l.id into wanted_label
    from public.labels l join public.projects p on p.team_id = l.team_id
    where p.id = $1 and lower(btrim(l.name)) = lower(btrim($4));
    -- an unknown label matches no task (as on the board)
    wanted_label := coalesce(wanted_label, '00000000-0000-0000-0000-000000000000'::uuid);
  end if;

  execute format($sql$
    select coalesce(json_agg(r), '[]'::json) from (
      select t.id, t.number, t.title,
             json_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category) as status,
             t.priority, t.assignee_id, t.assignee_ids, t.due_on,
             coalesce((
               select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by lower(l.name), l.id)
               from public.labels l where l.id = any (t.label_ids)
             ), '[]'::json) as labels,
             t.updated_at, p.key as project_key, tm.slug as team_slug, tm.name as team_name, %1$s as "group",
             t.fields, %6$s as sums
      from public.tasks t
      join public.project_statuses s on s.id = t.status_id
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      left join public.profiles a on a.id = t.assignee_id
      %2$s
      where %3$s %7$s
        and t.archived_at is null
        and (
          $3 is null
          or ($3 = 'me' and t.assignee_ids @> array[$2])
          or ($3 = 'none' and t.assignee_ids = '{}')
          or ($3 not in ('me', 'none') and $3 ~* '^[0-9a-f-]{36}$' and t.assignee_ids @> array[lower($3)::uuid])
        )
        and ($4 is null or t.label_ids @> array[$4])
        and ($6 is null or t.search @@ $5 or t.title ilike $6)
      order by %4$s %5$s
      offset $7 limit $8
    ) r
  $sql$, group_expr, label_join, scope, group_order, sort_expr, sums_expr, field_where)
  into result
  using $1, me, $3, wanted_label, tsq, title_like,
    least(greatest(coalesce($8, 0), 0), 100000),
    least(greatest(coalesce($9, 100), 1), 200) + 1, today;
  return result;
end;
$function$;

CREATE OR REPLACE FUNCTION public.calendar_feed(token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  feed public.calendar_feeds;
  zone text;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{59}$' then
    return null;
  end if;
  select * into feed from public.calendar_feeds f where f.selector = left(token, 16);
  if not found or not public.digests_equal(feed.token_hash, sha256(convert_to(substr(token, 17), 'UTF8'))) then
    return null;
  end if;
  select p.time_zone into zone from public.profiles p where p.id = feed.user_id;
  return jsonb_build_object(
    'time_zone', zone,
    'tasks', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', t.id, 'number', t.number, 'title', t.title, 'due_on', t.due_on, 'updated_at', t.updated_at,
        'start_on', t.start_on, 'due_at', t.due_at,
        -- a timed task starts at the start date's midnight in the zone of its due time
        'start_at', case when t.due_at is not null and t.start_on is not null
                         then t.start_on::timestamp at time zone coalesce(
                           (select z.time_zone from public.profiles z where z.id = t.assignee_id),
                           (select z.time_zone from public.profiles z where z.id = t.created_by), 'UTC') end,
        'project_key', p.key, 'team_slug', tm.slug
      ) order by t.due_on, p.key, t.number)
      from public.tasks t
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      where t.assignee_ids @> array[feed.user_id]
        and t.due_on is not null
        and t.archived_at is null and t.deleted_at is null
        and t.due_on >= (now() at time zone zone)::date - 30
        and exists (select 1 from public.team_members m where m.team_id = p.team_id and m.user_id = feed.user_id)
        and private.sees_project(p.id, feed.user_id)
    ), '[]'::jsonb)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION public.team_overview(team_id uuid)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  result json;
begin
  if auth.uid() is null or not private.is_member($1) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  select json_build_object(
    'counts', (
      select json_object_agg(c.category, coalesce(n.n, 0) order by c.category)
      from unnest(enum_range(null::public.status_category)) as c (category)
      left join (
        select s.category, count(*) as n
        from public.tasks t
        join public.projects p on p.id = t.project_id
        join public.project_statuses s on s.id = t.status_id
        where p.team_id = $1 and p.archived_at is null and t.archived_at is null
        group by s.category
      ) n on n.category = c.category
    ),
    'my_open_tasks', coalesce((
      select json_agg(x order by x.due_on nulls last, x.priority desc, x.updated_at desc)
      from (
        select t.id, t.number, t.title, t.priority, t.due_on, t.updated_at, t.project_id,
               json_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category) as status,
               p.key as project_key, p.name as project_name
        from public.tasks t
        join public.projects p on p.id = t.project_id
        join public.project_statuses s on s.id = t.status_id
        where p.team_id = $1 and p.archived_at is null
          and t.assignee_ids @> array[auth.uid()] and t.archived_at is null
          and t.completed_at is null
        order by t.due_on nulls last, t.priority desc, t.updated_at desc
        limit 50
      ) x
    ), '[]'::json)
  ) into result;
  return result;
end;
$function$;

CREATE OR REPLACE FUNCTION public.remind_due_tasks(run_at timestamp with time zone DEFAULT now())
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  with candidate as (
    -- the assignees of open tasks due in the window ...
    select t.id as task_id, t.project_id, a.person, t.due_on, t.due_at, t.due_on_set_by, t.due_on_set_at
    from public.tasks t
    cross join lateral unnest(t.assignee_ids) a (person)
    where t.assignee_ids <> '{}'
      and t.completed_at is null
      and t.archived_at is null and t.deleted_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
    union
    -- ... and their watchers who asked for due-date emails
    select t.id, t.project_id, w.user_id, t.due_on, t.due_at, t.due_on_set_by, t.due_on_set_at
    from public.task_watchers w
    join public.tasks t on t.id = w.task_id
    where t.completed_at is null
      and t.archived_at is null and t.deleted_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
      and public.email_setting(w.user_id, 'due_date') <> 'never'
  ), seen as (
    select c.* from candidate c where private.sees_project(c.project_id, c.person)
  ), due as (
    select c.task_id, c.project_id, c.person, c.due_on,
           case when c.due_on = l.day then 'due' else 'before' end as day
    from seen c
    join public.profiles p on p.id = c.person
    cross join lateral (select ($1 at time zone p.time_zone)::date as day,
                               ($1 at time zone p.time_zone)::time as clock) l
    where c.due_on - l.day in (0, 1)
      and l.clock >= time '08:00'
      -- not for the person's own change made after this reminder's 08:00
      and not (c.due_on_set_by is not distinct from c.person
               and c.due_on_set_at > (l.day + time '08:00') at time zone p.time_zone)
    union all
    -- a timed due date: also in the hour before it (the job runs every 15 minutes)
    select c.task_id, c.project_id, c.person, c.due_on, 'hour'
    from seen c
    where c.due_at is not null
      and $1 >= c.due_at - interval '1 hour' and $1 < c.due_at
      and not (c.due_on_set_by is not distinct from c.person
               and c.due_on_set_at > c.due_at - interval '1 hour')
  ), made as (
    insert into public.due_reminders (task_id, recipient_id, due_on, day, created_at)
    select task_id, person, due_on, day, $1 from due
    on conflict do nothing
    returning task_id, recipient_id
  ), notified as (
    -- each new reminder in the bell, and by email unless the person turned due-date emails off
    insert into public.notifications (recipient_id, team_id, task_id, kind, email, created_at)
    select m.recipient_id, pr.team_id, m.task_id, 'due_date',
           case when public.email_setting(m.recipient_id, 'due_date') = 'never' then 'none' else 'pending' end,
           $1
    from made m
    join public.tasks t on t.id = m.task_id
    join public.projects pr on pr.id = t.project_id
    returning 1
  )
  select count(*)::integer from made
$function$;

CREATE OR REPLACE FUNCTION public.task_events_notify()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  assigned uuid[] := '{}';
  status_changed boolean;
  comment uuid := (new.data ->> 'comment_id')::uuid;
  author uuid;
  current_assignees uuid[] := '{}';
begin
  if new.kind = 'task_created' then
    assigned := array_remove(array[(new.data ->> 'assignee')::uuid], null);
  elsif new.kind = 'task_updated' then
    -- each person the change added (several assignees); a one-assignee change as recorded before them
    assigned := array(
      select a::uuid from jsonb_array_elements_text(coalesce(new.data #> '{changes,assignees,to}', '[]')) a
      where not coalesce(new.data #> '{changes,assignees,from}', '[]') ? a
    ) || array_remove(array[(new.data #>> '{changes,assignee,to}')::uuid], null);
    status_changed := (new.data -> 'changes') ? 'status';
  elsif new.kind not in ('comment_posted', 'comment_edited') then
    return null;
  end if;
  -- nothing for a task in the trash or archived (docs/decisions/0045)
  if exists (select 1 from public.tasks t where t.id = new.task_id and (t.archived_at is not null or t.deleted_at is not null)) then
    return null;
  end if;
  if assigned = '{}' and coalesce(jsonb_array_length(new.data -> 'mentions'), 0) = 0
     and new.kind <> 'comment_posted' and not coalesce(status_changed, false) then
    return null;
  end if;
  -- a comment's author, when the service role wrote it (else the author is the actor)
  author := coalesce((new.data ->> 'author')::uuid, new.actor_id);
  if new.kind = 'comment_posted' or status_changed then
    select t.assignee_ids into current_assignees from public.tasks t where t.id = new.task_id;
  end if;

  insert into public.notifications (recipient_id, team_id, task_id, event_id, comment_id, actor_id, kind, email)
  select distinct on (r.person)
    r.person, new.team_id, new.task_id, new.id, comment, new.actor_id, r.kind,
    case when coalesce(s.email, public.default_email_setting(r.kind)) = 'never' then 'none' else 'pending' end
  from (
    select a as person, 'assigned' as kind, 1 as rank
    from unnest(assigned) a
    union all
    select m::uuid, 'mentioned', 2
    from jsonb_array_elements_text(coalesce(new.data -> 'mentions', '[]'::jsonb)) m
    union all
    select w.user_id, case when new.kind = 'comment_posted' then 'comment' else 'status' end, 3
    from public.task_watchers w
    where w.task_id = new.task_id and (new.kind = 'comment_posted' or status_changed)
    union all
    select a, case when new.kind = 'comment_posted' then 'comment' else 'status' end, 3
    from unnest(current_assignees) a
  ) r
  join public.team_members m on m.team_id = new.team_id and m.user_id = r.person
  left join public.notification_settings s on s.user_id = r.person and s.kind = r.kind
  where r.person is distinct from new.actor_id and r.person is distinct from author
    and private.sees_project(new.project_id, r.person)
  order by r.person, r.rank
  on conflict on constraint notifications_one_per_event do nothing;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.tasks_record_removal()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- the project is going too (its events go with it)
  if not exists (select 1 from public.projects p where p.id = old.project_id) then
    return old;
  end if;
  -- a task purged from the trash had its task_deleted event when it went there (trash_tasks)
  if old.deleted_at is null then
    perform public.record_task_event(old.id, 'task_deleted',
      jsonb_build_object('number', old.number, 'title', old.title));
  end if;
  update public.task_events e
  set task_number = old.number, task_title = old.title
  where e.task_id = old.id;
  return old;
end;
$function$;

CREATE OR REPLACE FUNCTION public.task_panel(team_slug text, project_key text, task_number integer, before_created_at timestamp with time zone DEFAULT NULL::timestamp with time zone, before_id uuid DEFAULT NULL::uuid, page_size integer DEFAULT 50)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  task_row record;
  result json;
begin
  if auth.uid() is null then
    return null;
  end if;
  select t.id, t.number, t.title, t.description, t.status_id, t.priority, t.assignee_id, t.assignee_ids, t.due_on,
         t.start_on, t.due_time, t.due_at, t.fields, t.project_id, t.archived_at,
         t.position, t.created_at, t.updated_at, t.created_by, t.completed_at, t.parent_id,
         case when cr.id is null then null else json_build_object('display_name', cr.display_name) end as creator,
         json_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category) as status,
         case when par.id is null then null
              else json_build_object('id', par.id, 'number', par.number, 'title', par.title) end as parent
  into task_row
  from public.tasks t
  join public.projects p on p.id = t.project_id
  join public.teams tm on tm.id = p.team_id
  join public.project_statuses s on s.id = t.status_id
  left join public.profiles cr on cr.id = t.created_by
  left join public.tasks par on par.id = t.parent_id
  where tm.slug = $1 and p.key = $2 and t.number = $3;
  if not found then
    return null;
  end if;
  select json_build_object(
    'task', row_to_json(task_row),
    'labels', coalesce((
      select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by lower(l.name), l.id)
      from public.task_labels tl join public.labels l on l.id = tl.label_id
      where tl.task_id = task_row.id
    ), '[]'::json),
    'checklist', coalesce((
      select json_agg(json_build_object(
        'id', ci.id, 'title', ci.title, 'done', ci.done, 'position', ci.position, 'ticked_at', ci.ticked_at,
        'ticked_by', case when tb.id is null then null else json_build_object('display_name', tb.display_name) end
      ) order by ci.position)
      from public.checklist_items ci
      left join public.profiles tb on tb.id = ci.ticked_by
      where ci.task_id = task_row.id
    ), '[]'::json),
    'subtasks', coalesce((
      select json_agg(json_build_object(
        'id', st.id, 'number', st.number, 'title', st.title,
        'status', json_build_object('id', ss.id, 'name', ss.name, 'color', ss.color, 'category', ss.category)
      ) order by st.number)
      from public.tasks st
      join public.project_statuses ss on ss.id = st.status_id
      where st.parent_id = task_row.id
    ), '[]'::json),
    'relations', coalesce((
      select json_agg(json_build_object(
        'id', r.id, 'kind', r.kind, 'outgoing', r.from_task_id = task_row.id,
        'task', json_build_object(
          'id', o.id, 'number', o.number, 'title', o.title, 'project_key', op.key, 'closed', o.completed_at is not null
        )
      ) order by r.kind, r.from_task_id = task_row.id desc, op.key, o.number)
      from public.task_relations r
      join public.tasks o on o.id = case when r.from_task_id = task_row.id then r.to_task_id else r.from_task_id end
      join public.projects op on op.id = o.project_id
      where r.from_task_id = task_row.id or r.to_task_id = task_row.id
    ), '[]'::json),
    -- the project's fields, in order, with a select's options (the values are task.fields)
    'fields', coalesce((
      select json_agg(json_build_object(
        'id', f.id, 'name', f.name, 'kind', f.kind, 'on_card', f.on_card, 'sum', f.sum,
        'min', f.number_min, 'max', f.number_max, 'decimals', f.number_decimals,
        'options', coalesce((
          select json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color) order by o.position, o.id)
          from public.field_options o where o.field_id = f.id
        ), '[]'::json)
      ) order by f.position, f.id)
      from public.fields f where f.project_id = task_row.project_id
    ), '[]'::json),
    'timeline', public.task_timeline(task_row.id, $4, $5, $6),
    'comment_count', (select count(*) from public.comments c where c.task_id = task_row.id),
    'watchers', (select count(*) from public.task_watchers w where w.task_id = task_row.id),
    'watching', exists (
      select 1 from public.task_watchers w where w.task_id = task_row.id and w.user_id = auth.uid()
    ),
    -- for names in events and @mentions
    'members', coalesce((
      select json_agg(json_build_object('id', pr.id, 'username', pr.username, 'display_name', pr.display_name)
                      order by pr.display_name, pr.id)
      from public.projects p
      join public.team_members m on m.team_id = p.team_id
      join public.profiles pr on pr.id = m.user_id
      where p.key = $2 and p.team_id = (select t.id from public.teams t where t.slug = $1)
    ), '[]'::json),
    'attachments', coalesce((
      select json_agg(x order by x.created_at, x.id)
      from (
        select f.id, f.object_path, f.file_name, f.size_bytes, f.content_type, f.uploaded_by, f.created_at,
               case when u.id is null then null else json_build_object('display_name', u.display_name) end as uploader
        from public.attachments f
        left join public.profiles u on u.id = f.uploaded_by
        where f.task_id = task_row.id
      ) x
    ), '[]'::json)
  ) into result;
  return result;
end;
$function$;

CREATE OR REPLACE FUNCTION public.bulk_edit_tasks(task_ids uuid[], change text, value text DEFAULT NULL::text)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  wanted integer;
  allowed integer;
  done integer := 0;
  item record;
  target uuid;
  field_change jsonb;
begin
  if auth.uid() is null then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  select count(distinct x) into wanted from unnest($1) x where x is not null;
  if wanted = 0 then
    raise exception 'Choose at least one task.' using errcode = '22023';
  end if;
  if wanted > 500 then
    raise exception 'Choose at most 500 tasks at a time.' using errcode = '22023';
  end if;
  if $2 is null or $2 not in ('status', 'assignee', 'add_assignee', 'remove_assignee', 'priority', 'add_label',
                              'remove_label', 'set_field', 'delete') then
    raise exception 'Unknown change "%".', $2 using errcode = '22023';
  end if;

  select count(*) into allowed
  from public.tasks t
  where t.id = any ($1)
    and private.has_project_role(t.project_id, case when $2 = 'delete' then 'admin' else 'member' end, true);
  if allowed <> wanted then
    raise exception 'Your role in this team doesn''t allow that.'
      using errcode = '42501', detail = format('%s of the %s tasks', wanted - allowed, wanted);
  end if;

  if $2 in ('add_assignee', 'remove_assignee') then
    if coalesce($3, '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'The assignee must be a member of this team.' using errcode = '22023', detail = 'task_assignees_same_team';
    end if;
    target := $3::uuid;
  end if;
  if $2 = 'set_field' then
    -- {"field": <id>, "value": <a value as field_values takes it, or null to clear>}
    begin
      field_change := $3::jsonb;
    exception when others then
      field_change := null;
    end;
    if jsonb_typeof(field_change) is distinct from 'object'
       or coalesce(field_change ->> 'field', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'That field isn''t one of this project''s.' using errcode = '22023', detail = 'field_not_in_project';
    end if;
    target := (field_change ->> 'field')::uuid;
  end if;
  if $2 in ('status', 'add_label', 'remove_label') then
    if coalesce($3, '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      if $2 = 'status' then
        raise exception 'That status is not one of this project''s.' using errcode = '22023', detail = 'status_not_in_project';
      end if;
      raise exception 'That label is not one of this team''s.' using errcode = '22023', detail = 'task_labels_same_team';
    end if;
    target := $3::uuid;
  end if;

  case $2
    when 'status' then
      -- one move at a time, in board order, each to the end of its new column (move_task refuses a
      -- status of another project, and that refuses them all); tasks already there stay where they are
      for item in
        select t.id from public.tasks t
        join public.project_statuses s on s.id = t.status_id
        where t.id = any ($1) and t.status_id <> target
        order by t.project_id, s.position, t.position
      loop
        perform public.move_task(item.id, target);
      end loop;
      done := wanted;
    when 'assignee' then
      update public.tasks t set assignee_id = nullif($3, '')::uuid where t.id = any ($1);
      get diagnostics done = row_count;
    when 'add_assignee' then
      -- task_assignees' trigger refuses someone outside a task's team, and an 11th assignee
      insert into public.task_assignees (task_id, person_id)
      select t.id, target from public.tasks t
      where t.id = any ($1) and not (target = any (t.assignee_ids));
      done := wanted;
    when 'remove_assignee' then
      delete from public.task_assignees ta where ta.task_id = any ($1) and ta.person_id = target;
      done := wanted;
    when 'set_field' then
      -- one statement for all of them; field_values' trigger checks each value against the field
      if coalesce(field_change -> 'value', 'null'::jsonb) in ('null'::jsonb, '""'::jsonb, '[]'::jsonb) then
        delete from public.field_values v where v.task_id = any ($1) and v.field_id = target;
      else
        insert into public.field_values as v (task_id, field_id, value)
        select t.id, target, field_change -> 'value' from public.tasks t where t.id = any ($1)
        on conflict on constraint field_values_pkey do update set value = excluded.value;
      end if;
      done := wanted;
    when 'priority' then
      update public.tasks t set priority = $3::public.task_priority where t.id = any ($1);
      get diagnostics done = row_count;
    when 'add_label' then
      -- the label's team must be each task's (task_labels' trigger refuses another team's, and the
      -- 11th label on a task); tasks that have it already keep it
      insert into public.task_labels (task_id, label_id)
      select t.id, target from public.tasks t
      where t.id = any ($1) and not (target = any (t.label_ids));
      done := wanted;
    when 'remove_label' then
      delete from public.task_labels tl where tl.task_id = any ($1) and tl.label_id = target;
      done := wanted;
    when 'delete' then
      -- to the project's trash (docs/decisions/0045); restorable for 30 days
      done := public.trash_tasks($1);
  end case;

  if done <> wanted then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  return done;
end;
$function$;

CREATE OR REPLACE FUNCTION public.search_tasks(query text, "limit" integer DEFAULT 50, archived boolean DEFAULT false)
 RETURNS TABLE(id uuid, project_id uuid, number integer, title text, status_name text, status_color palette_color, status_category status_category, priority task_priority, assignee_id uuid, due_on date, labels text[], updated_at timestamp with time zone, project_key text, project_name text, project_archived boolean, team_id uuid, team_slug text, team_name text, rank real)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  with q as (
    select websearch_to_tsquery('english'::regconfig, coalesce($1, '')) as tsq
  ),
  hits as (
    select t.*, ts_rank(t.search, q.tsq) as rank
    from q
    join public.tasks t on t.search @@ q.tsq
    where numnode(q.tsq) > 0
      and (t.archived_at is not null) = coalesce($3, false)
    order by rank desc, t.updated_at desc, t.id
    limit least(greatest(coalesce($2, 50), 1), 50)
  )
  select h.id, h.project_id, h.number, h.title, s.name, s.color, s.category, h.priority, h.assignee_id, h.due_on,
         array(
           select l.name from public.task_labels tl join public.labels l on l.id = tl.label_id
           where tl.task_id = h.id order by lower(l.name)
         ),
         h.updated_at, p.key, p.name, p.archived_at is not null, tm.id, tm.slug, tm.name, h.rank
  from hits h
  join public.project_statuses s on s.id = h.status_id
  join public.projects p on p.id = h.project_id
  join public.teams tm on tm.id = p.team_id
  order by h.rank desc, h.updated_at desc, h.id
$function$;

revoke all on function public.search_tasks(text, integer, boolean) from public, anon;
grant execute on function public.search_tasks(text, integer, boolean) to authenticated, service_role;
