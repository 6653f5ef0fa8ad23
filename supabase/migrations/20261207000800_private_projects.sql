-- Private projects (issue 41; docs/product.md §20; docs/decisions/0039-private-projects.md).
--
-- A project is visible to the whole team (visibility 'team', as before) or
-- 'private': then only its project members (chosen by admins+ from the team)
-- and the team's admins and owners see it and anything in it.
--
-- The decision is made in one place: the helpers every policy uses.
--   private.my_project_ids()        (tasks, comments, attachments, watchers,
--                                    statuses, labels, checklists, views, and
--                                    now projects and task_events)
--   private.has_project_role(), private.has_task_role() (the write policies)
--   private.sees_project(project, person)  (security definer code deciding for
--                                    someone else: notifications, reminders,
--                                    the calendar feed, assignees)
-- all apply the same rule:
--   visibility = 'team' or role >= 'admin' or a project_members row.
-- Storage (attachment files) and Realtime presence read through the tasks
-- policy, so they follow. Losing sight of a project (removed from it, or it
-- turns private) deletes the person's notifications, watching and reminders
-- there and unassigns them, as leaving the team does.

alter table public.projects
  add column visibility text not null default 'team',
  add constraint projects_visibility_valid check (visibility in ('team', 'private'));

grant insert (visibility) on table public.projects to authenticated;
grant update (visibility) on table public.projects to authenticated;

