-- Several assignees (docs/product.md §17; docs/decisions/0035-fields-and-assignees.md).
--
-- task_assignees is where a task's assignees are kept (0–10, members of the
-- task's team). The task row carries them too, as it carries its labels:
-- tasks.assignee_ids (in the order they were added), kept by a trigger, so the
-- board, the list, My work, the calendar and its feed read and filter them
-- without a join (GIN index; "assigned to Mia" is assignee_ids @> {Mia}) and a
-- change reaches Realtime as a change of the task.
--
-- tasks.assignee_id stays, as the first of them (kept by the same trigger):
-- clients written for one assignee keep working. Writing it (the REST API, an
-- older app) sets the task's assignees to that one person, or to none; a
-- system write that clears it (a person leaving the team or deleting their
-- account: trigger depth > 1) takes only that person off.
--
-- Every task's assignee moves over, its updated_at untouched.
--
-- Restated here (each as it was, with all its assignees where it had one):
-- board_view, task_table, remind_due_tasks, calendar_feed, tasks_record_update
-- (records {assignees: {from, to}}), task_events_notify (each added assignee
-- is notified; all of them hear of comments and status changes),
-- bulk_edit_tasks (add_assignee, remove_assignee, set_field). board_view also
-- sends the project's on-card and summed fields, each card's on-card values
-- and each column's sums (fields: …_fields.sql).

