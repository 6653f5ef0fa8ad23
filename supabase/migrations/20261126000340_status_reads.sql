-- The page reads and calls that showed the five fixed statuses, on the
-- project's own statuses, labels, checklists, sub-tasks and relations
-- (docs/decisions/0027-project-statuses.md). Each still answers its page in
-- one round trip, as the caller (security invoker: row-level security decides).

-- board_view: the project; its statuses in order, each with its first
-- `limits->>'<status id>'` cards by position (default 200, and one more to
-- know whether there are more), the board's filters applied, and, when it has
-- a WIP limit, how many tasks it holds (all of them, whatever the filters);
-- the team's members and labels (for the cards' chips, the label filter and
-- the task form). A card carries its labels' ids and `counts`: [checklist
-- items ticked, checklist items, sub-tasks closed, sub-tasks, open tasks
-- blocking it], all kept on the task row
-- (…_team_labels.sql, …_checklists_subtasks_relations.sql), so a card costs
-- what it cost with the five fixed statuses. `label` is a label's name (any capitals).
create function public.board_view(
  team_slug text,
  project_key text,
  assignee text default null,
  label text default null,
  q text default null,
  limits jsonb default '{}'::jsonb
) returns json
language plpgsql
stable
security invoker
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
        select json_agg(x order by x.position, x.id) as cards
        from (
          -- no status id (the column's) and the counts as one array: a card's bytes are most of the
          -- board's, and each key is written, sent and read 200 times a column
          select t.id, t.number, t.title, t.priority, t.assignee_id, t.due_on, t.position, t.label_ids,
                 array[t.checklist_done, t.checklist_total, t.subtasks_done, t.subtasks_total, t.open_blockers] as counts
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

-- task_panel: the task named in the URL with who made it, its status, labels,
-- checklist, parent, sub-tasks and relations (both sides), one page of its
-- comments (newest first by (created_at, id), before the cursor when given,
-- with how many comments the page reaches back over) and its attachments.
create function public.task_panel(
  team_slug text,
  project_key text,
  task_number integer,
  before_created_at timestamptz default null,
  before_id uuid default null,
  page_size integer default 200
) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  task_row record;
  result json;
begin
  if auth.uid() is null then
    return null;
  end if;
  select t.id, t.number, t.title, t.description, t.status_id, t.priority, t.assignee_id, t.due_on,
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
    'comments', coalesce((
      select json_agg(x order by x.created_at desc, x.id desc)
      from (
        select c.id, c.body, c.created_at, c.edited_at, c.author_id,
               case when a.id is null then null
                    else json_build_object('display_name', a.display_name, 'avatar_path', a.avatar_path) end as author
        from public.comments c
        left join public.profiles a on a.id = c.author_id
        where c.task_id = task_row.id
          and ($4 is null or c.created_at < $4 or (c.created_at = $4 and c.id < $5))
        order by c.created_at desc, c.id desc
        limit least(greatest(coalesce($6, 200), 1), 200)
      ) x
    ), '[]'::json),
    'reached', (
      select count(*)
      from public.comments c
      where c.task_id = task_row.id
        and ($4 is null or c.created_at < $4 or (c.created_at = $4 and c.id < $5))
    ),
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
$$;

-- search_tasks: full text over the tasks the caller can see (row-level security
-- applies: the function runs as the caller), with each task's status and labels.
create function public.search_tasks(query text, "limit" integer default 50)
returns table (
  id uuid,
  project_id uuid,
  number integer,
  title text,
  status_name text,
  status_color public.palette_color,
  status_category public.status_category,
  priority public.task_priority,
  assignee_id uuid,
  due_on date,
  labels text[],
  updated_at timestamptz,
  project_key text,
  project_name text,
  project_archived boolean,
  team_id uuid,
  team_slug text,
  team_name text,
  rank real
)
language sql
stable
security invoker
set search_path = ''
as $$
  with q as (
    select websearch_to_tsquery('english'::regconfig, coalesce($1, '')) as tsq
  ),
  hits as (
    select t.*, ts_rank(t.search, q.tsq) as rank
    from q
    join public.tasks t on t.search @@ q.tsq
    where numnode(q.tsq) > 0
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
$$;

-- team_overview: counts per status category and the caller's open tasks (not
-- completed or canceled), in active projects; members only.
create function public.team_overview(team_id uuid) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  result json;
begin
  if auth.uid() is null or not public.is_member($1) then
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
          and t.assignee_id = auth.uid()
          and t.completed_at is null
        order by t.due_on nulls last, t.priority desc, t.updated_at desc
        limit 50
      ) x
    ), '[]'::json)
  ) into result;
  return result;
end;
$$;

revoke execute on function
  public.board_view(text, text, text, text, text, jsonb),
  public.task_panel(text, text, integer, timestamptz, uuid, integer),
  public.search_tasks(text, integer),
  public.team_overview(uuid)
from public, anon;

grant execute on function
  public.board_view(text, text, text, text, text, jsonb),
  public.task_panel(text, text, integer, timestamptz, uuid, integer),
  public.search_tasks(text, integer),
  public.team_overview(uuid)
to authenticated;

-- Realtime: a board hears of its project's statuses and its team's labels
-- (tasks, comments and attachments are published already; a task's labels,
-- checklist and relations reach it as a change of the task).
alter publication supabase_realtime add table public.project_statuses, public.labels;
