-- A card's comment and attachment counts (issue 29 §7), kept on the task row
-- as its checklist and sub-task counts are (…_checklists_subtasks_relations.sql,
-- docs/decisions/0027-project-statuses.md): the board reads them with the card at no
-- extra cost, row-level security on tasks already decides who sees them, and a
-- comment or attachment is heard by a project's board as a change of its task,
-- as a checklist tick is. Only these triggers write them (no column grant).
alter table public.tasks add column comment_count integer not null default 0;
alter table public.tasks add column attachment_count integer not null default 0;

-- A comment or an attachment is not an edit of the task: writing its count
-- leaves updated_at ("updated …" on the panel, "Last change" in the list, and
-- the key that resets the panel's edit form) as it was. Only the triggers below
-- write the counts, and they write nothing else.
drop trigger tasks_set_updated_at on public.tasks;
create trigger tasks_set_updated_at
before update on public.tasks
for each row
when (new.comment_count = old.comment_count and new.attachment_count = old.attachment_count)
execute function public.set_updated_at();

-- One more or one fewer, not a recount: two comments posted at once both count
-- (an increment re-reads the row it waited for; a recount would not see the other's).
-- A task being deleted takes its comments and attachments with it: its row is gone
-- by then and the update touches nothing.
create function public.tasks_count_comments_and_attachments() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  step integer := case when tg_op = 'INSERT' then 1 else -1 end;
  task uuid := coalesce(new.task_id, old.task_id);
begin
  if tg_table_name = 'comments' then
    update public.tasks t set comment_count = t.comment_count + step where t.id = task;
  else
    update public.tasks t set attachment_count = t.attachment_count + step where t.id = task;
  end if;
  return null;
end;
$$;

revoke execute on function public.tasks_count_comments_and_attachments() from public, anon, authenticated;

-- (neither row's task_id can change: no column grant, and no function changes it)
create trigger comments_count_on_task
after insert or delete on public.comments
for each row execute function public.tasks_count_comments_and_attachments();

create trigger attachments_count_on_task
after insert or delete on public.attachments
for each row execute function public.tasks_count_comments_and_attachments();

-- What is there already.
update public.tasks t
set comment_count = (select count(*) from public.comments c where c.task_id = t.id),
    attachment_count = (select count(*) from public.attachments a where a.task_id = t.id)
where exists (select 1 from public.comments c where c.task_id = t.id)
   or exists (select 1 from public.attachments a where a.task_id = t.id);

-- board_view as in …_status_reads.sql, a card's `counts` now [checklist items
-- ticked, checklist items, sub-tasks closed, sub-tasks, open tasks blocking it,
-- comments, attachments].
create or replace function public.board_view(
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
                 array[t.checklist_done, t.checklist_total, t.subtasks_done, t.subtasks_total, t.open_blockers,
                       t.comment_count, t.attachment_count] as counts
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
