-- The task panel's timeline (PRODUCT.md §10): comments and events in one
-- list, newest first by (created_at, id), a page at a time before a cursor,
-- read with the task in the panel's one round trip (docs/decisions/0017).
-- A posted comment is shown as itself, so its comment_posted event is not
-- listed beside it. Also the watchers: how many, and whether the caller is one.

-- One page of a task's timeline, as the caller (row-level security decides).
create function public.task_timeline(
  task_id uuid,
  before_created_at timestamptz default null,
  before_id uuid default null,
  page_size integer default 50
) returns json
language sql
stable
security invoker
set search_path = ''
as $$
  with page as (
    select *
    from (
      (
        select 'comment' as type, c.id, c.created_at, c.author_id as actor_id,
               c.body, c.edited_at, null::text as kind, null::jsonb as data
        from public.comments c
        where c.task_id = $1
          and ($2 is null or c.created_at < $2 or (c.created_at = $2 and c.id < $3))
        order by c.created_at desc, c.id desc
        limit least(greatest(coalesce($4, 50), 1), 200) + 1
      )
      union all
      (
        select 'event', e.id, e.created_at, e.actor_id, null, null, e.kind, e.data
        from public.task_events e
        where e.task_id = $1 and e.kind <> 'comment_posted'
          and ($2 is null or e.created_at < $2 or (e.created_at = $2 and e.id < $3))
        order by e.created_at desc, e.id desc
        limit least(greatest(coalesce($4, 50), 1), 200) + 1
      )
    ) both_kinds
    order by created_at desc, id desc
    limit least(greatest(coalesce($4, 50), 1), 200) + 1
  )
  select coalesce(json_agg(json_build_object(
    'type', x.type, 'id', x.id, 'created_at', x.created_at, 'actor_id', x.actor_id,
    'actor', case when a.id is null then null
                  else json_build_object('display_name', a.display_name, 'avatar_path', a.avatar_path) end,
    'body', x.body, 'edited_at', x.edited_at, 'kind', x.kind, 'data', x.data
  ) order by x.created_at desc, x.id desc), '[]'::json)
  from page x
  left join public.profiles a on a.id = x.actor_id
$$;

revoke execute on function public.task_timeline(uuid, timestamptz, uuid, integer) from public, anon;
grant execute on function public.task_timeline(uuid, timestamptz, uuid, integer) to authenticated;

-- task_panel: the task, one page of its timeline (one item more than the page
-- when there are earlier ones), how many comments it has, its attachments and
-- its watchers, and the team's members (names and usernames). Replaces the comments page of 20251125000100_page_reads.sql.
drop function public.task_panel(text, text, integer, timestamptz, uuid, integer);

create function public.task_panel(
  team_slug text,
  project_key text,
  task_number integer,
  before_created_at timestamptz default null,
  before_id uuid default null,
  page_size integer default 50
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
$$;

revoke execute on function public.task_panel(text, text, integer, timestamptz, uuid, integer) from public, anon;
grant execute on function public.task_panel(text, text, integer, timestamptz, uuid, integer) to authenticated;
