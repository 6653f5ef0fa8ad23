-- Task events and watchers (PRODUCT.md §10 "Activity", "Watching", "Mentions";
-- docs/decisions/0028-activity-and-notifications.md).
--
-- Every change to a task is recorded by the database itself, in triggers, so a
-- change made through any client (the app, supabase-js, SQL) is recorded: one
-- row in task_events per change, with the actor (auth.uid(); null for the
-- service role and for SQL run outside the API), a kind and the change as
-- data. Several field edits in one save are one event: a second change of the
-- same task by the same actor in the same transaction is merged into the
-- event the first one wrote. Nobody writes events directly: no role has
-- insert, update or delete on the table; the triggers (security definer) do.
--
-- Event kinds and their data (ids are uuids; "from"/"to" pairs are the values
-- before and after):
--   task_created            {title, status: {id, name}, assignee, parent: {id, number, title} | null, mentions[]}
--   task_updated            {changes: {title|description|priority|assignee|due_on|recurrence: {from, to},
--                             status: {from: {id, name}, to: {id, name}},
--                             parent: {from, to: {id, number, title} | null},
--                             labels: {added[], removed[]: {id, name}}}, mentions[]}
--   comment_posted          {comment_id, mentions[], author (only when not the actor)}
--   comment_edited          {comment_id, mentions[]}         (mentions: only the ones the edit added)
--   comment_deleted         {comment_id}
--   attachment_added        {attachment_id, file_name, size_bytes, content_type}
--   attachment_removed      {attachment_id, file_name}
--   checklist_item_added | _ticked | _unticked | _removed   {item_id, text}
--   checklist_item_renamed                                   {item_id, from, to}
--   subtask_added | subtask_removed                          {subtask_id, number, title}   (on the parent)
--   relation_added | relation_removed                        {relation, other_task_id, number, title}
--     relation as this task reads it: blocks | blocked_by | relates | duplicates | duplicated_by;
--     one event on each of the two tasks
-- Names (statuses, labels, tasks) are kept as they were then: a later rename
-- or removal leaves the record as it happened. A new kind is one more value
-- in the check below, one trigger writing it, and its words in
-- app/lib/activity.ts.

-- task_events ---------------------------------------------------------------------------
create table public.task_events (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  task_id uuid not null references public.tasks (id) on delete cascade,
  actor_id uuid references public.profiles (id) on delete set null,
  kind text not null,
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  -- the writing transaction: later changes of the same save are merged into this row
  tx xid8 not null default pg_current_xact_id(),
  constraint task_events_kind check (kind in (
    'task_created', 'task_updated',
    'comment_posted', 'comment_edited', 'comment_deleted',
    'attachment_added', 'attachment_removed',
    'checklist_item_added', 'checklist_item_ticked', 'checklist_item_unticked', 'checklist_item_removed',
    'checklist_item_renamed',
    'subtask_added', 'subtask_removed',
    'relation_added', 'relation_removed'
  )),
  constraint task_events_data_object check (jsonb_typeof(data) = 'object')
);

comment on table public.task_events is
  'One row per change to a task, written by triggers (docs/decisions/0028). Team members read; nobody writes directly.';

