-- Guests (issue 41; docs/product.md §20; docs/decisions/0041-guests.md).
--
-- A guest is in a team (team_members.role = 'guest', below viewer) but sees only
-- the projects they are a project member of (project_members, 20261207000800),
-- team-wide or private, and of the team's people only those projects' people.
-- They may comment there (and watch); nothing else is written.
--
-- As for private projects, the rule lives in the helpers:
--   private.my_team_ids()      now the teams where I am viewer or above: every
--                              policy reading "by team" (labels, projects,
--                              team_members, task_relations, and any added
--                              later) leaves guests out unless it says otherwise.
--   private.my_any_team_ids()  the teams I am in at all (the team row itself).
--   private.my_project_ids(), has_project_role(), has_task_role(), sees_project():
--                              a team-wide project needs viewer or above;
--                              a project_members row or admin+ as before.
--   private.my_guest_people()  (team, person) pairs a guest sees: their projects' people.
--   private.may_comment(task)  members and above, and guests of the project.

-- the helpers -----------------------------------------------------------------------------
create or replace function private.my_team_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  -- once per query, so it checks the two-factor rule (as my_project_ids() does);
  -- a guest's teams are not in it (20261208000160): see my_any_team_ids()
  select m.team_id from public.team_members m
  where m.user_id = auth.uid() and (select private.has_required_aal())
    and m.team_id = coalesce((select private.api_token_team()), m.team_id)
    and m.role >= 'viewer'::public.team_role
$$;

create function private.my_any_team_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.team_id from public.team_members m
  where m.user_id = auth.uid() and (select private.has_required_aal())
    and m.team_id = coalesce((select private.api_token_team()), m.team_id)
$$;

