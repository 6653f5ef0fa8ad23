-- The task form saved by one call (issue 36 §2, issue 38): the task's own
-- columns, its labels, its assignees and its field values in one transaction,
-- so a refusal of any of them (the 11th label, an outsider as assignee,
-- Points = 101) leaves the task as it was and the form says why, instead of
-- the labels saved and the rest not (or the other way round). Both run as the
-- caller: row-level security decides, as for the separate writes; the
-- labels, assignees and values go through set_task_labels,
-- set_task_assignees and set_task_field_values, whose checks hold. One save
-- is one event in the timeline (record_task_event merges a transaction's).
--
-- `changes` (jsonb): any of title, description, priority, due_on, recurrence
-- (columns; a key left out keeps the column), labels (names), assignees (ids,
-- in order; the first is assignee_id), fields (field id -> value, null
-- clears); create_task also takes status_id and parent_id.
--
-- task_panel is restated (as …_timeline_reads.sql) to send the task's
-- assignees and field values and the project's field definitions.

create function public.save_task(task_id uuid, changes jsonb) returns json
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  c jsonb := coalesce($2, '{}'::jsonb);
  saved record;
begin
  if jsonb_typeof(c) <> 'object' then
    raise exception 'changes is an object.' using errcode = '22023';
  end if;
  update public.tasks t set
    title = case when c ? 'title' then c ->> 'title' else t.title end,
    description = case when c ? 'description' then coalesce(c ->> 'description', '') else t.description end,
    priority = case when c ? 'priority' then coalesce(c ->> 'priority', 'none')::public.task_priority else t.priority end,
    due_on = case when c ? 'due_on' then (c ->> 'due_on')::date else t.due_on end,
    recurrence = case when c ? 'recurrence' then c ->> 'recurrence' else t.recurrence end
  where t.id = $1
  returning t.id, t.number into saved;
  if saved.id is null then
    if exists (select 1 from public.tasks t where t.id = $1) then
      raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
    end if;
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if c ? 'assignees' then
    perform public.set_task_assignees($1, array(
      select a::uuid from jsonb_array_elements_text(coalesce(c -> 'assignees', '[]'::jsonb)) a));
  end if;
  if c ? 'labels' then
    perform public.set_task_labels($1, array(select l from jsonb_array_elements_text(coalesce(c -> 'labels', '[]'::jsonb)) l));
  end if;
  if c ? 'fields' then
    perform public.set_task_field_values($1, coalesce(c -> 'fields', '{}'::jsonb));
  end if;
  return json_build_object('id', saved.id, 'number', saved.number);
end;
$$;

create function public.create_task(project_id uuid, changes jsonb) returns json
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  c jsonb := coalesce($2, '{}'::jsonb);
  made record;
begin
  if jsonb_typeof(c) <> 'object' then
    raise exception 'changes is an object.' using errcode = '22023';
  end if;
  insert into public.tasks (project_id, title, description, priority, due_on, recurrence, status_id, parent_id, assignee_id)
  values (
    $1, c ->> 'title', coalesce(c ->> 'description', ''), coalesce(c ->> 'priority', 'none')::public.task_priority,
    (c ->> 'due_on')::date, c ->> 'recurrence', (c ->> 'status_id')::uuid, (c ->> 'parent_id')::uuid,
    -- the first assignee as the task is made (its "created" event names them); the others next
    (c #>> '{assignees,0}')::uuid
  )
  returning id, number into made;
  if jsonb_array_length(coalesce(c -> 'assignees', '[]'::jsonb)) > 1 then
    perform public.set_task_assignees(made.id, array(select a::uuid from jsonb_array_elements_text(c -> 'assignees') a));
  end if;
  if jsonb_array_length(coalesce(c -> 'labels', '[]'::jsonb)) > 0 then
    perform public.set_task_labels(made.id, array(select l from jsonb_array_elements_text(c -> 'labels') l));
  end if;
  if c ? 'fields' then
    perform public.set_task_field_values(made.id, coalesce(c -> 'fields', '{}'::jsonb));
  end if;
  return json_build_object('id', made.id, 'number', made.number);
end;
$$;

revoke execute on function public.save_task(uuid, jsonb), public.create_task(uuid, jsonb) from public, anon;
grant execute on function public.save_task(uuid, jsonb), public.create_task(uuid, jsonb) to authenticated;

create or replace function public.task_panel(
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
  select t.id, t.number, t.title, t.description, t.status_id, t.priority, t.assignee_id, t.assignee_ids, t.due_on,
         t.fields, t.project_id,
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
    -- the project's fields, in order, with a select's options (the values are task.fields)
    'fields', coalesce((
      select json_agg(json_build_object(
        'id', f.id, 'name', f.name, 'kind', f.kind, 'on_card', f.on_card, 'sum', f.sum,
        'min', f.number_min, 'max', f.number_max, 'decimals', f.number_decimals,
        'options', coalesce((
          select json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color) order by o.position, o.id)
          from public.field_options o where o.field_id = f.id
        ), '[]'::json)
      ) order by f.position, f.id)
      from public.fields f where f.project_id = task_row.project_id
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

