-- Breaking a task down (docs/product.md §11): checklist items, sub-tasks and
-- relations between tasks, each rule enforced here, whoever calls.
--
-- What a board card shows of them is kept on the task row by triggers, as
-- its labels' ids are (…_team_labels.sql): its checklist's ticked and total
-- items, its sub-tasks' closed and total count, and how many open tasks
-- block it. The board reads them with the card, as cheaply as before these
-- existed (docs/decisions/0027); each change writes the task(s) concerned,
-- which is also what Realtime subscribers of a project hear: a task moving
-- into or out of a completed / canceled status updates the tasks it blocks
-- and its parent, so their cards change on their own boards too. The rows
-- themselves (checklist_items, tasks.parent_id, task_relations) stay the
-- record; the counts are written only by these triggers.
alter table public.tasks add column checklist_total integer not null default 0;
alter table public.tasks add column checklist_done integer not null default 0;
alter table public.tasks add column subtasks_total integer not null default 0;
alter table public.tasks add column subtasks_done integer not null default 0;
alter table public.tasks add column open_blockers integer not null default 0;

-- Checklist items -----------------------------------------------------------------------------
-- project_id is the task's (filled in by a trigger), for row-level security and the board.
create table public.checklist_items (
  id uuid primary key default gen_random_uuid(),
  task_id uuid not null references public.tasks (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  title text not null,
  done boolean not null default false,
  position integer not null,
  ticked_by uuid references public.profiles (id) on delete set null,
  ticked_at timestamptz,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  -- positions are dense 0..n-1 per task; reordering shifts neighbours in one transaction
  constraint checklist_items_position_key unique (task_id, position) deferrable initially deferred,
  constraint checklist_items_title_length check (btrim(title) <> '' and char_length(title) <= 200),
  constraint checklist_items_ticked check (done or (ticked_at is null and ticked_by is null)),
  constraint checklist_items_position_not_negative check (position >= 0)
);

create index checklist_items_project_id_idx on public.checklist_items (project_id);
create index checklist_items_ticked_by_idx on public.checklist_items (ticked_by);
create index checklist_items_created_by_idx on public.checklist_items (created_by);

-- A new item goes last; at most 50 per task (the task row is locked while counting).
create function public.checklist_items_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select t.project_id into new.project_id from public.tasks t where t.id = new.task_id for update;
  if not found then
    raise exception 'Task not found.' using errcode = '23503';
  end if;
  select count(*) into new.position from public.checklist_items c where c.task_id = new.task_id;
  if new.position >= 50 then
    raise exception 'A task can have at most 50 checklist items.'
      using errcode = '23514', detail = 'checklist_items_limit';
  end if;
  if new.done then
    new.ticked_by := auth.uid();
    new.ticked_at := now();
  else
    new.ticked_by := null;
    new.ticked_at := null;
  end if;
  return new;
end;
$$;

-- Ticking records who and when; unticking forgets it.
create function public.checklist_items_before_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.done is distinct from old.done then
    if new.done then
      new.ticked_by := auth.uid();
      new.ticked_at := now();
    else
      new.ticked_by := null;
      new.ticked_at := null;
    end if;
  end if;
  return new;
end;
$$;

-- A removed item leaves no gap.
create function public.checklist_items_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.checklist_items c
  set position = c.position - 1
  where c.task_id = old.task_id and c.position > old.position;
  return null;
end;
$$;

-- The task's checklist counts (and so its updated_at).
create function public.checklist_items_sync_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task uuid := coalesce(new.task_id, old.task_id);
begin
  update public.tasks t
  set checklist_total = c.total, checklist_done = c.done
  from (
    select count(*)::integer as total, (count(*) filter (where ci.done))::integer as done
    from public.checklist_items ci where ci.task_id = task
  ) c
  where t.id = task;
  return null;
end;
$$;

revoke execute on function
  public.checklist_items_before_insert(),
  public.checklist_items_before_update(),
  public.checklist_items_after_delete(),
  public.checklist_items_sync_task()
from public, anon, authenticated;

create trigger checklist_items_before_insert
before insert on public.checklist_items
for each row execute function public.checklist_items_before_insert();

create trigger checklist_items_before_update
before update on public.checklist_items
for each row execute function public.checklist_items_before_update();

create trigger checklist_items_after_delete
after delete on public.checklist_items
for each row execute function public.checklist_items_after_delete();

-- (positions shifting after a delete or a reorder change no count: move_checklist_item writes the task itself)
create trigger checklist_items_sync_task
after insert or delete or update of title, done on public.checklist_items
for each row execute function public.checklist_items_sync_task();

-- Sub-tasks -------------------------------------------------------------------------------------
-- A parent in the same project (the foreign key says so), one level deep, at
-- most 50 per parent. A deleted parent leaves its sub-tasks as tasks of their own.
alter table public.tasks add constraint tasks_project_id_id_key unique (project_id, id);
alter table public.tasks add column parent_id uuid;
alter table public.tasks
  add constraint tasks_parent_in_project_fkey
  foreign key (project_id, parent_id) references public.tasks (project_id, id) on delete set null (parent_id);
alter table public.tasks add constraint tasks_parent_not_self check (parent_id <> id);
create index tasks_parent_id_idx on public.tasks (parent_id) where parent_id is not null;

create function public.tasks_check_parent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.parent_id is null then
    return new;
  end if;
  -- the parent row is locked: two sub-tasks added at once can't both be the 51st
  perform 1 from public.tasks p where p.id = new.parent_id and p.parent_id is null for update;
  if not found then
    if exists (select 1 from public.tasks p where p.id = new.parent_id) then
      raise exception 'A sub-task can''t have sub-tasks of its own.' using errcode = '23514', detail = 'tasks_one_level';
    end if;
    return new; -- no such task: the foreign key says so
  end if;
  if tg_op = 'UPDATE' and exists (select 1 from public.tasks c where c.parent_id = new.id) then
    raise exception 'A sub-task can''t have sub-tasks of its own.' using errcode = '23514', detail = 'tasks_one_level';
  end if;
  if (select count(*) from public.tasks c where c.parent_id = new.parent_id and c.id <> new.id) >= 50 then
    raise exception 'A task can have at most 50 sub-tasks.' using errcode = '23514', detail = 'tasks_subtasks_limit';
  end if;
  return new;
end;
$$;

-- The parent's sub-task counts, when a sub-task comes, goes, moves between
-- open and closed, or changes parent.
create function public.tasks_sync_parent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parents uuid[];
begin
  if tg_op = 'UPDATE'
     and new.parent_id is not distinct from old.parent_id
     and (new.completed_at is null) = (old.completed_at is null) then
    return null;
  end if;
  parents := array_remove(array[
    case when tg_op <> 'DELETE' then new.parent_id end,
    case when tg_op <> 'INSERT' then old.parent_id end
  ], null);
  if cardinality(parents) = 0 then
    return null;
  end if;
  update public.tasks p
  set subtasks_total = c.total, subtasks_done = c.done
  from (
    select x.parent, count(st.id)::integer as total, (count(st.id) filter (where st.completed_at is not null))::integer as done
    from (select distinct unnest(parents)) as x (parent)
    left join public.tasks st on st.parent_id = x.parent
    group by x.parent
  ) c
  where p.id = c.parent;
  return null;
end;
$$;

revoke execute on function public.tasks_check_parent(), public.tasks_sync_parent() from public, anon, authenticated;

create trigger tasks_check_parent
before insert or update of parent_id on public.tasks
for each row execute function public.tasks_check_parent();

create trigger tasks_sync_parent
after insert or delete or update of parent_id, status_id on public.tasks
for each row execute function public.tasks_sync_parent();

-- A sub-task is made under its parent (from the parent's panel); afterwards it stays there.
grant insert (parent_id) on table public.tasks to authenticated;

-- Relations ---------------------------------------------------------------------------------------
create type public.relation_kind as enum ('blocks', 'relates', 'duplicates');

-- from blocks / relates to / duplicates to; team_id is the tasks' (filled in by a trigger)
create table public.task_relations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  from_task_id uuid not null references public.tasks (id) on delete cascade,
  to_task_id uuid not null references public.tasks (id) on delete cascade,
  kind public.relation_kind not null,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint task_relations_not_self check (from_task_id <> to_task_id)
);

-- one relation of a kind per pair, whichever way round: no pair twice, and no
-- two tasks blocking each other (A blocks B and B blocks A are the same pair)
create unique index task_relations_pair_key
  on public.task_relations (least(from_task_id, to_task_id), greatest(from_task_id, to_task_id), kind);
create index task_relations_from_task_id_idx on public.task_relations (from_task_id);
create index task_relations_to_task_id_idx on public.task_relations (to_task_id);
create index task_relations_team_id_idx on public.task_relations (team_id);
create index task_relations_created_by_idx on public.task_relations (created_by);

-- Both tasks in one team; a readable refusal for a pair already related (the
-- unique index above is what holds under concurrency). Both task rows are
-- locked, in one order, so two people relating the same pair run one at a time.
create function public.task_relations_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  from_team uuid;
  to_team uuid;
begin
  if new.from_task_id = new.to_task_id then
    raise exception 'A task can''t be related to itself.' using errcode = '23514', detail = 'task_relations_not_self';
  end if;
  perform 1 from public.tasks t where t.id in (new.from_task_id, new.to_task_id) order by t.id for update;
  select p.team_id into from_team from public.tasks t join public.projects p on p.id = t.project_id where t.id = new.from_task_id;
  select p.team_id into to_team from public.tasks t join public.projects p on p.id = t.project_id where t.id = new.to_task_id;
  if from_team is null or to_team is null then
    raise exception 'Task not found.' using errcode = '23503';
  end if;
  if from_team <> to_team then
    raise exception 'Both tasks must be in the same team.' using errcode = '23514', detail = 'task_relations_same_team';
  end if;
  new.team_id := from_team;
  if new.kind = 'blocks' and exists (
    select 1 from public.task_relations r
    where r.kind = 'blocks' and r.from_task_id = new.to_task_id and r.to_task_id = new.from_task_id
  ) then
    raise exception 'A task can''t block a task that blocks it.' using errcode = '23514', detail = 'task_relations_mutual_block';
  end if;
  if exists (
    select 1 from public.task_relations r
    where r.kind = new.kind
      and least(r.from_task_id, r.to_task_id) = least(new.from_task_id, new.to_task_id)
      and greatest(r.from_task_id, r.to_task_id) = greatest(new.from_task_id, new.to_task_id)
  ) then
    raise exception 'Those tasks are already related that way.' using errcode = '23514', detail = 'task_relations_duplicate';
  end if;
  return new;
end;
$$;

-- How many open tasks block each of `tasks` (their cards say "Blocked" while any do).
create function public.sync_open_blockers(tasks uuid[]) returns void
language sql
security definer
set search_path = ''
as $$
  update public.tasks t
  set open_blockers = (
    select count(*)::integer
    from public.task_relations r
    join public.tasks b on b.id = r.from_task_id
    where r.to_task_id = t.id and r.kind = 'blocks' and b.completed_at is null
  )
  where t.id = any ($1)
$$;

-- Both tasks of a relation hear of it (the blocked one's count follows).
create function public.task_relations_sync_tasks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.task_relations := coalesce(new, old);
begin
  perform public.sync_open_blockers(array[r.to_task_id]);
  update public.tasks t set updated_at = now() where t.id = r.from_task_id;
  return null;
end;
$$;

-- A task entering or leaving the completed / canceled statuses changes whether
-- the tasks it blocks are "Blocked".
create function public.tasks_sync_blocked() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (old.completed_at is null) <> (new.completed_at is null) then
    perform public.sync_open_blockers(array(
      select r.to_task_id from public.task_relations r where r.kind = 'blocks' and r.from_task_id = new.id
    ));
  end if;
  return null;
end;
$$;

revoke execute on function
  public.task_relations_before_insert(),
  public.sync_open_blockers(uuid[]),
  public.task_relations_sync_tasks(),
  public.tasks_sync_blocked()
from public, anon, authenticated;

create trigger task_relations_before_insert
before insert on public.task_relations
for each row execute function public.task_relations_before_insert();

create trigger task_relations_sync_tasks
after insert or delete on public.task_relations
for each row execute function public.task_relations_sync_tasks();

create trigger tasks_sync_blocked
after update of status_id on public.tasks
for each row execute function public.tasks_sync_blocked();

-- Row-level security ----------------------------------------------------------------------------
alter table public.checklist_items enable row level security;
alter table public.task_relations enable row level security;
revoke all on table public.checklist_items, public.task_relations from anon, authenticated;

-- checklist items: members see; members+ add (as themselves), edit, tick and
-- remove them in active projects; the order changes through move_checklist_item()
grant select, delete on table public.checklist_items to authenticated;
grant insert (task_id, title, done) on table public.checklist_items to authenticated;
grant update (title, done) on table public.checklist_items to authenticated;

create policy "members see checklists"
on public.checklist_items for select
to authenticated
using (project_id in (select public.my_project_ids()));

create policy "members add checklist items in active projects"
on public.checklist_items for insert
to authenticated
with check (public.has_task_role(task_id, 'member', true) and created_by = (select auth.uid()));

create policy "members edit checklist items in active projects"
on public.checklist_items for update
to authenticated
using (public.has_project_role(project_id, 'member', true))
with check (public.has_project_role(project_id, 'member', true));

create policy "members remove checklist items in active projects"
on public.checklist_items for delete
to authenticated
using (public.has_project_role(project_id, 'member', true));

-- relations: members see; members+ relate (as themselves) and unrelate tasks
-- of active projects, from either side
grant select, delete on table public.task_relations to authenticated;
grant insert (from_task_id, to_task_id, kind) on table public.task_relations to authenticated;

create policy "members see relations"
on public.task_relations for select
to authenticated
using (team_id in (select public.my_team_ids()));

create policy "members relate tasks in active projects"
on public.task_relations for insert
to authenticated
with check (
  created_by = (select auth.uid())
  and public.has_task_role(from_task_id, 'member', true)
  and public.has_task_role(to_task_id, 'member', true)
);

create policy "members unrelate tasks in active projects"
on public.task_relations for delete
to authenticated
using (public.has_task_role(from_task_id, 'member', true) and public.has_task_role(to_task_id, 'member', true));

-- move_checklist_item: an item to another place (0-based, clamped) in its task's list.
create function public.move_checklist_item(item_id uuid, "position" integer) returns public.checklist_items
language plpgsql
security definer
set search_path = ''
as $$
declare
  item public.checklist_items;
  ordered uuid[];
  place integer;
begin
  perform public.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select * into item from public.checklist_items c where c.id = $1;
  if not found or not public.has_project_role(item.project_id, 'viewer') then
    raise exception 'Checklist item not found.' using errcode = 'PT404';
  end if;
  if not public.has_project_role(item.project_id, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  if not public.has_project_role(item.project_id, 'member', true) then
    raise exception 'This project is archived; its tasks are read-only.'
      using errcode = 'P0001', detail = 'project_archived';
  end if;
  if $2 is null or $2 < 0 then
    raise exception 'A position is 0 or more.' using errcode = '22023', detail = 'position_negative';
  end if;
  perform 1 from public.tasks t where t.id = item.task_id for update;
  select array_agg(c.id order by c.position, c.id) into ordered
  from public.checklist_items c
  where c.task_id = item.task_id and c.id <> $1;
  place := least($2, coalesce(cardinality(ordered), 0));
  ordered := coalesce(ordered[1:place], '{}') || $1 || coalesce(ordered[place + 1:], '{}');
  update public.checklist_items c
  set position = o.n - 1
  from unnest(ordered) with ordinality as o (id, n)
  where c.id = o.id and c.position <> o.n - 1;
  update public.tasks t set updated_at = now() where t.id = item.task_id;
  select * into item from public.checklist_items c where c.id = $1;
  return item;
end;
$$;

revoke execute on function public.move_checklist_item(uuid, integer) from public, anon;
grant execute on function public.move_checklist_item(uuid, integer) to authenticated;
