-- Page reads in one round trip (docs/decisions/0017). Deployed, every backend
-- request is a network round trip; the board read its project, then five
-- columns and the team's members (seven requests, two in a row), and the task
-- panel its project, then the task, then its comments, then its attachments
-- (four in a row). Each function below answers one page from the URL's own
-- names (team slug, project key, task number), so it needs no earlier read
-- and runs beside the team lookup the layout makes anyway.
--
-- Both run as the caller (security invoker): row-level security decides
-- exactly as it does for the REST reads they replace. A project or task the
-- caller can't see is null (the app answers 404, never saying it exists).

-- board_view: the project, its columns (the first `limits->>status` cards of
-- each status by position, and one more to know whether there are more, with
-- the board's filters applied) and the team's members' names.
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
  select json_build_object(
    'project', json_build_object(
      'id', proj.id, 'key', proj.key, 'name', proj.name,
      'description', proj.description, 'archived_at', proj.archived_at
    ),
    'columns', (
      select json_object_agg(s.status, coalesce(c.cards, '[]'::json))
      from unnest(enum_range(null::public.task_status)) as s(status)
      left join lateral (
        select json_agg(x order by x.position, x.id) as cards
        from (
          select t.id, t.number, t.title, t.status, t.priority, t.assignee_id, t.due_on, t.labels, t.position
          from public.tasks t
          where t.project_id = proj.id
            and t.status = s.status
            and (
              $3 is null
              or ($3 = 'me' and t.assignee_id = me)
              or ($3 = 'none' and t.assignee_id is null)
              or ($3 not in ('me', 'none') and t.assignee_id::text = lower($3))
            )
            and ($4 is null or t.labels @> array[$4])
            and (title_like is null or t.search @@ tsq or t.title ilike title_like)
          order by t.position, t.id
          limit least(greatest(coalesce(($6 ->> s.status::text)::integer, 200), 1), 5000) + 1
        ) x
      ) c on true
    ),
    'members', coalesce((
      select json_agg(json_build_object(
        'id', m.user_id, 'display_name', pr.display_name, 'avatar_path', pr.avatar_path
      ))
      from public.team_members m
      left join public.profiles pr on pr.id = m.user_id
      where m.team_id = proj.team_id
    ), '[]'::json)
  ) into result;
  return result;
end;
$$;

-- task_panel: the task named in the URL with who made it, one page of its
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
  select t.id, t.number, t.title, t.description, t.status, t.priority, t.assignee_id, t.due_on, t.labels,
         t.position, t.created_at, t.updated_at, t.created_by,
         case when cr.id is null then null else json_build_object('display_name', cr.display_name) end as creator
  into task_row
  from public.tasks t
  join public.projects p on p.id = t.project_id
  join public.teams tm on tm.id = p.team_id
  left join public.profiles cr on cr.id = t.created_by
  where tm.slug = $1 and p.key = $2 and t.number = $3;
  if not found then
    return null;
  end if;
  select json_build_object(
    'task', row_to_json(task_row),
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

revoke execute on function
  public.board_view(text, text, text, text, text, jsonb),
  public.task_panel(text, text, integer, timestamptz, uuid, integer)
from public, anon;

grant execute on function
  public.board_view(text, text, text, text, text, jsonb),
  public.task_panel(text, text, integer, timestamptz, uuid, integer)
to authenticated;
