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

-- task_panel: the task with who made it, its status, labels, checklist,
-- parent, sub-tasks and relations (as 20261126000340_status_reads.sql reads
-- them), one page of its timeline (one item more than the page when there
-- are earlier ones) in place of that file's page of comments, how many
-- comments it has, its attachments and its watchers, and the team's members
-- (names and usernames).
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
