-- The list view, My work and bulk edit (docs/product.md §13;
-- docs/decisions/0030-views-and-theme.md).
--
-- task_table: one page of tasks as a table, in a fixed order: the group
-- (when grouped), then the sort column (nulls last either way), then the
-- key, so equal values keep one order from page to page. Offset paging with
-- one row more than the page (a next page without counting: counting checks
-- row-level security on every matching row, docs/decisions/0004). Either one
-- project's tasks with the board's filters, or one of My work's lists across
-- every team of the caller. Runs as the caller: row-level security decides.
--
-- The order's expressions come from the fixed lists below, never from the
-- caller's text; everything the caller sends is a bound parameter.
--
-- Statuses are the project's own (20261126000300): a row carries its status
-- (id, name, colour, category), sorting and grouping by status follow the
-- board's column order (position), and "open" is a status neither
-- completed nor canceled (completed_at is null, kept by a trigger). Labels
-- are the team's (20261126000310): a row carries its labels' ids, names and
-- colours, read through tasks.label_ids; ?label= is a label's name, as on
-- the board. All four are security invoker: row-level security (with its
-- aal2 rule) decides what they read and write.

create function public.task_table(
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
      group_expr := 't.assignee_id::text';
      group_order := 'lower(a.display_name) nulls last, t.assignee_id nulls last, ';
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
    when 'assigned' then 't.assignee_id = $2 and t.completed_at is null'
    when 'due' then 't.assignee_id = $2 and t.completed_at is null and t.due_on <= current_date + 7'
    when 'watching' then 'exists (select 1 from public.task_watchers w where w.task_id = t.id and w.user_id = $2)'
    when 'created' then 't.created_by = $2'
    else 't.project_id = $1'
  end;
  if $1 is null and $2 is null then
    return null;
  end if;

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
             t.priority, t.assignee_id, t.due_on,
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
          or ($3 = 'me' and t.assignee_id = $2)
          or ($3 = 'none' and t.assignee_id is null)
          or ($3 not in ('me', 'none') and t.assignee_id::text = lower($3))
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
    least(greatest(coalesce($9, 100), 1), 200) + 1;
  return result;
end;
$$;

-- list_view: the list page in one round trip, named by the URL (team slug,
-- project key) as board_view is: the project, one page of its tasks, its
-- statuses, the team's labels and the team's members. Null for a project the caller can't see.
create function public.list_view(
  team_slug text,
  project_key text,
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
  proj record;
begin
  if auth.uid() is null then
    return null;
  end if;
  select p.id, p.key, p.name, p.description, p.archived_at, p.team_id into proj
  from public.projects p
  join public.teams t on t.id = p.team_id
  where t.slug = $1 and p.key = $2;
  if not found then
    return null;
  end if;
  return json_build_object(
    'project', json_build_object(
      'id', proj.id, 'key', proj.key, 'name', proj.name,
      'description', proj.description, 'archived_at', proj.archived_at
    ),
    'rows', public.task_table(proj.id, null, $3, $4, $5, $6, $7, $8, $9),
    -- the bulk edit's choices: the project's statuses in board order, the team's labels
    'statuses', coalesce((
      select json_agg(json_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category) order by s.position)
      from public.project_statuses s
      where s.project_id = proj.id
    ), '[]'::json),
    'labels', coalesce((
      select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by lower(l.name), l.id)
      from public.labels l
      where l.team_id = proj.team_id
    ), '[]'::json),
    'members', coalesce((
      select json_agg(json_build_object(
        'id', m.user_id, 'display_name', pr.display_name, 'avatar_path', pr.avatar_path
      ))
      from public.team_members m
      left join public.profiles pr on pr.id = m.user_id
      where m.team_id = proj.team_id
    ), '[]'::json)
  );
end;
$$;

-- my_work: one of My work's four lists (assigned: mine and open; due: mine,
-- open and due within 7 days or overdue; watching; created: by me) across
-- all the caller's teams, with the assignees' names. The page reads the four
-- side by side.
create function public.my_work(
  list text,
  sort text default 'due',
  page_offset integer default 0,
  page_size integer default 50
) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  found_rows json;
begin
  if auth.uid() is null then
    return null;
  end if;
  if $1 is null or $1 not in ('assigned', 'due', 'watching', 'created') then
    raise exception 'Unknown list "%". Use assigned, due, watching or created.', $1 using errcode = '22023';
  end if;
  begin
    found_rows := public.task_table(null, $1, null, null, null, $2, null, $3, $4);
  exception when undefined_table then
    -- watching needs the watchers of docs/product.md §10 (task_watchers); until they exist it is empty
    return json_build_object('rows', null, 'names', '[]'::json);
  end;
  return json_build_object(
    'rows', found_rows,
    'names', coalesce((
      select json_agg(json_build_object('id', pr.id, 'display_name', pr.display_name))
      from public.profiles pr
      where pr.id in (select (r ->> 'assignee_id')::uuid from json_array_elements(found_rows) r)
    ), '[]'::json)
  );
end;
$$;

-- bulk_edit_tasks: one change to many tasks, all or nothing (docs/product.md
-- §13, §16): set the status (a status id; through move_task, so the board's
-- moves, positions and completed_at hold), the assignee (an empty value
-- unassigns) or the priority, add or remove a team label (a label id,
-- through task_labels, whose triggers keep label_ids and the 10-label limit),
-- or delete. Runs as the caller. Before anything
-- changes, every chosen task must be one the caller may change (member+ in
-- an active project; admin+ to delete): a single one they may not, or can't
-- see, refuses the whole edit (42501, a 403) and nothing changes. Row-level
-- security applies to the writes as well; a write that reaches fewer rows
-- than chosen is refused the same way, and the transaction undoes the rest.
-- Returns how many tasks changed.
create function public.bulk_edit_tasks(task_ids uuid[], change text, value text default null)
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
  if $2 is null or $2 not in ('status', 'assignee', 'priority', 'add_label', 'remove_label', 'delete') then
    raise exception 'Unknown change "%".', $2 using errcode = '22023';
  end if;

  select count(*) into allowed
  from public.tasks t
  where t.id = any ($1)
    and public.has_project_role(t.project_id, case when $2 = 'delete' then 'admin' else 'member' end, true);
  if allowed <> wanted then
    raise exception 'Your role in this team doesn''t allow that.'
      using errcode = '42501', detail = format('%s of the %s tasks', wanted - allowed, wanted);
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

revoke execute on function
  public.task_table(uuid, text, text, text, text, text, text, integer, integer),
  public.list_view(text, text, text, text, text, text, text, integer, integer),
  public.my_work(text, text, integer, integer),
  public.bulk_edit_tasks(uuid[], text, text)
from public, anon;

grant execute on function
  public.task_table(uuid, text, text, text, text, text, text, integer, integer),
  public.list_view(text, text, text, text, text, text, text, integer, integer),
  public.my_work(text, text, integer, integer),
  public.bulk_edit_tasks(uuid[], text, text)
to authenticated;

-- My work's "due" list: my open tasks by due date
create index tasks_assignee_due_idx on public.tasks (assignee_id, due_on) where assignee_id is not null;