create table public.project_members (
  project_id uuid not null references public.projects (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  added_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  primary key (project_id, user_id)
);

create index project_members_user_id_idx on public.project_members (user_id);
create index project_members_added_by_idx on public.project_members (added_by);

comment on table public.project_members is
  'Who sees a private project besides the team''s admins and owners (chosen by admins+ from the team).';

-- the rule (with an API token's team limit, 20261207000700) ------------------------------
create or replace function private.my_project_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id
  from public.projects p
  join public.team_members m on m.team_id = p.team_id
  where m.user_id = auth.uid() and (select private.has_required_aal())
    and m.team_id = coalesce((select private.api_token_team()), m.team_id)
    and (p.visibility = 'team' or m.role >= 'admin'::public.team_role
         or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
$$;

create or replace function private.has_project_role(project_id uuid, min_role text, writable boolean default false)
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
      and m.team_id = coalesce(private.api_token_team(), m.team_id)
      and (p.visibility = 'team' or m.role >= 'admin'::public.team_role
           or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
  )
$$;

create or replace function private.has_task_role(task_id uuid, min_role text, writable boolean default false)
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
      and m.team_id = coalesce(private.api_token_team(), m.team_id)
      and (p.visibility = 'team' or m.role >= 'admin'::public.team_role
           or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
  )
$$;

-- For code that decides on someone else's behalf (runs as its owner).
create function private.sees_project(project_id uuid, person uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.projects p
    join public.team_members m on m.team_id = p.team_id
    where p.id = $1 and m.user_id = $2
      and (p.visibility = 'team' or m.role >= 'admin'::public.team_role
           or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
  )
$$;

revoke execute on function private.sees_project(uuid, uuid) from public, anon, authenticated;
grant execute on function private.sees_project(uuid, uuid) to service_role;

-- policies that decided by team --------------------------------------------------------
drop policy "members see their teams' projects" on public.projects;
-- my_project_ids() decides; the first two terms say the same for a row the
-- statement itself writes (insert … returning: a stable function doesn't see it yet).
create policy "members see their teams' projects, private ones if they are in them"
on public.projects for select
to authenticated
using (
  team_id in (select private.my_admin_team_ids())
  or (visibility = 'team' and team_id in (select private.my_team_ids()))
  or id in (select private.my_project_ids())
);

drop policy "members see their teams' events" on public.task_events;
create policy "members see the events of the projects they see"
on public.task_events for select
to authenticated
using (project_id in (select private.my_project_ids()));

drop policy "members see relations" on public.task_relations;
create policy "members see relations between tasks they see"
on public.task_relations for select
to authenticated
using (
  team_id in (select private.my_team_ids())
  and from_task_id in (select t.id from public.tasks t)
  and to_task_id in (select t.id from public.tasks t)
);

-- project_members ----------------------------------------------------------------------
alter table public.project_members enable row level security;
revoke all on table public.project_members from anon, authenticated, service_role;
grant select, delete on table public.project_members to authenticated;
grant insert (project_id, user_id) on table public.project_members to authenticated;
grant select, insert, update, delete on table public.project_members to service_role;

create policy "who sees a project sees its members"
on public.project_members for select
to authenticated
using (project_id in (select private.my_project_ids()));

create policy "admins choose project members"
on public.project_members for insert
to authenticated
with check (private.has_project_role(project_id, 'admin') and added_by = (select auth.uid()));

create policy "admins remove project members"
on public.project_members for delete
to authenticated
using (private.has_project_role(project_id, 'admin'));

create policy "two-factor accounts need aal2" on public.project_members
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));

-- A project member is one of the team.
create function private.project_members_check_team() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from public.projects p join public.team_members m on m.team_id = p.team_id
    where p.id = new.project_id and m.user_id = new.user_id
  ) then
    raise exception 'Only people in the team can be added to a project.' using errcode = '23514';
  end if;
  return new;
end;
$$;

revoke execute on function private.project_members_check_team() from public, anon, authenticated;

create trigger project_members_check_team
before insert on public.project_members
for each row execute function private.project_members_check_team();

-- Losing sight of a project: nothing about it stays readable or keeps coming.
create function private.forget_unseen_project(project uuid, person uuid default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.notifications n
  using public.tasks t
  where t.id = n.task_id and t.project_id = $1 and ($2 is null or n.recipient_id = $2)
    and not private.sees_project($1, n.recipient_id);
  delete from public.task_watchers w
  where w.project_id = $1 and ($2 is null or w.user_id = $2)
    and not private.sees_project($1, w.user_id);
  delete from public.due_reminders r
  using public.tasks t
  where t.id = r.task_id and t.project_id = $1 and ($2 is null or r.recipient_id = $2)
    and not private.sees_project($1, r.recipient_id);
  -- several assignees (20261207000510): each one who can't see it any more is unassigned
  delete from public.task_assignees a
  where a.project_id = $1 and ($2 is null or a.person_id = $2)
    and not private.sees_project($1, a.person_id);
  update public.tasks t set assignee_id = null
  where t.project_id = $1 and t.assignee_id is not null and ($2 is null or t.assignee_id = $2)
    and not private.sees_project($1, t.assignee_id);
end;
$$;

revoke execute on function private.forget_unseen_project(uuid, uuid) from public, anon, authenticated;

create function private.project_members_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.projects p where p.id = old.project_id and p.visibility = 'private') then
    perform private.forget_unseen_project(old.project_id, old.user_id);
  end if;
  return null;
end;
$$;

create function private.projects_after_visibility() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.forget_unseen_project(new.id);
  return null;
end;
$$;

revoke execute on function private.project_members_after_delete(), private.projects_after_visibility()
  from public, anon, authenticated;

create trigger project_members_after_delete
after delete on public.project_members
for each row execute function private.project_members_after_delete();

create trigger projects_after_visibility
after update of visibility on public.projects
for each row when (new.visibility = 'private' and old.visibility is distinct from 'private')
execute function private.projects_after_visibility();

-- Leaving the team (or a demotion from admin) ends project membership too.
create function private.team_members_forget_projects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.project_members pm
  using public.projects p
  where p.id = pm.project_id and p.team_id = old.team_id and pm.user_id = old.user_id;
  return null;
end;
$$;

create function private.team_members_after_demotion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  pid uuid;
begin
  for pid in
    select p.id from public.projects p where p.team_id = new.team_id and p.visibility = 'private'
  loop
    perform private.forget_unseen_project(pid, new.user_id);
  end loop;
  return null;
end;
$$;

revoke execute on function private.team_members_forget_projects(), private.team_members_after_demotion()
  from public, anon, authenticated;

create trigger team_members_forget_projects
after delete on public.team_members
for each row execute function private.team_members_forget_projects();

create trigger team_members_after_demotion
after update of role on public.team_members
for each row when (old.role >= 'admin'::public.team_role and new.role < 'admin'::public.team_role)
execute function private.team_members_after_demotion();

-- restated: an assignee must see the project --------------------------------------------
create or replace function public.tasks_check_assignee() returns trigger
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
  if new.assignee_id is not null and not private.sees_project(new.project_id, new.assignee_id) then
    raise exception 'The assignee must be able to see this project.' using errcode = '23514';
  end if;
  return new;
end;
$$;

-- several assignees: each one added must see the project (after task_assignees_before_insert,
-- which fills the row's project; triggers of one event fire in name order)
create function private.task_assignees_visible() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.sees_project(new.project_id, new.person_id) then
    raise exception 'The assignee must be able to see this project.' using errcode = '23514';
  end if;
  return new;
end;
$$;

revoke execute on function private.task_assignees_visible() from public, anon, authenticated;

create trigger task_assignees_visible
before insert on public.task_assignees
for each row execute function private.task_assignees_visible();

-- restated: no notification about a project the recipient can't see (task_events_notify),
-- no reminder (remind_due_tasks), no feed entry (calendar_feed), no watching (watch_task).
-- (the versions of 20261207000510, which know several assignees, with the visibility rule)
create or replace function public.task_events_notify() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  assigned uuid[] := '{}';
  status_changed boolean;
  comment uuid := (new.data ->> 'comment_id')::uuid;
  author uuid;
  current_assignees uuid[] := '{}';
begin
  if new.kind = 'task_created' then
    assigned := array_remove(array[(new.data ->> 'assignee')::uuid], null);
  elsif new.kind = 'task_updated' then
    -- each person the change added (several assignees); a one-assignee change as recorded before them
    assigned := array(
      select a::uuid from jsonb_array_elements_text(coalesce(new.data #> '{changes,assignees,to}', '[]')) a
      where not coalesce(new.data #> '{changes,assignees,from}', '[]') ? a
    ) || array_remove(array[(new.data #>> '{changes,assignee,to}')::uuid], null);
    status_changed := (new.data -> 'changes') ? 'status';
  elsif new.kind not in ('comment_posted', 'comment_edited') then
    return null;
  end if;
  if assigned = '{}' and coalesce(jsonb_array_length(new.data -> 'mentions'), 0) = 0
     and new.kind <> 'comment_posted' and not coalesce(status_changed, false) then
    return null;
  end if;
  -- a comment's author, when the service role wrote it (else the author is the actor)
  author := coalesce((new.data ->> 'author')::uuid, new.actor_id);
  if new.kind = 'comment_posted' or status_changed then
    select t.assignee_ids into current_assignees from public.tasks t where t.id = new.task_id;
  end if;

  insert into public.notifications (recipient_id, team_id, task_id, event_id, comment_id, actor_id, kind, email)
  select distinct on (r.person)
    r.person, new.team_id, new.task_id, new.id, comment, new.actor_id, r.kind,
    case when coalesce(s.email, public.default_email_setting(r.kind)) = 'never' then 'none' else 'pending' end
  from (
    select a as person, 'assigned' as kind, 1 as rank
    from unnest(assigned) a
    union all
    select m::uuid, 'mentioned', 2
    from jsonb_array_elements_text(coalesce(new.data -> 'mentions', '[]'::jsonb)) m
    union all
    select w.user_id, case when new.kind = 'comment_posted' then 'comment' else 'status' end, 3
    from public.task_watchers w
    where w.task_id = new.task_id and (new.kind = 'comment_posted' or status_changed)
    union all
    select a, case when new.kind = 'comment_posted' then 'comment' else 'status' end, 3
    from unnest(current_assignees) a
  ) r
  join public.team_members m on m.team_id = new.team_id and m.user_id = r.person
  left join public.notification_settings s on s.user_id = r.person and s.kind = r.kind
  where r.person is distinct from new.actor_id and r.person is distinct from author
    and private.sees_project(new.project_id, r.person)
  order by r.person, r.rank
  on conflict on constraint notifications_one_per_event do nothing;
  return null;
end;
$$;

create or replace function public.remind_due_tasks(run_at timestamptz default now()) returns integer
language sql
security definer
set search_path = ''
as $$
  with candidate as (
    -- the assignees of open tasks due in the window ...
    select t.id as task_id, t.project_id, a.person, t.due_on, t.due_on_set_by, t.due_on_set_at
    from public.tasks t
    cross join lateral unnest(t.assignee_ids) a (person)
    where t.assignee_ids <> '{}'
      and t.completed_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
    union
    -- ... and their watchers who asked for due-date emails
    select t.id, t.project_id, w.user_id, t.due_on, t.due_on_set_by, t.due_on_set_at
    from public.task_watchers w
    join public.tasks t on t.id = w.task_id
    where t.completed_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
      and public.email_setting(w.user_id, 'due_date') <> 'never'
  ), seen as (
    select c.* from candidate c where private.sees_project(c.project_id, c.person)
  ), due as (
    select c.task_id, c.project_id, c.person, c.due_on,
           case when c.due_on = l.day then 'due' else 'before' end as day
    from seen c
    join public.profiles p on p.id = c.person
    cross join lateral (select ($1 at time zone p.time_zone)::date as day,
                               ($1 at time zone p.time_zone)::time as clock) l
    where c.due_on - l.day in (0, 1)
      and l.clock >= time '08:00'
      -- not for the person's own change made after this reminder's 08:00
      and not (c.due_on_set_by is not distinct from c.person
               and c.due_on_set_at > (l.day + time '08:00') at time zone p.time_zone)
  ), made as (
    insert into public.due_reminders (task_id, recipient_id, due_on, day, created_at)
    select task_id, person, due_on, day, $1 from due
    on conflict do nothing
    returning task_id, recipient_id
  ), notified as (
    -- each new reminder in the bell, and by email unless the person turned due-date emails off
    insert into public.notifications (recipient_id, team_id, task_id, kind, email, created_at)
    select m.recipient_id, pr.team_id, m.task_id, 'due_date',
           case when public.email_setting(m.recipient_id, 'due_date') = 'never' then 'none' else 'pending' end,
           $1
    from made m
    join public.tasks t on t.id = m.task_id
    join public.projects pr on pr.id = t.project_id
    returning 1
  )
  select count(*)::integer from made
$$;

create or replace function public.calendar_feed(token text) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  feed public.calendar_feeds;
  zone text;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{59}$' then
    return null;
  end if;
  select * into feed from public.calendar_feeds f where f.selector = left(token, 16);
  if not found or not public.digests_equal(feed.token_hash, sha256(convert_to(substr(token, 17), 'UTF8'))) then
    return null;
  end if;
  select p.time_zone into zone from public.profiles p where p.id = feed.user_id;
  return jsonb_build_object(
    'time_zone', zone,
    'tasks', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', t.id, 'number', t.number, 'title', t.title, 'due_on', t.due_on, 'updated_at', t.updated_at,
        'project_key', p.key, 'team_slug', tm.slug
      ) order by t.due_on, p.key, t.number)
      from public.tasks t
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      where t.assignee_ids @> array[feed.user_id]
        and t.due_on is not null
        and t.due_on >= (now() at time zone zone)::date - 30
        and exists (select 1 from public.team_members m where m.team_id = p.team_id and m.user_id = feed.user_id)
        and private.sees_project(p.id, feed.user_id)
    ), '[]'::jsonb)
  );
end;
$$;

CREATE OR REPLACE FUNCTION public.watch_task(task_id uuid, people uuid[])
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  insert into public.task_watchers (task_id, user_id)
  select $1, p from unnest($2) as p
  where p is not null
    and private.sees_project((select t.project_id from public.tasks t where t.id = $1), p)
  on conflict do nothing
$function$
;
