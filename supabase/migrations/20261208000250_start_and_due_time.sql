-- Start dates and due times (issue 38, docs/product.md §17; decision 0043).
--
-- tasks.start_on (a day) and tasks.due_time (a time of day, whole minutes) beside
-- the existing due_on, which keeps its meaning: a task without a time is due on
-- a day, as before, and every reader of due_on (reminders at 08:00, the
-- calendar, My work, the feed, overdue) keeps working unchanged. The time is
-- read in the zone of the task's first assignee, else its creator's, else UTC
-- (§17), and the instant it names is kept in tasks.due_at by a trigger, so the
-- reminder job and "Overdue" compare instants without working out zones.
-- due_at is not writable by clients (no column grant).
--
-- Checked by the database: a time needs a date; the start date is a real date
-- and not after the due date (tasks_start_before_due, worded by the app:
-- "The start date can't be after the due date.").
--
-- Restated (from supabase/schemas): save_task and create_task (the keys
-- start_on and due_time), board_view and task_panel (send the three columns),
-- tasks_note_due_on (a changed time counts as a changed due date),
-- remind_due_tasks (the hour before a timed due date), calendar_feed (start
-- and due instants), tasks_repeat (every assignee, the start offset, the time).

alter table public.tasks
  add column start_on date,
  add column due_time time,
  add column due_at timestamptz,
  add constraint tasks_start_on_range check (start_on >= date '2000-01-01' and start_on <= date '2100-12-31'),
  add constraint tasks_start_before_due check (start_on is null or due_on is null or start_on <= due_on),
  add constraint tasks_due_time_needs_due_on check (due_time is null or due_on is not null),
  add constraint tasks_due_time_minutes check (due_time = date_trunc('minute', due_time)::time);

comment on column public.tasks.start_on is 'The day work on the task starts (optional; not after due_on).';
comment on column public.tasks.due_time is 'The time of day on due_on the task is due, in its first assignee''s zone, else its creator''s (optional).';
comment on column public.tasks.due_at is 'The instant due_on + due_time names (tasks_set_due_at); null without a time. Written by the database only.';

grant insert (start_on, due_time) on table public.tasks to authenticated;
grant update (start_on, due_time) on table public.tasks to authenticated;

-- The instant, from the day, the time and the zone of the first assignee (else the creator).
-- Kept when any of them changes; a person who later changes their own zone moves no task.
create function public.tasks_set_due_at() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.due_on is not distinct from old.due_on and new.due_time is not distinct from old.due_time
     and new.assignee_id is not distinct from old.assignee_id then
    new.due_at := old.due_at;
    return new;
  end if;
  if new.due_time is null or new.due_on is null then
    new.due_at := null;
  else
    new.due_at := (new.due_on + new.due_time) at time zone coalesce(
      (select p.time_zone from public.profiles p where p.id = new.assignee_id),
      (select p.time_zone from public.profiles p where p.id = new.created_by),
      'UTC');
  end if;
  return new;
end;
$$;

revoke all on function public.tasks_set_due_at() from public, anon, authenticated;
grant execute on function public.tasks_set_due_at() to service_role;

create trigger tasks_set_due_at
  before insert or update on public.tasks
  for each row execute function public.tasks_set_due_at();

-- A changed time is a changed due date for "not for the person's own change" (remind_due_tasks).
create or replace function public.tasks_note_due_on() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.due_on is distinct from old.due_on or new.due_time is distinct from old.due_time then
    new.due_on_set_by := auth.uid();
    new.due_on_set_at := now();
  else
    new.due_on_set_by := old.due_on_set_by;
    new.due_on_set_at := old.due_on_set_at;
  end if;
  return new;
end;
$$;

-- 'hour': the reminder one hour before a timed due date.
alter table public.due_reminders drop constraint due_reminders_day;
alter table public.due_reminders
  add constraint due_reminders_day check (day = any (array['before', 'due', 'hour']));

CREATE OR REPLACE FUNCTION public.save_task(task_id uuid, changes jsonb)
 RETURNS json
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  c jsonb := coalesce($2, '{}'::jsonb);
  saved record;
begin
  if jsonb_typeof(c) <> 'object' then
    raise exception 'changes is an object.' using errcode = '22023';
  end if;
  update public.tasks t set
    title = case when c ? 'title' then c ->> 'title' else t.title end,
    description = case when c ? 'description' then coalesce(c ->> 'description', '') else t.description end,
    priority = case when c ? 'priority' then coalesce(c ->> 'priority', 'none')::public.task_priority else t.priority end,
    due_on = case when c ? 'due_on' then (c ->> 'due_on')::date else t.due_on end,
    start_on = case when c ? 'start_on' then (c ->> 'start_on')::date else t.start_on end,
    due_time = case when c ? 'due_time' then (c ->> 'due_time')::time else t.due_time end,
    recurrence = case when c ? 'recurrence' then c ->> 'recurrence' else t.recurrence end
  where t.id = $1
  returning t.id, t.number into saved;
  if saved.id is null then
    if exists (select 1 from public.tasks t where t.id = $1) then
      raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
    end if;
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if c ? 'assignees' then
    perform public.set_task_assignees($1, array(
      select a::uuid from jsonb_array_elements_text(coalesce(c -> 'assignees', '[]'::jsonb)) a));
  end if;
  if c ? 'labels' then
    perform public.set_task_labels($1, array(select l from jsonb_array_elements_text(coalesce(c -> 'labels', '[]'::jsonb)) l));
  end if;
  if c ? 'fields' then
    perform public.set_task_field_values($1, coalesce(c -> 'fields', '{}'::jsonb));
  end if;
  return json_build_object('id', saved.id, 'number', saved.number);
