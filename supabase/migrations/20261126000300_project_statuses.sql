-- Project statuses (docs/product.md §11, docs/decisions/0027-project-statuses.md).
--
-- Each project has its own ordered statuses, the columns of its board, in
-- place of the five fixed values of the task_status enum. A task references
-- one of its project's statuses and moves freely between them; entering a
-- completed or canceled status sets completed_at, leaving them clears it.
-- Every existing project gets the five statuses it had (same names as the
-- board showed them), and every task keeps its column and its place in it.
--
-- Errors the app shows a person carry a stable key in their DETAIL (or are
-- a named constraint): the app maps the key to its own words
-- (app/lib/db-errors.server.ts), never showing a database message as it is.
--
-- The read functions that used the enum (board_view, task_panel,
-- search_tasks, team_overview) are dropped here and made again, on the new
-- tables, by 20261126000340_status_reads.sql.

-- The 10 colours statuses and labels are drawn in (their light and dark
-- values live in app/styles; the names are the contract).
create type public.palette_color as enum (
  'gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'
);

create type public.status_category as enum ('backlog', 'unstarted', 'started', 'completed', 'canceled');

create table public.project_statuses (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  name text not null,
  color public.palette_color not null default 'gray',
  category public.status_category not null,
  position integer not null,
  wip_limit integer,
  created_at timestamptz not null default now(),
  -- the target of tasks' (project_id, status_id): a task's status is always one of its project's
  constraint project_statuses_project_id_id_key unique (project_id, id),
  -- reordering shifts neighbours inside one transaction, so uniqueness is checked at commit
  constraint project_statuses_position_key unique (project_id, position) deferrable initially deferred,
  constraint project_statuses_name_length check (btrim(name) <> '' and char_length(name) <= 30),
  constraint project_statuses_wip_limit_range check (wip_limit between 1 and 999),
  constraint project_statuses_position_not_negative check (position >= 0)
);

-- unique in the project, compared case-insensitively
create unique index project_statuses_name_key on public.project_statuses (project_id, lower(btrim(name)));

-- Every existing project: the five statuses it had, in the board's order ---------------
insert into public.project_statuses (project_id, name, color, category, position)
select p.id, s.name, s.color::public.palette_color, s.category::public.status_category, s.position
from public.projects p
cross join (values
  ('Backlog', 'gray', 'backlog', 0),
  ('To do', 'blue', 'unstarted', 1),
  ('In progress', 'yellow', 'started', 2),
  ('Done', 'green', 'completed', 3),
  ('Canceled', 'red', 'canceled', 4)
) as s (name, color, category, position);

-- Tasks reference their project's status -----------------------------------------------
alter table public.tasks add column status_id uuid;
alter table public.tasks add column completed_at timestamptz;

-- Moving the rows must not look like an edit: updated_at stays as it was. Done and
-- canceled tasks have no better record of when they closed than their last change.
alter table public.tasks disable trigger tasks_set_updated_at;
update public.tasks t
set status_id = s.id,
    completed_at = case when t.status in ('done', 'canceled') then t.updated_at end
from public.project_statuses s
where s.project_id = t.project_id
  and s.category = case t.status
    when 'backlog' then 'backlog'::public.status_category
    when 'todo' then 'unstarted'::public.status_category
    when 'in_progress' then 'started'::public.status_category
    when 'done' then 'completed'::public.status_category
    when 'canceled' then 'canceled'::public.status_category
  end;
alter table public.tasks enable trigger tasks_set_updated_at;

alter table public.tasks alter column status_id set not null;
-- no action (not restrict): checked at the end of the statement, so deleting a
-- project or team, which removes its tasks and statuses together, goes through
alter table public.tasks
  add constraint tasks_status_in_project_fkey
  foreign key (project_id, status_id) references public.project_statuses (project_id, id);
alter table public.tasks drop constraint tasks_column_position_key;
alter table public.tasks
  add constraint tasks_column_position_key unique (project_id, status_id, position) deferrable initially deferred;
create index tasks_status_id_idx on public.tasks (status_id);