-- the task's timeline (newest first, keyset paging) and the team's activity page
-- (its project and person filters read the team's newest first); a deleted
-- account's events lose their actor through the last one. Each index is a
-- write on every change, so there are no more.
create index task_events_task_idx on public.task_events (task_id, created_at desc, id desc);
create index task_events_team_idx on public.task_events (team_id, created_at desc, id desc);
create index task_events_actor_idx on public.task_events (actor_id) where actor_id is not null;

-- task_watchers -------------------------------------------------------------------------
create table public.task_watchers (
  task_id uuid not null references public.tasks (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  since timestamptz not null default now(),
  primary key (task_id, user_id)
);

create index task_watchers_user_idx on public.task_watchers (user_id);

-- Mentions ------------------------------------------------------------------------------
-- `@username` outside code (``` fenced blocks and `inline` spans), not part of
-- a word or an address (x@y.z): the first 50 different names of a text, in
-- order, lowercased. The rest stay plain text. app/lib/mentions.ts reads text
-- the same way when it shows a mention as the person's name.
create function public.mention_candidates(body text) returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(c.name order by c.first_at), '{}')
  from (
    select lower(m[2]) as name, min(x.n) as first_at
    from regexp_matches(
      regexp_replace(regexp_replace(coalesce($1, ''), '```.*?(```|$)', ' ', 'g'), '`[^`]*`', ' ', 'g'),
      '(^|[^A-Za-z0-9_@.`])@([A-Za-z0-9_]{3,30})(?![A-Za-z0-9_])',
      'g'
    ) with ordinality as x (m, n)
    group by lower(m[2])
    order by min(x.n)
    limit 50
  ) c
$$;

-- The members of a team a text mentions (people outside it, and unknown names, are not).
create function public.mentioned_members(team_id uuid, body text) returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(p.id), '{}')
  from unnest(public.mention_candidates($2)) as c (name)
  join public.profiles p on p.username = c.name::extensions.citext
  join public.team_members m on m.team_id = $1 and m.user_id = p.id
$$;

revoke execute on function public.mention_candidates(text), public.mentioned_members(uuid, text) from public, anon;
-- who is in a team is not for anyone to ask (the triggers call it as its owner)
revoke execute on function public.mentioned_members(uuid, text) from authenticated;
grant execute on function public.mention_candidates(text) to authenticated, service_role;
grant execute on function public.mentioned_members(uuid, text) to service_role;

-- Writing events ------------------------------------------------------------------------
-- Watchers: those who start watching by what they did or had done to them.
create function public.watch_task(task_id uuid, people uuid[]) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.task_watchers (task_id, user_id)
  select $1, p from unnest($2) as p where p is not null
  on conflict do nothing
$$;

-- Two changes of one field in one save are one: the first "from", the last
-- "to" (a field changed and changed back drops out).
create function public.merge_task_changes(earlier jsonb, later jsonb) returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  merged jsonb := earlier;
  field text;
  change jsonb;
  added jsonb;
  removed jsonb;
begin
  for field, change in select * from jsonb_each(later) loop
    if field = 'labels' then
      added := coalesce(merged #> '{labels,added}', '[]'::jsonb);
      removed := coalesce(merged #> '{labels,removed}', '[]'::jsonb);
      -- a label added then removed (or the other way) in one save cancels out
      select coalesce(jsonb_agg(a), '[]'::jsonb) into added
      from (
        select a from jsonb_array_elements(added) a
        where not coalesce(change -> 'removed', '[]'::jsonb) @> jsonb_build_array(a)
        union
        select a from jsonb_array_elements(coalesce(change -> 'added', '[]'::jsonb)) a
        where not removed @> jsonb_build_array(a)
      ) x;
      select coalesce(jsonb_agg(r), '[]'::jsonb) into removed
      from (
        select r from jsonb_array_elements(removed) r
        where not coalesce(change -> 'added', '[]'::jsonb) @> jsonb_build_array(r)
        union
        select r from jsonb_array_elements(coalesce(change -> 'removed', '[]'::jsonb)) r
        where not coalesce(merged #> '{labels,added}', '[]'::jsonb) @> jsonb_build_array(r)
      ) y;
      if added = '[]'::jsonb and removed = '[]'::jsonb then
        merged := merged - 'labels';
      else
        merged := jsonb_set(merged, '{labels}', jsonb_build_object('added', added, 'removed', removed));
      end if;
    elsif merged ? field then
      if (merged -> field -> 'from') = (change -> 'to') then
        merged := merged - field;
      else
        merged := jsonb_set(merged, array[field, 'to'], change -> 'to');
      end if;
    else
      merged := merged || jsonb_build_object(field, change);
    end if;
  end loop;
  return merged;
end;
$$;

-- Records one event: merged into this transaction's event of the same kind on
-- the same task by the same actor when there is one (task_updated only; the
-- other kinds are one event per row changed). Returns nothing: notifications
-- follow from the task_events triggers.
create function public.record_task_event(task uuid, kind text, data jsonb) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
  earlier public.task_events;
  place record;
begin
  if $2 = 'task_updated' then
    select * into earlier
    from public.task_events e
    where e.task_id = $1 and e.created_at = now() and e.tx = pg_current_xact_id()
      and e.kind = 'task_updated' and e.actor_id is not distinct from actor
    order by e.id
    limit 1
    for update;
    if found then
      update public.task_events e
      set data = jsonb_build_object(
        'changes', public.merge_task_changes(earlier.data -> 'changes', $3 -> 'changes'),
        'mentions', (
          select coalesce(jsonb_agg(distinct m), '[]'::jsonb)
          from jsonb_array_elements(coalesce(earlier.data -> 'mentions', '[]') || coalesce($3 -> 'mentions', '[]')) m
        )
      )
      where e.id = earlier.id;
      return;
    end if;
  end if;
  select p.id, p.team_id into place
  from public.tasks t join public.projects p on p.id = t.project_id
  where t.id = $1;
  if not found then
    return; -- the task is being deleted with everything on it
  end if;
  insert into public.task_events (team_id, project_id, task_id, actor_id, kind, data)
  values (place.team_id, place.id, $1, actor, $2, $3);
end;
$$;

-- Names as they are now, kept in an event: a status {id, name}, a task
-- {id, number, title, project_key}, labels [{id, name}] (a label being
-- deleted has no name any more: null).
create function public.status_ref(status_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case when $1 is null then null
              else jsonb_build_object('id', $1, 'name', (select s.name from public.project_statuses s where s.id = $1)) end
$$;

create function public.task_ref(task_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', t.id, 'number', t.number, 'title', t.title, 'project_key', p.key)
  from public.tasks t join public.projects p on p.id = t.project_id
  where t.id = $1
$$;

create function public.label_refs(label_ids uuid[]) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', l.name) order by l.name, x.id), '[]'::jsonb)
  from unnest($1) as x (id)
  left join public.labels l on l.id = x.id
$$;

-- tasks: created, and the fields a person edits (not position: moving a card
-- within its column, or its neighbours making room, is no change to them).
create function public.tasks_record_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  team uuid := (select p.team_id from public.projects p where p.id = new.project_id);
  mentions uuid[] := case when new.description = '' then '{}'::uuid[]
                          else public.mentioned_members(team, new.description) end;
begin
  perform public.watch_task(new.id, array[new.created_by, new.assignee_id] || mentions);
  insert into public.task_events (team_id, project_id, task_id, actor_id, kind, data)
  values (team, new.project_id, new.id, auth.uid(), 'task_created', jsonb_build_object(
    'title', new.title,
    'status', public.status_ref(new.status_id),
    'assignee', new.assignee_id,
    'parent', public.task_ref(new.parent_id),
    'mentions', to_jsonb(mentions)
  ));
  if new.parent_id is not null then
    perform public.record_task_event(new.parent_id, 'subtask_added',
      jsonb_build_object('subtask_id', new.id, 'number', new.number, 'title', new.title));
  end if;
  return null;
end;
$$;

create function public.tasks_record_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changes jsonb := '{}'::jsonb;
  mentions uuid[] := '{}';
  team uuid;
  parent_from jsonb;
begin
  if new.title is distinct from old.title then
    changes := changes || jsonb_build_object('title', jsonb_build_object('from', old.title, 'to', new.title));
  end if;
  if new.description is distinct from old.description then
    changes := changes || jsonb_build_object('description', jsonb_build_object('from', old.description, 'to', new.description));
    if new.description like '%@%' then
      team := (select p.team_id from public.projects p where p.id = new.project_id);
      -- only people the edit newly mentions
      select coalesce(array_agg(m), '{}') into mentions
      from unnest(public.mentioned_members(team, new.description)) m
      where m <> all (public.mentioned_members(team, old.description));
    end if;
  end if;
  if new.status_id is distinct from old.status_id then
    changes := changes || jsonb_build_object('status', jsonb_build_object(
      'from', public.status_ref(old.status_id), 'to', public.status_ref(new.status_id)));
  end if;
  if new.priority is distinct from old.priority then
    changes := changes || jsonb_build_object('priority', jsonb_build_object('from', old.priority, 'to', new.priority));
  end if;
  if new.assignee_id is distinct from old.assignee_id then
    changes := changes || jsonb_build_object('assignee', jsonb_build_object('from', old.assignee_id, 'to', new.assignee_id));
  end if;
  if new.due_on is distinct from old.due_on then
    changes := changes || jsonb_build_object('due_on', jsonb_build_object('from', old.due_on, 'to', new.due_on));
  end if;
  -- label_ids follow task_labels (…_team_labels.sql): each label put on or
  -- taken off is one update here, merged into one event per save
  if new.label_ids is distinct from old.label_ids then
    changes := changes || jsonb_build_object('labels', jsonb_build_object(
      'added', public.label_refs(array(select l from unnest(new.label_ids) l where l <> all (old.label_ids))),
      'removed', public.label_refs(array(select l from unnest(old.label_ids) l where l <> all (new.label_ids)))
    ));
  end if;
  if new.parent_id is distinct from old.parent_id then
    parent_from := public.task_ref(old.parent_id);
    -- a parent being deleted lets go of its sub-tasks: no change of theirs to record
    if parent_from is not null or new.parent_id is not null then
      changes := changes || jsonb_build_object('parent', jsonb_build_object(
        'from', parent_from, 'to', public.task_ref(new.parent_id)));
    end if;
    if parent_from is not null then
      perform public.record_task_event(old.parent_id, 'subtask_removed',
        jsonb_build_object('subtask_id', new.id, 'number', new.number, 'title', new.title));
    end if;
    if new.parent_id is not null then
      perform public.record_task_event(new.parent_id, 'subtask_added',
        jsonb_build_object('subtask_id', new.id, 'number', new.number, 'title', new.title));
    end if;
  end if;
  if changes = '{}'::jsonb then
    return null;
  end if;
  perform public.watch_task(new.id, array[new.assignee_id] || mentions);
  perform public.record_task_event(new.id, 'task_updated',
    jsonb_build_object('changes', changes, 'mentions', to_jsonb(mentions)));
  return null;
end;
$$;

-- comments: posted, edited, deleted
create function public.comments_record_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  team uuid;
  mentions uuid[] := '{}';
begin
  if tg_op = 'DELETE' then
    perform public.record_task_event(old.task_id, 'comment_deleted', jsonb_build_object('comment_id', old.id));
    return null;
  end if;
  if new.body like '%@%' then
    select p.team_id into team from public.tasks t join public.projects p on p.id = t.project_id where t.id = new.task_id;
    mentions := public.mentioned_members(team, new.body);
    if tg_op = 'UPDATE' then
      select coalesce(array_agg(m), '{}') into mentions
      from unnest(mentions) m
      where m <> all (public.mentioned_members(team, old.body));
    end if;
  end if;
  if tg_op = 'INSERT' then
    perform public.watch_task(new.task_id, array[new.author_id] || mentions);
    perform public.record_task_event(new.task_id, 'comment_posted',
      jsonb_build_object('comment_id', new.id, 'mentions', to_jsonb(mentions))
      -- the author, when it isn't the actor (a comment written with the service role)
      || case when new.author_id is distinct from auth.uid() then jsonb_build_object('author', new.author_id)
              else '{}'::jsonb end);
  else
    perform public.watch_task(new.task_id, mentions);
    perform public.record_task_event(new.task_id, 'comment_edited',
      jsonb_build_object('comment_id', new.id, 'mentions', to_jsonb(mentions)));
  end if;
  return null;
end;
$$;

-- attachments: added, removed
create function public.attachments_record_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.record_task_event(new.task_id, 'attachment_added', jsonb_build_object(
      'attachment_id', new.id, 'file_name', new.file_name, 'size_bytes', new.size_bytes,
      'content_type', new.content_type
    ));
  else
    perform public.record_task_event(old.task_id, 'attachment_removed',
      jsonb_build_object('attachment_id', old.id, 'file_name', old.file_name));
  end if;
  return null;
end;
$$;

-- A sub-task deleted: its parent's record says so (a parent deleted with it,
-- as a whole project goes, records nothing).
create function public.tasks_record_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.record_task_event(old.parent_id, 'subtask_removed',
    jsonb_build_object('subtask_id', old.id, 'number', old.number, 'title', old.title));
  return null;
end;
$$;

-- checklist items: added, ticked, unticked, renamed, removed (reordering is no change)
create function public.checklist_items_record_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.record_task_event(new.task_id, 'checklist_item_added',
      jsonb_build_object('item_id', new.id, 'text', new.title));
  elsif tg_op = 'DELETE' then
    perform public.record_task_event(old.task_id, 'checklist_item_removed',
      jsonb_build_object('item_id', old.id, 'text', old.title));
  else
    if new.title is distinct from old.title then
      perform public.record_task_event(new.task_id, 'checklist_item_renamed',
        jsonb_build_object('item_id', new.id, 'from', old.title, 'to', new.title));
    end if;
    if new.done is distinct from old.done then
      perform public.record_task_event(new.task_id,
        case when new.done then 'checklist_item_ticked' else 'checklist_item_unticked' end,
        jsonb_build_object('item_id', new.id, 'text', new.title));
    end if;
  end if;
  return null;
end;
$$;

-- relations: one event on each task, as that task reads the relation
-- ("blocks" on one side is "blocked_by" on the other)
create function public.task_relations_record_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  rel public.task_relations;
  kind text := case when tg_op = 'INSERT' then 'relation_added' else 'relation_removed' end;
  from_ref jsonb;
  to_ref jsonb;
begin
  if tg_op = 'INSERT' then rel := new; else rel := old; end if;
  from_ref := coalesce(public.task_ref(rel.from_task_id), '{}'::jsonb);
  to_ref := coalesce(public.task_ref(rel.to_task_id), '{}'::jsonb);
  perform public.record_task_event(rel.from_task_id, kind, jsonb_build_object(
    'relation', rel.kind::text, 'other_task_id', rel.to_task_id,
    'number', to_ref -> 'number', 'title', to_ref -> 'title', 'project_key', to_ref -> 'project_key'));
  perform public.record_task_event(rel.to_task_id, kind, jsonb_build_object(
    'relation', case rel.kind when 'blocks' then 'blocked_by' when 'duplicates' then 'duplicated_by' else 'relates' end,
    'other_task_id', rel.from_task_id,
    'number', from_ref -> 'number', 'title', from_ref -> 'title', 'project_key', from_ref -> 'project_key'));
  return null;
end;
$$;

-- Leaving a team: no more watching its tasks (and, with the notifications
-- migration, no more notifications about it).
create function public.team_members_forget_watching() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.teams t where t.id = old.team_id) then
    delete from public.task_watchers w
    using public.tasks t, public.projects p
    where w.user_id = old.user_id and t.id = w.task_id and p.id = t.project_id and p.team_id = old.team_id;
  end if;
  return null;
end;
$$;

revoke execute on function
  public.watch_task(uuid, uuid[]),
  public.merge_task_changes(jsonb, jsonb),
  public.record_task_event(uuid, text, jsonb),
  public.tasks_record_insert(),
  public.tasks_record_update(),
  public.comments_record_change(),
  public.attachments_record_change(),
  public.tasks_record_delete(),
  public.checklist_items_record_change(),
  public.task_relations_record_change(),
  public.team_members_forget_watching()
from public, anon, authenticated, service_role;

revoke execute on function public.status_ref(uuid), public.task_ref(uuid), public.label_refs(uuid[])
from public, anon, authenticated;

create trigger tasks_record_insert
after insert on public.tasks
for each row execute function public.tasks_record_insert();

-- the WHEN clause keeps position-only updates (board moves shift whole columns) free
create trigger tasks_record_update
after update of title, description, status_id, priority, assignee_id, due_on, label_ids, parent_id on public.tasks
for each row
when (
  old.title is distinct from new.title or old.description is distinct from new.description
  or old.status_id is distinct from new.status_id or old.priority is distinct from new.priority
  or old.assignee_id is distinct from new.assignee_id or old.due_on is distinct from new.due_on
  or old.label_ids is distinct from new.label_ids or old.parent_id is distinct from new.parent_id
)
execute function public.tasks_record_update();

create trigger tasks_record_delete
after delete on public.tasks
for each row when (old.parent_id is not null)
execute function public.tasks_record_delete();

create trigger comments_record_insert
after insert on public.comments
for each row execute function public.comments_record_change();

create trigger comments_record_update
after update of body on public.comments
for each row when (old.body is distinct from new.body)
execute function public.comments_record_change();

create trigger comments_record_delete
after delete on public.comments
for each row execute function public.comments_record_change();

create trigger attachments_record_change
after insert or delete on public.attachments
for each row execute function public.attachments_record_change();

create trigger checklist_items_record_change
after insert or delete on public.checklist_items
for each row execute function public.checklist_items_record_change();

create trigger checklist_items_record_update
after update of title, done on public.checklist_items
for each row when (old.title is distinct from new.title or old.done is distinct from new.done)
execute function public.checklist_items_record_change();

create trigger task_relations_record_change
after insert or delete on public.task_relations
for each row execute function public.task_relations_record_change();

create trigger team_members_forget_watching
after delete on public.team_members
for each row execute function public.team_members_forget_watching();

-- Row-level security ---------------------------------------------------------------------
alter table public.task_events enable row level security;
alter table public.task_watchers enable row level security;

-- events: the team's members read them; nobody (not even the service role) writes them
revoke all on table public.task_events from anon, authenticated, service_role;
grant select on table public.task_events to authenticated, service_role;

create policy "members see their teams' events"
on public.task_events for select
to authenticated
using (team_id in (select public.my_team_ids()));

-- watchers: readers of a task see who watches it; each person starts and stops their own watching
revoke all on table public.task_watchers from anon, authenticated;
grant select, delete on table public.task_watchers to authenticated;
grant insert (task_id, user_id) on table public.task_watchers to authenticated;

create policy "readers of a task see its watchers"
on public.task_watchers for select
to authenticated
using (public.has_task_role(task_id, 'viewer'));

create policy "people watch tasks they can read"
on public.task_watchers for insert
to authenticated
with check (user_id = (select auth.uid()) and public.has_task_role(task_id, 'viewer'));

create policy "people stop watching"
on public.task_watchers for delete
to authenticated
using (user_id = (select auth.uid()));

-- Two-factor accounts reach these at aal2 only, as every table (20261126000100_aal2_everywhere.sql)
create policy "two-factor accounts need aal2" on public.task_events
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.task_watchers
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

-- Not in the supabase_realtime publication: every event comes with a change of
-- a row the task page already listens to (the task, a comment, an attachment),
-- so the page reads its timeline again then; publishing the events too would
-- only send each change twice.