end;
$function$;

CREATE OR REPLACE FUNCTION public.create_task(project_id uuid, changes jsonb)
 RETURNS json
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  c jsonb := coalesce($2, '{}'::jsonb);
  made record;
begin
  if jsonb_typeof(c) <> 'object' then
    raise exception 'changes is an object.' using errcode = '22023';
  end if;
  insert into public.tasks (project_id, title, description, priority, due_on, start_on, due_time, recurrence, status_id, parent_id, assignee_id)
  values (
    $1, c ->> 'title', coalesce(c ->> 'description', ''), coalesce(c ->> 'priority', 'none')::public.task_priority,
    (c ->> 'due_on')::date, (c ->> 'start_on')::date, (c ->> 'due_time')::time, c ->> 'recurrence', (c ->> 'status_id')::uuid, (c ->> 'parent_id')::uuid,
    -- the first assignee as the task is made (its "created" event names them); the others next
    (c #>> '{assignees,0}')::uuid
  )
  returning id, number into made;
  if jsonb_array_length(coalesce(c -> 'assignees', '[]'::jsonb)) > 1 then
    perform public.set_task_assignees(made.id, array(select a::uuid from jsonb_array_elements_text(c -> 'assignees') a));
  end if;
  if jsonb_array_length(coalesce(c -> 'labels', '[]'::jsonb)) > 0 then
    perform public.set_task_labels(made.id, array(select l from jsonb_array_elements_text(c -> 'labels') l));
  end if;
  if c ? 'fields' then
    perform public.set_task_field_values(made.id, coalesce(c -> 'fields', '{}'::jsonb));
  end if;
  return json_build_object('id', made.id, 'number', made.number);
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
          select count(*) from public.tasks t where t.project_id = proj.id and t.status_id = s.id
        ) end,
        'cards', coalesce(c.cards, '[]'::json),
        -- each summed number field's sum over the column's tasks
        'sums', case when sum_fields is not null then (
          select json_object_agg(sf.id, coalesce((
            select sum(v.number_value) from public.field_values v join public.tasks t on t.id = v.task_id
            where v.field_id = sf.id and t.status_id = s.id
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
         t.start_on, t.due_time, t.due_at, t.fields, t.project_id,
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
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
    union
    -- ... and their watchers who asked for due-date emails
    select t.id, t.project_id, w.user_id, t.due_on, t.due_at, t.due_on_set_by, t.due_on_set_at
    from public.task_watchers w
    join public.tasks t on t.id = w.task_id
    where t.completed_at is null
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
        and t.due_on >= (now() at time zone zone)::date - 30
        and exists (select 1 from public.team_members m where m.team_id = p.team_id and m.user_id = feed.user_id)
        and private.sees_project(p.id, feed.user_id)
    ), '[]'::jsonb)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION public.tasks_repeat()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  next_id uuid;
  next_due date;
  first_assignee uuid;
begin
  if new.recurrence is null or new.successor_id is not null
     or new.status_id is not distinct from old.status_id then
    return new;
  end if;
  -- completed: entering a status of the completed category from one that isn't
  if not exists (select 1 from public.project_statuses s where s.id = new.status_id and s.category = 'completed')
     or exists (select 1 from public.project_statuses s where s.id = old.status_id and s.category = 'completed') then
    return new;
  end if;
  -- the series ends where its next date would fall after the last date a task can have
  next_due := public.next_due_date(new.recurrence, new.due_on);
  if next_due is null or next_due > date '2100-12-31' then
    new.recurrence := null;
    return new;
  end if;
  -- the first of its assignees still in the team (task_assignees' order)
  select a.person_id into first_assignee
  from public.task_assignees a
  join public.projects p on p.id = new.project_id
  join public.team_members m on m.team_id = p.team_id and m.user_id = a.person_id
  where a.task_id = new.id
  order by a.position, a.added_at
  limit 1;
  insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, due_on, parent_id,
                            recurrence, created_by, start_on, due_time)
  select new.project_id, new.title, new.description,
         -- the project's first unstarted status (a project keeps one), else its first open one
         (select s.id from public.project_statuses s
          where s.project_id = new.project_id and s.category in ('unstarted', 'backlog', 'started')
          order by s.category <> 'unstarted', s.position
          limit 1),
         new.priority,
         first_assignee,
         next_due, new.parent_id, new.recurrence,
         coalesce(auth.uid(), new.created_by),
         -- as many days before the next due date as before this one; the same time of day
         case when new.start_on is not null then next_due - (new.due_on - new.start_on) end,
         new.due_time
  returning id into next_id;
  -- every other assignee still in the team, in the same order (the first came with the insert)
  insert into public.task_assignees (task_id, person_id)
  select next_id, a.person_id
  from public.task_assignees a
  join public.projects p on p.id = new.project_id
  join public.team_members m on m.team_id = p.team_id and m.user_id = a.person_id
  where a.task_id = new.id and a.person_id is distinct from first_assignee
  order by a.position, a.added_at
  on conflict on constraint task_assignees_pkey do nothing;
  -- its team labels (task_labels keeps label_ids) and its checklist, unticked, in the same order
  insert into public.task_labels (task_id, label_id, project_id)
  select next_id, tl.label_id, new.project_id from public.task_labels tl where tl.task_id = new.id;
  insert into public.checklist_items (task_id, project_id, title, position)
  select next_id, new.project_id, c.title, c.position
  from public.checklist_items c where c.task_id = new.id
  order by c.position;
  new.successor_id := next_id;
  return new;
end;
$function$;
