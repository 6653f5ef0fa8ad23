-- board_view's cards get a named shape (issue 36 §1): the counts the card shows
-- by the task row's column names instead of a positional array of seven
-- numbers, each sent only when it is not 0, and whether the task repeats (it
-- has a rule and no successor yet), which the board read beside board_view
-- until now (one read fewer per board page). The rest of the function is as
-- 20261126000901_card_counts.sql left it; its current text:
-- supabase/schemas/functions/board_view.sql. Same arguments and result type,
-- so its grants stay.
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
  select json_build_object(
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
        'cards', coalesce(c.cards, '[]'::json)
      ) order by s.position)
      from public.project_statuses s
      left join lateral (
        select json_agg(json_strip_nulls(to_json(x)) order by x.position, x.id) as cards
        from (
          -- no status id (the column's); the counts by the task row's names, each only when it is not 0,
          -- and `repeats` only when true (a rule and no successor yet): a card's bytes are most of the
          -- board's, most cards count nothing, and a key left out is neither written, sent nor read
          select t.id, t.number, t.title, t.priority, t.assignee_id, t.due_on, t.position, t.label_ids,
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
              or ($3 = 'me' and t.assignee_id = me)
              or ($3 = 'none' and t.assignee_id is null)
              or ($3 not in ('me', 'none') and t.assignee_id::text = lower($3))
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