-- What used the enum goes with it (the reads are made again by …000340_status_reads.sql).
drop function public.move_task(uuid, text, integer);
drop function public.board_view(text, text, text, text, text, jsonb);
drop function public.task_panel(text, text, integer, timestamptz, uuid, integer);
drop function public.search_tasks(text, integer);
drop function public.team_overview(uuid);
drop index public.tasks_assignee_id_idx;
alter table public.tasks drop column status;
drop type public.task_status;
create index tasks_assignee_id_idx on public.tasks (assignee_id) where assignee_id is not null;

-- A status's tasks: where a new one goes, and completed_at -------------------------------
-- A new task gets the project's next number; with no status it goes to the
-- project's first backlog status (else its first unstarted one), as the old
-- default 'backlog' did; it lands at the end of its column. Locking the
-- project row serialises numbering and positions.
create or replace function public.tasks_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.projects p
  set next_task_number = p.next_task_number + 1
  where p.id = new.project_id
  returning p.next_task_number - 1 into new.number;
  if not found then
    raise exception 'Project not found.' using errcode = '23503';
  end if;
  if new.status_id is null then
    select s.id into new.status_id
    from public.project_statuses s
    where s.project_id = new.project_id and s.category in ('backlog', 'unstarted')
    order by s.category, s.position
    limit 1;
  end if;
  select count(*) into new.position
  from public.tasks t
  where t.project_id = new.project_id and t.status_id = new.status_id;
  return new;
end;
$$;

-- A deleted task leaves no gap in its column.
create or replace function public.tasks_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.projects p where p.id = old.project_id for update;
  if found then
    update public.tasks t
    set position = t.position - 1
    where t.project_id = old.project_id and t.status_id = old.status_id and t.position > old.position;
  end if;
  return null;
end;
$$;

-- §4: entering a completed or canceled status sets completed_at (moving between
-- two of them keeps it), any other status clears it. Nobody writes it directly.
create function public.tasks_set_completed_at() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  closed boolean;
begin
  select s.category in ('completed', 'canceled') into closed
  from public.project_statuses s
  where s.id = new.status_id;
  if not coalesce(closed, false) then
    new.completed_at := null;
  elsif tg_op = 'INSERT' or old.completed_at is null then
    new.completed_at := now();
  else
    new.completed_at := old.completed_at;
  end if;
  return new;
end;
$$;

revoke execute on function public.tasks_set_completed_at() from public, anon, authenticated;

create trigger tasks_set_completed_at
before insert or update of status_id, completed_at on public.tasks
for each row execute function public.tasks_set_completed_at();

