-- Projects and their tasks.

create type public.task_status as enum ('backlog', 'todo', 'in_progress', 'done', 'canceled');
create type public.task_priority as enum ('none', 'low', 'medium', 'high', 'urgent');

-- projects ----------------------------------------------------------------------------
create table public.projects (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  key text not null,
  name text not null,
  description text not null default '',
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  next_task_number integer not null default 1,
  constraint projects_team_id_key_key unique (team_id, key),
  constraint projects_key_format check (key ~ '^[A-Z]{2,10}$'),
  constraint projects_name_length check (btrim(name) <> '' and char_length(name) <= 80),
  constraint projects_description_length check (char_length(description) <= 10000),
  constraint projects_next_task_number_positive check (next_task_number > 0)
);

-- tasks -------------------------------------------------------------------------------
-- Labels: at most 10, each 1–24 characters (a function, as checks cannot hold subqueries).
create function public.task_labels_are_valid(labels text[]) returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(cardinality($1), 0) <= 10
     and coalesce(array_ndims($1), 1) = 1
     and not exists (
       select 1 from unnest($1) as l(label)
       where l.label is null or btrim(l.label) = '' or char_length(l.label) > 24
     )
$$;

revoke execute on function public.task_labels_are_valid(text[]) from public, anon;
grant execute on function public.task_labels_are_valid(text[]) to authenticated, service_role;

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  number integer not null,
  title text not null,
  description text not null default '',
  status public.task_status not null default 'backlog',
  priority public.task_priority not null default 'none',
  assignee_id uuid references public.profiles (id) on delete set null,
  due_on date,
  labels text[] not null default '{}',
  position integer not null default 0,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, description), 'B')
  ) stored,
  constraint tasks_project_id_number_key unique (project_id, number),
  -- positions are dense 0..n-1 per column; moves shift neighbours inside one
  -- transaction, so uniqueness is checked at commit
  constraint tasks_column_position_key unique (project_id, status, position) deferrable initially deferred,
  constraint tasks_title_length check (btrim(title) <> '' and char_length(title) <= 200),
  constraint tasks_description_length check (char_length(description) <= 10000),
  constraint tasks_due_on_range check (due_on between date '2000-01-01' and date '2100-12-31'),
  constraint tasks_labels_valid check (public.task_labels_are_valid(labels)),
  constraint tasks_position_not_negative check (position >= 0),
  constraint tasks_number_positive check (number > 0)
);

create index tasks_assignee_id_idx on public.tasks (assignee_id, status) where assignee_id is not null;
create index tasks_created_by_idx on public.tasks (created_by);
create index tasks_search_idx on public.tasks using gin (search);
create index tasks_labels_idx on public.tasks using gin (labels);

-- Each new task gets the project's next number and goes to the end of its
-- column. Locking the project row serialises numbering and positions.
create function public.tasks_before_insert() returns trigger
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
  select count(*) into new.position
  from public.tasks t
  where t.project_id = new.project_id and t.status = new.status;
  return new;
end;
$$;

-- A deleted task leaves no gap in its column.
create function public.tasks_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.projects p where p.id = old.project_id for update;
  if found then
    update public.tasks t
    set position = t.position - 1
    where t.project_id = old.project_id and t.status = old.status and t.position > old.position;
  end if;
  return null;
end;
$$;

-- The assignee must belong to the project's team.
create function public.tasks_check_assignee() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.assignee_id is not null and not exists (
    select 1
    from public.projects p
    join public.team_members m on m.team_id = p.team_id
    where p.id = new.project_id and m.user_id = new.assignee_id
  ) then
    raise exception 'The assignee must be a member of this team.' using errcode = '23514';
  end if;
  return new;
end;
$$;

revoke execute on function public.tasks_before_insert(), public.tasks_after_delete(), public.tasks_check_assignee()
  from public, anon, authenticated;

