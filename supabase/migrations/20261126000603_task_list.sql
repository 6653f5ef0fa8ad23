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
  result json;
begin
  if me is null then
    return null;
  end if;
  sort_expr := case sort_key
    when 'title' then 'lower(t.title)'
    when 'status' then 't.status'
    when 'priority' then 'nullif(t.priority, ''none'')'
    when 'assignee' then 'lower(a.display_name)'
    when 'due' then 't.due_on'
    when 'labels' then 'nullif(t.labels, ''{}'')'
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
      group_expr := 't.status::text';
      group_order := 't.status, ';
    when 'priority' then
      group_expr := 't.priority::text';
      group_order := 't.priority desc, ';
    when 'assignee' then
      group_expr := 't.assignee_id::text';
      group_order := 'lower(a.display_name) nulls last, t.assignee_id nulls last, ';
    when 'label' then
      -- a task with three labels is in three groups; one without any, last, in the group of none
      group_expr := 'g.label';
      group_order := 'g.label nulls last, ';
      label_join := 'cross join lateral unnest(case when t.labels = ''{}'' then array[null::text] else t.labels end) g(label)';
    else
      null;
  end case;

  scope := case $2
    when 'assigned' then 't.assignee_id = $2 and t.status in (''backlog'', ''todo'', ''in_progress'')'
    when 'due' then 't.assignee_id = $2 and t.status in (''backlog'', ''todo'', ''in_progress'') and t.due_on <= current_date + 7'
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

  execute format($sql$
    select coalesce(json_agg(r), '[]'::json) from (
      select t.id, t.number, t.title, t.status, t.priority, t.assignee_id, t.due_on, t.labels, t.updated_at,
             p.key as project_key, tm.slug as team_slug, tm.name as team_name, %1$s as "group"
      from public.tasks t
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
        and ($4 is null or t.labels @> array[$4])
        and ($6 is null or t.search @@ $5 or t.title ilike $6)
      order by %4$s %5$s
      offset $7 limit $8
    ) r
  $sql$, group_expr, label_join, scope, group_order, sort_expr)
  into result
  using $1, me, $3, $4, tsq, title_like,
    least(greatest(coalesce($8, 0), 0), 100000),
    least(greatest(coalesce($9, 100), 1), 200) + 1;
  return result;
end;
$$;

-- list_view: the list page in one round trip, named by the URL (team slug,
-- project key) as board_view is: the project, one page of its tasks and the
-- team's members. Null for a project the caller can't see.
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
-- §13, §16): set the status (through move_task, so the board's moves and
-- positions hold), the assignee (an empty value unassigns) or the priority,
-- add or remove a label, or delete. Runs as the caller. Before anything
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

  case $2
    when 'status' then
      if $3 is null or not ($3 = any (enum_range(null::public.task_status)::text[])) then
        raise exception 'Unknown status "%". Use backlog, todo, in_progress, done or canceled.', $3
          using errcode = '22023';
      end if;
      -- one move at a time, in board order, each to the end of its new column (move_task refuses a
      -- move the board refuses, and that refuses them all); tasks already there stay where they are
      for item in
        select t.id from public.tasks t
        where t.id = any ($1) and t.status::text <> $3
        order by t.project_id, t.status, t.position
      loop
        perform public.move_task(item.id, $3);
      end loop;
      done := wanted;
    when 'assignee' then
      update public.tasks t set assignee_id = nullif($3, '')::uuid where t.id = any ($1);
      get diagnostics done = row_count;
    when 'priority' then
      update public.tasks t set priority = $3::public.task_priority where t.id = any ($1);
      get diagnostics done = row_count;
    when 'add_label' then
      if nullif(btrim(coalesce($3, '')), '') is null then
        raise exception 'Name the label.' using errcode = '22023';
      end if;
      update public.tasks t
      set labels = case when $3 = any (t.labels) then t.labels else t.labels || $3 end
      where t.id = any ($1);
      get diagnostics done = row_count;
    when 'remove_label' then
      update public.tasks t set labels = array_remove(t.labels, $3) where t.id = any ($1);
      get diagnostics done = row_count;
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
