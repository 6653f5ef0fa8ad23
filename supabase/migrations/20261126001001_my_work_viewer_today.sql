-- My work's "due within 7 days or overdue" counts days in the viewer's own
-- time zone (profiles.time_zone, docs/product.md §12), as every other date
-- the app shows does: the database's current_date is UTC's, a day off for
-- much of the day in Auckland or Honolulu. task_table is redefined whole;
-- only `today` (read from the caller's profile, as the caller: security
-- invoker) and the 'due' scope that uses it change.

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
    when 'due' then 't.assignee_id = $2 and t.completed_at is null and t.due_on <= $9 + 7'
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
    least(greatest(coalesce($9, 100), 1), 200) + 1, today;
  return result;
end;
$$;
