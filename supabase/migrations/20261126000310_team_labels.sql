-- Team labels (docs/product.md §11): each team has its own labels, with a
-- name (1–24 characters, unique in the team compared case-insensitively)
-- and a colour of the palette, at most 100 per team; a task carries up to 10.
-- The free-text labels tasks had become their team's labels: one per name,
-- whatever its capitals (the spelling that sorts first wins), coloured in
-- turn through the palette (gray left for people to choose), and every task
-- keeps the labels it had.
--
-- task_labels is where a task's labels are kept (foreign keys, row-level
-- security, and what the activity issue's triggers will watch). The task row
-- carries their ids too (tasks.label_ids, kept by a trigger): the board reads
-- a card's labels and filters by one as cheaply as it read the free-text
-- array, and the change reaches Realtime (which routes a task's changes by
-- its project) as a change of the task. A renamed or recoloured label reaches
-- boards through the labels table itself (published, filtered by team).

create table public.labels (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  name text not null,
  color public.palette_color not null default 'gray',
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint labels_name_length check (btrim(name) <> '' and char_length(name) <= 24)
);

create unique index labels_name_key on public.labels (team_id, lower(btrim(name)));
create index labels_created_by_idx on public.labels (created_by);

-- project_id is the task's (filled in by a trigger): row-level security and the
-- board read a task's labels by project, as they read its tasks
create table public.task_labels (
  task_id uuid not null references public.tasks (id) on delete cascade,
  label_id uuid not null references public.labels (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (task_id, label_id)
);

create index task_labels_label_id_idx on public.task_labels (label_id);
create index task_labels_project_id_idx on public.task_labels (project_id);

-- the ids of the task's labels, in id order; written only by the trigger below
alter table public.tasks add column label_ids uuid[] not null default '{}';

-- The free-text labels move over ------------------------------------------------------------
insert into public.labels (team_id, name, color)
select x.team_id, x.name,
       (array['blue', 'green', 'orange', 'purple', 'teal', 'red', 'indigo', 'pink', 'yellow'])[
         1 + ((row_number() over (partition by x.team_id order by x.key, x.name) - 1) % 9)::int
       ]::public.palette_color
from (
  select p.team_id, lower(btrim(l.label)) as key, min(btrim(l.label)) as name
  from public.tasks t
  join public.projects p on p.id = t.project_id
  cross join unnest(t.labels) as l (label)
  where btrim(l.label) <> ''
  group by p.team_id, lower(btrim(l.label))
) x;

insert into public.task_labels (task_id, label_id, project_id)
select distinct t.id, lb.id, t.project_id
from public.tasks t
join public.projects p on p.id = t.project_id
cross join unnest(t.labels) as l (label)
join public.labels lb on lb.team_id = p.team_id and lower(btrim(lb.name)) = lower(btrim(l.label));

-- (not an edit: updated_at stays as it was)
alter table public.tasks disable trigger tasks_set_updated_at;
update public.tasks t
set label_ids = x.ids
from (select tl.task_id, array_agg(tl.label_id order by tl.label_id) as ids from public.task_labels tl group by tl.task_id) x
where x.task_id = t.id;
alter table public.tasks enable trigger tasks_set_updated_at;

drop index public.tasks_labels_idx;
alter table public.tasks drop constraint tasks_labels_valid;
alter table public.tasks drop column labels;
drop function public.task_labels_are_valid(text[]);
create index tasks_label_ids_idx on public.tasks using gin (label_ids);

-- Rules ------------------------------------------------------------------------------------
-- At most 100 labels in a team (the team row is locked, so two people adding
-- at once can't both make the 101st). Labels moved over from the free-text
-- ones are never lost: a team that had more keeps them and adds no more.
create function public.labels_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.teams t where t.id = new.team_id for update;
  if (select count(*) from public.labels l where l.team_id = new.team_id) >= 100 then
    raise exception 'A team can have at most 100 labels.' using errcode = '23514', detail = 'labels_limit';
  end if;
  return new;
end;
$$;

-- A label on a task: one of the task's team's labels, at most 10 per task (the
-- task row is locked while counting); project_id is the task's.
create function public.task_labels_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task_team uuid;
begin
  select t.project_id, p.team_id into new.project_id, task_team
  from public.tasks t
  join public.projects p on p.id = t.project_id
  where t.id = new.task_id
  for update of t;
  if not found then
    raise exception 'Task not found.' using errcode = '23503';
  end if;
  if not exists (select 1 from public.labels l where l.id = new.label_id and l.team_id = task_team) then
    raise exception 'That label is not one of this team''s.' using errcode = '23514', detail = 'task_labels_same_team';
  end if;
  if (select count(*) from public.task_labels x where x.task_id = new.task_id) >= 10 then
    raise exception 'A task can have at most 10 labels.' using errcode = '23514', detail = 'task_labels_limit';
  end if;
  return new;
end;
$$;

-- A label put on or taken off: the task's label_ids follow (and its updated_at,
-- which is what Realtime subscribers of the task's project hear).
create function public.task_labels_sync_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task uuid := coalesce(new.task_id, old.task_id);
begin
  update public.tasks t
  set label_ids = coalesce(
    (select array_agg(tl.label_id order by tl.label_id) from public.task_labels tl where tl.task_id = task), '{}'
  )
  where t.id = task;
  return null;
end;
$$;

revoke execute on function
  public.labels_before_insert(),
  public.task_labels_before_insert(),
  public.task_labels_sync_task()
from public, anon, authenticated;

create trigger labels_before_insert
before insert on public.labels
for each row execute function public.labels_before_insert();

create trigger task_labels_before_insert
before insert on public.task_labels
for each row execute function public.task_labels_before_insert();

create trigger task_labels_sync_task
after insert or delete on public.task_labels
for each row execute function public.task_labels_sync_task();

-- Row-level security ------------------------------------------------------------------------
-- labels: members see; members+ create (as themselves); admins rename,
-- recolour and delete (a deleted label leaves every task).
alter table public.labels enable row level security;
alter table public.task_labels enable row level security;
revoke all on table public.labels, public.task_labels from anon, authenticated;

grant select, delete on table public.labels to authenticated;
grant insert (team_id, name, color) on table public.labels to authenticated;
grant update (name, color) on table public.labels to authenticated;

-- "one of my teams" as a set: Postgres works it out once per query (a hashed
-- subplan), not once per row as is_member() would be, as tasks' read policy
-- does with my_project_ids() (…_tasks_read_policy_per_query.sql)
create function public.my_team_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  -- once per query, so it checks the two-factor rule (as my_project_ids() does)
  select m.team_id from public.team_members m where m.user_id = auth.uid() and (select public.has_required_aal())
$$;

revoke execute on function public.my_team_ids() from public, anon;
grant execute on function public.my_team_ids() to authenticated, service_role;

create policy "members see their teams' labels"
on public.labels for select
to authenticated
using (team_id in (select public.my_team_ids()));

create policy "members create labels as themselves"
on public.labels for insert
to authenticated
with check (public.has_role(team_id, 'member') and created_by = (select auth.uid()));

create policy "admins rename and recolour labels"
on public.labels for update
to authenticated
using (public.has_role(team_id, 'admin'))
with check (public.has_role(team_id, 'admin'));

create policy "admins delete labels"
on public.labels for delete
to authenticated
using (public.has_role(team_id, 'admin'));

-- task_labels: members see; members+ put labels on and take them off tasks of active projects
grant select, delete on table public.task_labels to authenticated;
grant insert (task_id, label_id) on table public.task_labels to authenticated;

create policy "members see their tasks' labels"
on public.task_labels for select
to authenticated
using (project_id in (select public.my_project_ids()));

create policy "members label tasks in active projects"
on public.task_labels for insert
to authenticated
with check (public.has_task_role(task_id, 'member', true));

create policy "members unlabel tasks in active projects"
on public.task_labels for delete
to authenticated
using (public.has_task_role(task_id, 'member', true));

-- set_task_labels: a task's labels, by name, as one change: names the team has
-- (compared case-insensitively) are used, new ones become team labels (members+
-- may create them), and the task ends up with exactly these. The task form's
-- "Labels" field (comma-separated names) saves through it.
create function public.set_task_labels(task_id uuid, names text[]) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  project uuid;
  team uuid;
  wanted text[];
  chosen uuid[] := '{}';
  found_id uuid;
  label_name text;
  used integer;
begin
  perform public.require_aal(); -- two-factor accounts need aal2 (20261126000100)
  select t.project_id, p.team_id into project, team
  from public.tasks t join public.projects p on p.id = t.project_id
  where t.id = $1;
  if project is null or not public.has_project_role(project, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not public.has_project_role(project, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  if not public.has_project_role(project, 'member', true) then
    raise exception 'This project is archived; its tasks are read-only.'
      using errcode = 'P0001', detail = 'project_archived';
  end if;

  -- trimmed, empty ones dropped, the same name (any capitals) once, in the order given
  select coalesce(array_agg(n.name order by n.first), '{}') into wanted
  from (
    select distinct on (lower(btrim(x.name))) btrim(x.name) as name, x.ord as first
    from unnest(coalesce($2, '{}')) with ordinality as x (name, ord)
    where btrim(coalesce(x.name, '')) <> ''
    order by lower(btrim(x.name)), x.ord
  ) n;
  if cardinality(wanted) > 10 then
    raise exception 'A task can have at most 10 labels.' using errcode = '23514', detail = 'task_labels_limit';
  end if;
  if exists (select 1 from unnest(wanted) w where char_length(w) > 24) then
    raise exception 'A label has at most 24 characters.' using errcode = '22023', detail = 'labels_name_length';
  end if;

  foreach label_name in array wanted loop
    select l.id into found_id from public.labels l where l.team_id = team and lower(btrim(l.name)) = lower(label_name);
    if found_id is null then
      select count(*) into used from public.labels l where l.team_id = team;
      insert into public.labels (team_id, name, color, created_by)
      values (
        team, label_name,
        (array['blue', 'green', 'orange', 'purple', 'teal', 'red', 'indigo', 'pink', 'yellow'])[1 + used % 9]::public.palette_color,
        me
      )
      returning id into found_id;
    end if;
    chosen := chosen || found_id;
  end loop;

  delete from public.task_labels tl where tl.task_id = $1 and not (tl.label_id = any (chosen));
  insert into public.task_labels (task_id, label_id)
  select $1, c from unnest(chosen) as c
  on conflict on constraint task_labels_pkey do nothing;

  return coalesce((
    select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by lower(l.name))
    from public.task_labels tl join public.labels l on l.id = tl.label_id
    where tl.task_id = $1
  ), '[]'::json);
end;
$$;

revoke execute on function public.set_task_labels(uuid, text[]) from public, anon;
grant execute on function public.set_task_labels(uuid, text[]) to authenticated;