create table public.task_assignees (
  task_id uuid not null references public.tasks (id) on delete cascade,
  person_id uuid not null references public.profiles (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  -- the order they were added in (the first is tasks.assignee_id, the card's front avatar)
  position integer not null default 0,
  added_at timestamptz not null default now(),
  primary key (task_id, person_id)
);

create index task_assignees_person_id_idx on public.task_assignees (person_id);
create index task_assignees_project_id_idx on public.task_assignees (project_id);

-- the ids of the task's assignees, first added first; written only by the triggers below
alter table public.tasks add column assignee_ids uuid[] not null default '{}';

-- Every task's assignee moves over ----------------------------------------------------------
insert into public.task_assignees (task_id, person_id, project_id, added_at)
select t.id, t.assignee_id, t.project_id, t.updated_at
from public.tasks t
where t.assignee_id is not null;

-- (not an edit: updated_at stays as it was)
alter table public.tasks disable trigger tasks_set_updated_at;
update public.tasks t set assignee_ids = array[t.assignee_id] where t.assignee_id is not null;
alter table public.tasks enable trigger tasks_set_updated_at;

create index tasks_assignee_ids_idx on public.tasks using gin (assignee_ids);

-- Rules ------------------------------------------------------------------------------------
-- An assignee: a member of the task's team, at most 10 a task (the task row is
-- locked while counting); project_id is the task's.
create function public.task_assignees_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task_team uuid;
begin
  select t.project_id, p.team_id into new.project_id, task_team
  from public.tasks t
  join public.projects p on p.id = t.project_id
  where t.id = new.task_id
  for update of t;
  if not found then
    raise exception 'Task not found.' using errcode = '23503';
  end if;
  if not exists (select 1 from public.team_members m where m.team_id = task_team and m.user_id = new.person_id) then
    raise exception 'The assignee must be a member of this team.' using errcode = '23514', detail = 'task_assignees_same_team';
  end if;
  if (select count(*) from public.task_assignees a where a.task_id = new.task_id) >= 10 then
    raise exception 'A task can have at most 10 assignees.' using errcode = '23514', detail = 'task_assignees_limit';
  end if;
  new.position := coalesce((select max(a.position) + 1 from public.task_assignees a where a.task_id = new.task_id), 0);
  return new;
end;
$$;

-- An assignee added or taken off: the task's assignee_ids and assignee_id
-- follow (and its updated_at). The setting tells tasks' own trigger below that
-- this write is the copy, not a person choosing an assignee.
create function public.task_assignees_sync_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task uuid := coalesce(new.task_id, old.task_id);
  ids uuid[];
begin
  if current_setting('teamboard.assignees_sync', true) = 'on' then
    return null;
  end if;
  ids := coalesce((
    select array_agg(a.person_id order by a.position) from public.task_assignees a where a.task_id = task
  ), '{}');
  perform set_config('teamboard.assignees_sync', 'on', true);
  update public.tasks t
  set assignee_ids = ids, assignee_id = ids[1]
  where t.id = task and (t.assignee_ids is distinct from ids or t.assignee_id is distinct from ids[1]);
  perform set_config('teamboard.assignees_sync', 'off', true);
  return null;
end;
$$;

-- A task made with an assignee (the one-assignee way): that is its assignee.
create function public.tasks_assignees_before_insert() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.assignee_ids := case when new.assignee_id is null then '{}'::uuid[] else array[new.assignee_id] end;
  return new;
end;
$$;

create function public.tasks_assignees_after_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform set_config('teamboard.assignees_sync', 'on', true);
  insert into public.task_assignees (task_id, person_id) values (new.id, new.assignee_id);
  perform set_config('teamboard.assignees_sync', 'off', true);
  return null;
end;
$$;

-- assignee_id written by someone (not the copy): the task's assignees become
-- that one person, or none. Cleared by the system (a person leaving the team,
-- or their account going: depth > 1), only that person goes.
create function public.tasks_assignee_written() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if current_setting('teamboard.assignees_sync', true) = 'on' then
    return null;
  end if;
  if new.assignee_id is null and pg_trigger_depth() > 1 then
    delete from public.task_assignees a where a.task_id = new.id and a.person_id = old.assignee_id;
  else
    delete from public.task_assignees a where a.task_id = new.id and a.person_id is distinct from new.assignee_id;
    if new.assignee_id is not null then
      insert into public.task_assignees (task_id, person_id) values (new.id, new.assignee_id)
      on conflict on constraint task_assignees_pkey do nothing;
    end if;
  end if;
  -- the copy may not have run (nothing added or taken off): assignee_id is the first again
  perform set_config('teamboard.assignees_sync', 'on', true);
  update public.tasks t
  set assignee_ids = x.ids, assignee_id = x.ids[1]
  from (
    select coalesce(array_agg(a.person_id order by a.position), '{}') as ids
    from public.task_assignees a where a.task_id = new.id
  ) x
  where t.id = new.id and (t.assignee_ids is distinct from x.ids or t.assignee_id is distinct from x.ids[1]);
  perform set_config('teamboard.assignees_sync', 'off', true);
  return null;
end;
$$;

-- A person leaving a team leaves all its tasks (not only those they were first on).
create function public.team_members_forget_assignees() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.task_assignees a
  using public.projects p
  where p.id = a.project_id and p.team_id = old.team_id and a.person_id = old.user_id;
  return null;
end;
$$;

revoke execute on function
  public.task_assignees_before_insert(),
  public.task_assignees_sync_task(),
  public.tasks_assignees_before_insert(),
  public.tasks_assignees_after_insert(),
  public.tasks_assignee_written(),
  public.team_members_forget_assignees()
from public, anon, authenticated;

create trigger task_assignees_before_insert
before insert on public.task_assignees
for each row execute function public.task_assignees_before_insert();

create trigger task_assignees_sync_task
after insert or delete on public.task_assignees
for each row execute function public.task_assignees_sync_task();

create trigger tasks_assignees_before_insert
before insert on public.tasks
for each row execute function public.tasks_assignees_before_insert();

create trigger tasks_assignees_after_insert
after insert on public.tasks
for each row when (new.assignee_id is not null)
execute function public.tasks_assignees_after_insert();

create trigger tasks_assignee_written
after update of assignee_id on public.tasks
for each row when (old.assignee_id is distinct from new.assignee_id)
execute function public.tasks_assignee_written();

create trigger team_members_forget_assignees
after delete on public.team_members
for each row execute function public.team_members_forget_assignees();

-- Row-level security ------------------------------------------------------------------------
-- As the task: the team sees them; members+ assign in active projects.
alter table public.task_assignees enable row level security;
revoke all on table public.task_assignees from anon, authenticated;
grant select, delete on table public.task_assignees to authenticated;
grant insert (task_id, person_id) on table public.task_assignees to authenticated;

create policy "members see their tasks' assignees"
on public.task_assignees for select to authenticated
using (project_id in (select private.my_project_ids()));

create policy "members assign tasks in active projects"
on public.task_assignees for insert to authenticated
with check (private.has_task_role(task_id, 'member', true));

create policy "members unassign tasks in active projects"
on public.task_assignees for delete to authenticated
using (private.has_task_role(task_id, 'member', true));

create policy "two-factor accounts need aal2" on public.task_assignees
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));

-- set_task_assignees: a task's assignees as one change (the task form's
-- "Assignees"): those not listed go, the new ones are added after the others.
-- Runs as the caller (row-level security decides).
create function public.set_task_assignees(task_id uuid, people uuid[]) returns uuid[]
language plpgsql
security invoker
set search_path = ''
as $$
declare
  wanted uuid[] := array(select distinct p from unnest(coalesce($2, '{}')) p where p is not null);