create trigger tasks_before_insert
before insert on public.tasks
for each row execute function public.tasks_before_insert();

create trigger tasks_check_assignee
before insert or update of assignee_id on public.tasks
for each row execute function public.tasks_check_assignee();

create trigger tasks_set_updated_at
before update on public.tasks
for each row execute function public.set_updated_at();

create trigger tasks_after_delete
after delete on public.tasks
for each row execute function public.tasks_after_delete();

-- A person who leaves (or is removed from) a team is unassigned from its tasks.
create function public.team_members_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.teams t where t.id = old.team_id) then
    update public.tasks t
    set assignee_id = null
    from public.projects p
    where p.id = t.project_id and p.team_id = old.team_id and t.assignee_id = old.user_id;
  end if;
  return null;
end;
$$;

revoke execute on function public.team_members_after_delete() from public, anon, authenticated;

create trigger team_members_after_delete
after delete on public.team_members
for each row execute function public.team_members_after_delete();

-- Access helpers for rows that hang off a project -------------------------------------
-- writable: the project must also be active (archived projects are read-only).
create function public.has_project_role(project_id uuid, min_role text, writable boolean default false)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.projects p
    join public.team_members m on m.team_id = p.team_id
    where p.id = $1
      and m.user_id = auth.uid()
      and m.role >= $2::public.team_role
      and (not $3 or p.archived_at is null)
  )
$$;

create function public.has_task_role(task_id uuid, min_role text, writable boolean default false)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.tasks t
    join public.projects p on p.id = t.project_id
    join public.team_members m on m.team_id = p.team_id
    where t.id = $1
      and m.user_id = auth.uid()
      and m.role >= $2::public.team_role
      and (not $3 or p.archived_at is null)
  )
$$;

revoke execute on function public.has_project_role(uuid, text, boolean), public.has_task_role(uuid, text, boolean)
  from public, anon;
grant execute on function public.has_project_role(uuid, text, boolean), public.has_task_role(uuid, text, boolean)
  to authenticated, service_role;

-- Row-level security ------------------------------------------------------------------
alter table public.projects enable row level security;
alter table public.tasks enable row level security;

revoke all on table public.projects, public.tasks from anon, authenticated;

-- projects: members see; admins create, edit and archive / unarchive. The key
-- (it is in every task's name, KEY-12) and the numbering are not editable.
grant select on table public.projects to authenticated;
grant insert (team_id, key, name, description) on table public.projects to authenticated;
grant update (name, description, archived_at) on table public.projects to authenticated;

create policy "members see their teams' projects"
on public.projects for select
to authenticated
using (public.is_member(team_id));

create policy "admins create projects"
on public.projects for insert
to authenticated
with check (public.has_role(team_id, 'admin'));

create policy "admins edit and archive projects"
on public.projects for update
to authenticated
using (public.has_role(team_id, 'admin'))
with check (public.has_role(team_id, 'admin'));

-- tasks: members see; member+ create and edit in active projects; admins
-- delete. Status and position change only through move_task().
grant select, delete on table public.tasks to authenticated;
grant insert (project_id, title, description, status, priority, assignee_id, due_on, labels)
  on table public.tasks to authenticated;
grant update (title, description, priority, assignee_id, due_on, labels) on table public.tasks to authenticated;

create policy "members see their teams' tasks"
on public.tasks for select
to authenticated
using (public.has_project_role(project_id, 'viewer'));

create policy "members create tasks in active projects"
on public.tasks for insert
to authenticated
with check (public.has_project_role(project_id, 'member', true) and created_by = (select auth.uid()));

create policy "members edit tasks in active projects"
on public.tasks for update
to authenticated
using (public.has_project_role(project_id, 'member', true))
with check (public.has_project_role(project_id, 'member', true));

create policy "admins delete tasks in active projects"
on public.tasks for delete
to authenticated
using (public.has_project_role(project_id, 'admin', true));
