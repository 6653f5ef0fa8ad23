-- The list view with the fields the team defines (issue 38; docs/decisions/0044-fields-in-the-list.md):
-- task_table sorts by a field (`sort` = `field:<id>` / `-field:<id>`), groups by a select, person or
-- checkbox field (`group` = `field:<id>`), filters by fields' values (new last argument `fields`, a JSON
-- object text: field id -> value, `none` for no value), sends each row's values, and each row's
-- group's sum of every summed number field (a window over all the rows the filters keep, before the
-- page is cut). list_view passes the filter on and sends the project's field definitions.
-- Restated: task_table, list_view, my_work, team_overview (task_table and list_view take a new last argument, so the old signatures are dropped first).

drop function public.list_view(text, text, text, text, text, text, text, integer, integer);
drop function public.task_table(uuid, text, text, text, text, text, text, integer, integer);

create function public.task_table(project_id uuid DEFAULT NULL::uuid, mine text DEFAULT NULL::text, assignee text DEFAULT NULL::text, label text DEFAULT NULL::text, q text DEFAULT NULL::text, sort text DEFAULT 'key'::text, "group" text DEFAULT NULL::text, page_offset integer DEFAULT 0, page_size integer DEFAULT 100, fields text DEFAULT NULL::text)
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

revoke all on function public.task_table(uuid, text, text, text, text, text, text, integer, integer, text) from public;
grant execute on function public.task_table(uuid, text, text, text, text, text, text, integer, integer, text) to authenticated;
grant execute on function public.task_table(uuid, text, text, text, text, text, text, integer, integer, text) to service_role;

create function public.list_view(team_slug text, project_key text, assignee text DEFAULT NULL::text, label text DEFAULT NULL::text, q text DEFAULT NULL::text, sort text DEFAULT 'key'::text, "group" text DEFAULT NULL::text, page_offset integer DEFAULT 0, page_size integer DEFAULT 100, fields text DEFAULT NULL::text)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
    'rows', public.task_table(proj.id, null, $3, $4, $5, $6, $7, $8, $9, $10),
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
    ), '[]'::json),
    -- the project's fields in their order: the columns, the sort, group and filter choices, bulk edit's "set"
    'fields', coalesce((
      select json_agg(json_build_object(
        'id', f.id, 'name', f.name, 'kind', f.kind, 'on_card', f.on_card, 'sum', f.sum,
        'min', f.number_min, 'max', f.number_max, 'decimals', f.number_decimals,
        'options', coalesce((
          select json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color) order by o.position, o.id)
          from public.field_options o where o.field_id = f.id
        ), '[]'::json)
      ) order by f.position, f.id)
      from public.fields f where f.project_id = proj.id
    ), '[]'::json)
  );
end;
$function$;

revoke all on function public.list_view(text, text, text, text, text, text, text, integer, integer, text) from public;
grant execute on function public.list_view(text, text, text, text, text, text, text, integer, integer, text) to authenticated;
grant execute on function public.list_view(text, text, text, text, text, text, text, integer, integer, text) to service_role;

-- My work names every assignee of its rows (the list shows them all), not only the first.
create or replace function public.my_work(list text, sort text DEFAULT 'due'::text, page_offset integer DEFAULT 0, page_size integer DEFAULT 50)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
      where pr.id in (select a.id::uuid from json_array_elements(found_rows) r, json_array_elements_text(r -> 'assignee_ids') a(id))
    ), '[]'::json)
  );
end;
$function$;


-- The team page's "my open tasks" are those I am any assignee of, not only the first.
create or replace function public.team_overview(team_id uuid)
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
        where p.team_id = $1 and p.archived_at is null
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
          and t.assignee_ids @> array[auth.uid()]
          and t.completed_at is null
        order by t.due_on nulls last, t.priority desc, t.updated_at desc
        limit 50
      ) x
    ), '[]'::json)
  ) into result;
  return result;
end;
$function$;