begin
  if cardinality(wanted) > 10 then
    raise exception 'A task can have at most 10 assignees.' using errcode = '23514', detail = 'task_assignees_limit';
  end if;
  delete from public.task_assignees a where a.task_id = $1 and not (a.person_id = any (wanted));
  insert into public.task_assignees as a (task_id, person_id)
  select $1, p from unnest($2) with ordinality as x (p, n)
  where p = any (wanted)
  order by n
  on conflict on constraint task_assignees_pkey do nothing;
  return coalesce((select t.assignee_ids from public.tasks t where t.id = $1), '{}');
end;
$$;

revoke execute on function public.set_task_assignees(uuid, uuid[]) from public, anon;
grant execute on function public.set_task_assignees(uuid, uuid[]) to authenticated;

-- The reads and writes that used the one assignee ------------------------------------------
create or replace function public.board_view(
  team_slug text,
  project_key text,
  assignee text default null,
  label text default null,
  q text default null,
  limits jsonb default '{}'
)
returns json
language plpgsql
stable
set search_path = ''
as $$
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
          select t.id, t.number, t.title, t.priority, t.assignee_id, nullif(t.assignee_ids, '{}') as assignee_ids, t.due_on, t.position, t.label_ids,
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
$$;


create or replace function public.task_table(
  project_id uuid default null,
  mine text default null,
  assignee text default null,
  label text default null,
  q text default null,
  sort text default 'key',
  "group" text default null,
  page_offset integer default 0,
  page_size integer default 100
) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
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
begin
  if me is null then
    return null;
  end if;
  sort_expr := case sort_key
    when 'title' then 'lower(t.title)'
    when 'status' then 's.position'
    when 'priority' then 'nullif(t.priority, ''none'')'
    when 'assignee' then 'lower(a.display_name)'
    when 'due' then 't.due_on'
    -- the first of its labels' names, A to Z; no label last
    when 'labels' then '(select min(lower(l.name)) from public.labels l where l.id = any (t.label_ids))'
    when 'updated' then 't.updated_at'
    else 'p.key'
  end;
  sort_expr := sort_expr || case when descending then ' desc' else '' end || ' nulls last';
  -- the key, after the sort column, keeps equal values in one order (by project, then number)
  sort_expr := sort_expr || case when sort_key in ('key', '') or sort_key not in
    ('title', 'status', 'priority', 'assignee', 'due', 'labels', 'updated')
    then case when descending then ', t.number desc' else ', t.number' end
    else ', p.key, t.number' end;

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
             t.updated_at, p.key as project_key, tm.slug as team_slug, tm.name as team_name, %1$s as "group"
      from public.tasks t
      join public.project_statuses s on s.id = t.status_id
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      left join public.profiles a on a.id = t.assignee_id
      %2$s
      where %3$s
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
  $sql$, group_expr, label_join, scope, group_order, sort_expr)
  into result
  using $1, me, $3, wanted_label, tsq, title_like,
    least(greatest(coalesce($8, 0), 0), 100000),
    least(greatest(coalesce($9, 100), 1), 200) + 1, today;
  return result;
end;
$$;


create or replace function public.remind_due_tasks(run_at timestamptz default now()) returns integer
language sql
security definer
set search_path = ''
as $$
  with candidate as (
    -- the assignees of open tasks due in the window ...
    select t.id as task_id, t.project_id, a.person, t.due_on, t.due_on_set_by, t.due_on_set_at
    from public.tasks t
    cross join lateral unnest(t.assignee_ids) a (person)
    where t.assignee_ids <> '{}'
      and t.completed_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
    union
    -- ... and their watchers who asked for due-date emails
    select t.id, t.project_id, w.user_id, t.due_on, t.due_on_set_by, t.due_on_set_at
    from public.task_watchers w
    join public.tasks t on t.id = w.task_id
    where t.completed_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
      and public.email_setting(w.user_id, 'due_date') <> 'never'
  ), due as (
    select c.task_id, c.project_id, c.person, c.due_on,
           case when c.due_on = l.day then 'due' else 'before' end as day
    from candidate c
    join public.profiles p on p.id = c.person
    cross join lateral (select ($1 at time zone p.time_zone)::date as day,
                               ($1 at time zone p.time_zone)::time as clock) l
    where c.due_on - l.day in (0, 1)
      and l.clock >= time '08:00'
      -- not for the person's own change made after this reminder's 08:00
      and not (c.due_on_set_by is not distinct from c.person
               and c.due_on_set_at > (l.day + time '08:00') at time zone p.time_zone)
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
$$;


create or replace function public.calendar_feed(token text) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
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
        'project_key', p.key, 'team_slug', tm.slug
      ) order by t.due_on, p.key, t.number)
      from public.tasks t
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      where t.assignee_ids @> array[feed.user_id]
        and t.due_on is not null
        and t.due_on >= (now() at time zone zone)::date - 30
        and exists (select 1 from public.team_members m where m.team_id = p.team_id and m.user_id = feed.user_id)
    ), '[]'::jsonb)
  );