-- Status rules (§11) ---------------------------------------------------------------------
-- A new status goes last; at most 12 in a project (the project row is locked,
-- so two admins adding at once can't both make the 12th).
create function public.project_statuses_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.projects p where p.id = new.project_id for update;
  select count(*) into new.position from public.project_statuses s where s.project_id = new.project_id;
  if new.position >= 12 then
    raise exception 'A project needs at least one open and one done status, and at most 12.'
      using errcode = '23514', detail = 'project_statuses_bounds';
  end if;
  return new;
end;
$$;

-- At least one unstarted and one completed status stay, checked when the
-- transaction commits (a project being deleted needs none).
create function public.project_statuses_check_bounds() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid := coalesce(new.project_id, old.project_id);
begin
  if exists (select 1 from public.projects p where p.id = project)
     and not (
       exists (select 1 from public.project_statuses s where s.project_id = project and s.category = 'unstarted')
       and exists (select 1 from public.project_statuses s where s.project_id = project and s.category = 'completed')
     ) then
    raise exception 'A project needs at least one open and one done status, and at most 12.'
      using errcode = '23514', detail = 'project_statuses_bounds';
  end if;
  return null;
end;
$$;

-- A new project starts with one status of each category.
create function public.projects_after_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.project_statuses (project_id, name, color, category)
  values
    (new.id, 'Backlog', 'gray', 'backlog'),
    (new.id, 'To do', 'blue', 'unstarted'),
    (new.id, 'In progress', 'yellow', 'started'),
    (new.id, 'Done', 'green', 'completed'),
    (new.id, 'Canceled', 'red', 'canceled');
  return null;
end;
$$;

revoke execute on function
  public.project_statuses_before_insert(),
  public.project_statuses_check_bounds(),
  public.projects_after_insert()
from public, anon, authenticated;

create trigger project_statuses_before_insert
before insert on public.project_statuses
for each row execute function public.project_statuses_before_insert();

create constraint trigger project_statuses_check_bounds
after update of category, project_id or delete on public.project_statuses
deferrable initially deferred
for each row execute function public.project_statuses_check_bounds();

-- named so it runs after any other after-insert trigger a project has
create trigger projects_z_add_statuses
after insert on public.projects
for each row execute function public.projects_after_insert();

-- Row-level security ----------------------------------------------------------------------
-- Everyone in the team sees the statuses; admins add, rename, recolour and set
-- WIP limits in active projects. A category is chosen once. Order and removal
-- go through move_status() and remove_status() (dense order; tasks moved in
-- the same step).
alter table public.project_statuses enable row level security;
revoke all on table public.project_statuses from anon, authenticated;
grant select on table public.project_statuses to authenticated;
grant insert (project_id, name, color, category, wip_limit) on table public.project_statuses to authenticated;
grant update (name, color, wip_limit) on table public.project_statuses to authenticated;

create policy "members see their projects' statuses"
on public.project_statuses for select
to authenticated
using (project_id in (select public.my_project_ids()));

create policy "admins add statuses in active projects"
on public.project_statuses for insert
to authenticated
with check (public.has_project_role(project_id, 'admin', true));

create policy "admins edit statuses in active projects"
on public.project_statuses for update
to authenticated
using (public.has_project_role(project_id, 'admin', true))
with check (public.has_project_role(project_id, 'admin', true));

-- Tasks: the status is chosen when a task is made; afterwards only move_task() changes it.
grant insert (status_id) on table public.tasks to authenticated;

-- The calls ---------------------------------------------------------------------------------
-- Errors as in …_rpc.sql: PT404 for what the caller may not know exists, 42501
-- for a role too low, 22023 / P0001 / 23514 for the person's mistake.

-- Checks shared by the calls below: the status exists for the caller (else
-- PT404), their role is at least `min_role` (else 42501) and the project is
-- active (else P0001). Returns the status's project, locked: calls that
-- change a project's order run one at a time.
create function public.lock_status_project(status_id uuid, min_role text) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid;
begin
  perform public.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select s.project_id into project from public.project_statuses s where s.id = $1;
  if project is null or not public.has_project_role(project, 'viewer') then
    raise exception 'Status not found.' using errcode = 'PT404';
  end if;
  if not public.has_project_role(project, $2) then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  perform 1 from public.projects p where p.id = project for update;
  if (select p.archived_at from public.projects p where p.id = project) is not null then
    raise exception 'This project is archived; its tasks are read-only.'
      using errcode = 'P0001', detail = 'project_archived';
  end if;
  return project;
end;
$$;

revoke execute on function public.lock_status_project(uuid, text) from public, anon, authenticated;

-- move_task: the board's drag and drop and the panel's status menu (§4: any
-- status of the task's project, in any direction). position: 0-based place
-- in the target column (clamped to its end; null = the end). Positions stay
-- dense 0..n-1 per (project, status): the project row is locked first, so
-- concurrent moves in one project run one at a time.
create function public.move_task(task_id uuid, status_id uuid, "position" integer default null)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid;
  task public.tasks;
  others integer;
  place integer;
begin
  perform public.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select t.project_id into project from public.tasks t where t.id = $1;
  if project is null or not public.has_project_role(project, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not public.has_project_role(project, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;

  perform 1 from public.projects p where p.id = project for update;
  select * into task from public.tasks t where t.id = $1 for update;
  if not found then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if (select p.archived_at from public.projects p where p.id = project) is not null then
    raise exception 'This project is archived; its tasks are read-only.'
      using errcode = 'P0001', detail = 'project_archived';
  end if;
  if $2 is null or not exists (select 1 from public.project_statuses s where s.id = $2 and s.project_id = project) then
    raise exception 'That status is not one of this project''s.' using errcode = '22023', detail = 'status_not_in_project';
  end if;
  if $3 is not null and $3 < 0 then
    raise exception 'A position is 0 or more.' using errcode = '22023', detail = 'position_negative';
  end if;

  -- take it out of its column, then make room at its new place
  update public.tasks t
  set position = t.position - 1
  where t.project_id = project and t.status_id = task.status_id and t.position > task.position;

  select count(*) into others
  from public.tasks t
  where t.project_id = project and t.status_id = $2 and t.id <> task.id;
  place := least(coalesce($3, others), others);

  update public.tasks t
  set position = t.position + 1
  where t.project_id = project and t.status_id = $2 and t.id <> task.id and t.position >= place;

  update public.tasks t
  set status_id = $2, position = place
  where t.id = task.id
  returning * into task;
  return task;
end;
$$;

-- move_status: a column to another place (0-based, clamped) in its project's order.
create function public.move_status(status_id uuid, "position" integer) returns public.project_statuses
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid := public.lock_status_project($1, 'admin');
  ordered uuid[];
  place integer;
  moved public.project_statuses;
begin
  perform public.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  if $2 is null or $2 < 0 then
    raise exception 'A position is 0 or more.' using errcode = '22023', detail = 'position_negative';
  end if;
  select array_agg(s.id order by s.position, s.id) into ordered
  from public.project_statuses s
  where s.project_id = project and s.id <> $1;
  place := least($2, coalesce(cardinality(ordered), 0));
  ordered := coalesce(ordered[1:place], '{}') || $1 || coalesce(ordered[place + 1:], '{}');
  update public.project_statuses s
  set position = o.n - 1
  from unnest(ordered) with ordinality as o (id, n)
  where s.id = o.id and s.position <> o.n - 1;
  select * into moved from public.project_statuses s where s.id = $1;
  return moved;
end;
$$;

-- remove_status: a status goes; its tasks (if any) move to `move_to`, after
-- that column's own tasks and in their order, in the same transaction. The
-- remaining statuses are renumbered 0..n-1 (every one is written, so a board
-- subscribed to its project's statuses hears of the removal).
create function public.remove_status(status_id uuid, move_to uuid default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid := public.lock_status_project($1, 'admin');
  removed public.project_statuses;
  holding integer;
  base integer;
begin
  perform public.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select * into removed from public.project_statuses s where s.id = $1;
  select count(*) into holding from public.tasks t where t.project_id = project and t.status_id = $1;
  if holding > 0 then
    if $2 is null then
      raise exception 'Choose the status its tasks move to.' using errcode = '22023', detail = 'status_move_to_missing';
    end if;
    if $2 = $1 or not exists (select 1 from public.project_statuses s where s.id = $2 and s.project_id = project) then
      raise exception 'That status is not one of this project''s.' using errcode = '22023', detail = 'status_not_in_project';
    end if;
  end if;
  if removed.category in ('unstarted', 'completed')
     and not exists (
       select 1 from public.project_statuses s
       where s.project_id = project and s.category = removed.category and s.id <> $1
     ) then
    raise exception 'A project needs at least one open and one done status, and at most 12.'
      using errcode = '23514', detail = 'project_statuses_bounds';
  end if;

  if holding > 0 then
    select count(*) into base from public.tasks t where t.project_id = project and t.status_id = $2;
    update public.tasks t
    set status_id = $2, position = base + t.position
    where t.project_id = project and t.status_id = $1;
  end if;
  delete from public.project_statuses s where s.id = $1;
  update public.project_statuses s
  set position = o.n - 1
  from (
    select x.id, row_number() over (order by x.position, x.id) as n
    from public.project_statuses x
    where x.project_id = project
  ) o
  where s.id = o.id;
end;
$$;

revoke execute on function
  public.move_task(uuid, uuid, integer),
  public.move_status(uuid, integer),
  public.remove_status(uuid, uuid)
from public, anon;

grant execute on function
  public.move_task(uuid, uuid, integer),
  public.move_status(uuid, integer),
  public.remove_status(uuid, uuid)
to authenticated;