revoke all on function private.my_any_team_ids() from public;
grant execute on function private.my_any_team_ids() to authenticated;
grant execute on function private.my_any_team_ids() to service_role;

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
    and ((p.visibility = 'team' and m.role >= 'viewer'::public.team_role) or m.role >= 'admin'::public.team_role
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
      and ((p.visibility = 'team' and m.role >= 'viewer'::public.team_role) or m.role >= 'admin'::public.team_role
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
      and ((p.visibility = 'team' and m.role >= 'viewer'::public.team_role) or m.role >= 'admin'::public.team_role
           or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
  )
$$;

create or replace function private.sees_project(project_id uuid, person uuid) returns boolean
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
      and ((p.visibility = 'team' and m.role >= 'viewer'::public.team_role) or m.role >= 'admin'::public.team_role
           or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
  )
$$;

-- The people a guest sees, per team: whoever sees one of the guest's projects.
create function private.my_guest_people() returns table (team_id uuid, user_id uuid)
language sql
stable
security definer
set search_path = ''
as $$
  select distinct m.team_id, m.user_id
  from public.team_members me
  join public.project_members mine on mine.user_id = me.user_id
  join public.projects p on p.id = mine.project_id and p.team_id = me.team_id
  join public.team_members m on m.team_id = p.team_id
  where me.user_id = auth.uid() and me.role = 'guest'::public.team_role
    and (select private.has_required_aal())
    and me.team_id = coalesce((select private.api_token_team()), me.team_id)
    and ((p.visibility = 'team' and m.role >= 'viewer'::public.team_role) or m.role >= 'admin'::public.team_role
         or exists (select 1 from public.project_members pm where pm.project_id = p.id and pm.user_id = m.user_id))
$$;

revoke all on function private.my_guest_people() from public;
grant execute on function private.my_guest_people() to authenticated;
grant execute on function private.my_guest_people() to service_role;

create or replace function private.my_teammate_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select theirs.user_id
  from public.team_members mine
  join public.team_members theirs on theirs.team_id = mine.team_id
  where mine.user_id = auth.uid() and (select private.has_required_aal())
    and mine.team_id = coalesce((select private.api_token_team()), mine.team_id)
    and mine.role >= 'viewer'::public.team_role
  union
  select g.user_id from private.my_guest_people() g
$$;

-- members and above where they may write, and a guest in a project they are in
create function private.may_comment(task_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.has_task_role($1, 'member', true)
    or exists (
      select 1
      from public.tasks t
      join public.projects p on p.id = t.project_id
      join public.team_members m on m.team_id = p.team_id
      join public.project_members pm on pm.project_id = p.id and pm.user_id = m.user_id
      where t.id = $1 and m.user_id = auth.uid() and m.role = 'guest'::public.team_role
        and p.archived_at is null
        and m.team_id = coalesce(private.api_token_team(), m.team_id)
    )
$$;

revoke all on function private.may_comment(uuid) from public;
grant execute on function private.may_comment(uuid) to authenticated;
grant execute on function private.may_comment(uuid) to service_role;

-- policies --------------------------------------------------------------------------------
drop policy "members see their teams" on public.teams;
create policy "members and guests see their teams" on public.teams
for select to authenticated
using (id in (select private.my_any_team_ids()));

drop policy "members see who is in their teams" on public.team_members;
create policy "members see who is in their teams, guests their projects' people" on public.team_members
for select to authenticated
using (
  team_id in (select private.my_team_ids())
  or (user_id = (select auth.uid()) and team_id in (select private.my_any_team_ids()))
  or (team_id, user_id) in (select g.team_id, g.user_id from private.my_guest_people() g)
);

-- a guest sees the labels on the tasks they see, not the team's list
drop policy "members see their teams' labels" on public.labels;
create policy "members see their teams' labels, guests those on their tasks" on public.labels
for select to authenticated
using (
  team_id in (select private.my_team_ids())
  or (team_id in (select private.my_any_team_ids()) and id in (select tl.label_id from public.task_labels tl))
);

drop policy "members see relations between tasks they see" on public.task_relations;
create policy "members see relations between tasks they see" on public.task_relations
for select to authenticated
using (
  team_id in (select private.my_any_team_ids())
  and from_task_id in (select t.id from public.tasks t)
  and to_task_id in (select t.id from public.tasks t)
);

drop policy "members comment as themselves" on public.comments;
create policy "members and guests comment as themselves" on public.comments
for insert to authenticated
with check (author_id = (select auth.uid()) and private.may_comment(task_id));

drop policy "authors edit their comments" on public.comments;
create policy "authors edit their comments" on public.comments
for update to authenticated
using (author_id = (select auth.uid()) and private.may_comment(task_id))
with check (author_id = (select auth.uid()) and private.may_comment(task_id));

drop policy "authors and admins delete comments" on public.comments;
create policy "authors and admins delete comments" on public.comments
for delete to authenticated
using (
  private.may_comment(task_id)
  and (author_id = (select auth.uid()) or private.has_task_role(task_id, 'admin', true))
);

drop policy "people watch tasks they can read" on public.task_watchers;
create policy "people watch tasks they can read" on public.task_watchers
for insert to authenticated
with check (user_id = (select auth.uid()) and private.has_task_role(task_id, 'guest'));

-- invitations name the projects a newcomer is added to ------------------------------------
alter table public.invitations
  add column project_ids uuid[] not null default '{}',
  add constraint invitations_project_ids_count check (cardinality(project_ids) <= 100);

grant insert (project_ids) on table public.invitations to authenticated;

comment on column public.invitations.project_ids is
  'Projects the person is added to (project_members) on accepting; a guest sees only these.';

create or replace function public.accept_invitation(token text)
returns public.teams
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  invitation public.invitations;
  team public.teams;
begin
  perform private.require_aal();
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  select * into invitation
  from public.invitations i
  where i.token_hash = encode(extensions.digest(coalesce($1, ''), 'sha256'), 'hex')
  for update;
  if not found then
    raise exception 'This invitation link is not valid.' using errcode = 'PT404';
  end if;
  if invitation.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = 'P0001';
  end if;
  if invitation.revoked_at is not null then
    raise exception 'This invitation was withdrawn.' using errcode = 'P0001';
  end if;
  if invitation.expires_at <= now() then
    raise exception 'This invitation has expired. Ask for a new one.' using errcode = 'P0001';
  end if;
  perform public.require_invited_address(invitation.email);

  insert into public.team_members (team_id, user_id, role)
  values (invitation.team_id, me, invitation.role)
  on conflict on constraint team_members_pkey do nothing;
  -- the projects chosen on the invitation (those still in the team)
  insert into public.project_members (project_id, user_id, added_by)
  select p.id, me, invitation.invited_by
  from public.projects p
  where p.id = any(invitation.project_ids) and p.team_id = invitation.team_id
  on conflict do nothing;
  update public.invitations i set accepted_at = now() where i.id = invitation.id;
  select * into team from public.teams t where t.id = invitation.team_id;
  return team;
end;
$$;

-- turning someone into a guest: what they no longer see is forgotten ----------------------
create function private.team_members_after_guest() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  pid uuid;
begin
  for pid in select p.id from public.projects p where p.team_id = new.team_id loop
    perform private.forget_unseen_project(pid, new.user_id);
  end loop;
  return null;
end;
$$;

revoke execute on function private.team_members_after_guest() from public, anon, authenticated;

create trigger team_members_after_guest
after update of role on public.team_members
for each row when (new.role = 'guest'::public.team_role and old.role <> 'guest'::public.team_role)
execute function private.team_members_after_guest();

-- restated (20261207000800): a guest taken off a team-wide project loses sight of it too, so
-- what is forgotten no longer depends on the project being private (forget_unseen_project
-- keeps whatever the person still sees).
create or replace function private.project_members_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.forget_unseen_project(old.project_id, old.user_id);
  return null;
end;
$$;