end;
$$;


create or replace function public.tasks_record_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changes jsonb := '{}'::jsonb;
  mentions uuid[] := '{}';
  team uuid;
  parent_from jsonb;
begin
  if new.title is distinct from old.title then
    changes := changes || jsonb_build_object('title', jsonb_build_object('from', old.title, 'to', new.title));
  end if;
  if new.description is distinct from old.description then
    changes := changes || jsonb_build_object('description', jsonb_build_object('from', old.description, 'to', new.description));
    if new.description like '%@%' then
      team := (select p.team_id from public.projects p where p.id = new.project_id);
      -- only people the edit newly mentions
      select coalesce(array_agg(m), '{}') into mentions
      from unnest(public.mentioned_members(team, new.description)) m
      where m <> all (public.mentioned_members(team, old.description));
    end if;
  end if;
  if new.status_id is distinct from old.status_id then
    changes := changes || jsonb_build_object('status', jsonb_build_object(
      'from', public.status_ref(old.status_id), 'to', public.status_ref(new.status_id)));
  end if;
  if new.priority is distinct from old.priority then
    changes := changes || jsonb_build_object('priority', jsonb_build_object('from', old.priority, 'to', new.priority));
  end if;
  -- assignee_ids follow task_assignees (…_task_assignees.sql): one change per save,
  -- the set before and after; assignee_id (the first of them) is not recorded apart
  if new.assignee_ids is distinct from old.assignee_ids then
    changes := changes || jsonb_build_object('assignees', jsonb_build_object(
      'from', to_jsonb(old.assignee_ids), 'to', to_jsonb(new.assignee_ids)));
  end if;
  if new.due_on is distinct from old.due_on then
    changes := changes || jsonb_build_object('due_on', jsonb_build_object('from', old.due_on, 'to', new.due_on));
  end if;
  -- label_ids follow task_labels (…_team_labels.sql): each label put on or
  -- taken off is one update here, merged into one event per save
  if new.label_ids is distinct from old.label_ids then
    changes := changes || jsonb_build_object('labels', jsonb_build_object(
      'added', public.label_refs(array(select l from unnest(new.label_ids) l where l <> all (old.label_ids))),
      'removed', public.label_refs(array(select l from unnest(old.label_ids) l where l <> all (new.label_ids)))
    ));
  end if;
  if new.parent_id is distinct from old.parent_id then
    parent_from := public.task_ref(old.parent_id);
    -- a parent being deleted lets go of its sub-tasks: no change of theirs to record
    if parent_from is not null or new.parent_id is not null then
      changes := changes || jsonb_build_object('parent', jsonb_build_object(
        'from', parent_from, 'to', public.task_ref(new.parent_id)));
    end if;
    if parent_from is not null then
      perform public.record_task_event(old.parent_id, 'subtask_removed',
        jsonb_build_object('subtask_id', new.id, 'number', new.number, 'title', new.title));
    end if;
    if new.parent_id is not null then
      perform public.record_task_event(new.parent_id, 'subtask_added',
        jsonb_build_object('subtask_id', new.id, 'number', new.number, 'title', new.title));
    end if;
  end if;
  if changes = '{}'::jsonb then
    return null;
  end if;
  perform public.watch_task(new.id, array(select a from unnest(new.assignee_ids) a where a <> all (old.assignee_ids)) || mentions);
  perform public.record_task_event(new.id, 'task_updated',
    jsonb_build_object('changes', changes, 'mentions', to_jsonb(mentions)));
  return null;
end;
$$;


create or replace function public.task_events_notify() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
  order by r.person, r.rank
  on conflict on constraint notifications_one_per_event do nothing;
  return null;
end;
$$;


create or replace function public.bulk_edit_tasks(task_ids uuid[], change text, value text default null)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
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
      delete from public.tasks t where t.id = any ($1);
      get diagnostics done = row_count;
  end case;

  if done <> wanted then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  return done;
end;
$$;


-- the WHEN clause as before, with the assignees
drop trigger tasks_record_update on public.tasks;
create trigger tasks_record_update
after update of title, description, status_id, priority, assignee_ids, due_on, label_ids, parent_id on public.tasks
for each row
when (
  old.title is distinct from new.title or old.description is distinct from new.description
  or old.status_id is distinct from new.status_id or old.priority is distinct from new.priority
  or old.assignee_ids is distinct from new.assignee_ids or old.due_on is distinct from new.due_on
  or old.label_ids is distinct from new.label_ids or old.parent_id is distinct from new.parent_id
)
execute function public.tasks_record_update();
