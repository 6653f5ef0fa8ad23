-- Two-factor at the API (docs/decisions/0020-two-factor-sign-in.md, issue 22 H3).
--
-- A session of an account with a verified authenticator app reaches nothing
-- until it has stepped up to aal2; an account without one keeps working at
-- aal1. The app's pages already ask for the code; this makes the database
-- say the same to anyone holding only the password's token (REST, RPC,
-- Storage, Realtime, and the Edge Functions, which read as their caller).
--
--   has_required_aal()   the one rule, used by every restrictive policy below
--                        and by every security definer function of ours
--   require_aal()        raises 42501 (403) when it doesn't hold
--
-- Supabase's recommended policy for "enforce only for users that have opted
-- in" looks the account's verified factors up in auth.mfa_factors. Ours
-- reads the token first: aal2 passes at once, and a token whose
-- app_metadata.mfa_enrolled is true (kept by the trigger of
-- 20251125000700) is refused at once; only an aal1 token that says "not
-- enrolled" looks the factors up (one index probe), so a token issued just
-- before its account's first factor was verified is refused too. Every
-- policy calls it as `(select public.has_required_aal())`: an initplan, run
-- once per statement, not once per row.

create function public.has_required_aal() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(claims.jwt ->> 'aal' = 'aal2', false)
      or (
        coalesce(claims.jwt -> 'app_metadata' ->> 'mfa_enrolled', '') <> 'true'
        and not exists (
          select 1 from auth.mfa_factors f
          where f.user_id = (claims.jwt ->> 'sub')::uuid and f.status = 'verified'
        )
      )
  from (select auth.jwt() as jwt) as claims
$$;

create function public.require_aal() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.has_required_aal() then
    raise exception 'This account uses two-factor sign-in: enter a code from the authenticator app first.'
      using errcode = '42501', hint = 'The session must be at aal2 (verify a factor: POST /auth/v1/factors/{id}/verify).';
  end if;
end;
$$;

revoke execute on function public.has_required_aal(), public.require_aal() from public, anon;
grant execute on function public.has_required_aal(), public.require_aal() to authenticated, service_role;

-- Restrictive policies: ANDed with every permissive policy of the table, for
-- every command, so no policy written before or after can forget it.
create policy "two-factor accounts need aal2" on public.profiles
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.teams
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.team_members
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.invitations
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.projects
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.tasks
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.comments
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.attachments
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
-- no grants to authenticated today; the policy keeps it so if one is added
create policy "two-factor accounts need aal2" on public.storage_cleanup
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
-- Storage: uploads, downloads, signed URLs, lists, moves and removals
create policy "two-factor accounts need aal2" on storage.objects
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
-- Realtime: joining a private channel (presence on a task) reads and writes here
create policy "two-factor accounts need aal2" on realtime.messages
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

-- Security definer functions bypass row-level security, so each RPC below
-- checks the rule itself. The per-row role helpers the policies call
-- (is_member, has_role, shares_team_with, has_project_role, has_task_role)
-- don't: they answer yes or no about the caller's own role for an id the
-- caller passes, and every row they guard is already refused by the
-- restrictive policies. Checking in them too would run the rule once per
-- row (the task panel's 200 comments: 55 -> 79 ms in PGlite). my_project_ids()
-- returns ids and runs once per query, so it checks.
create or replace function public.my_project_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id
  from public.projects p
  join public.team_members m on m.team_id = p.team_id
  where m.user_id = auth.uid() and (select public.has_required_aal())
$$;

-- The RPCs that run as their owner: the same bodies as before
-- (20251122000005_rpc.sql, 20251123000100_invitation_flow.sql), each first
-- asking require_aal(), so a password-only token gets 403 and a reason.
-- invitation_preview() is left open on purpose: anon may call it with the
-- link, and it shows only what the link's holder may see. accept_invitation()
-- and decline_invitation() get the check in …_invitations_final.sql, which
-- restates them anyway (the invited address).
create or replace function public.create_team(name text, slug text) returns public.teams
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  clean_name text := btrim(coalesce($1, ''));
  clean_slug text := btrim(coalesce($2, ''));
  team public.teams;
begin
  perform public.require_aal();
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  if clean_name = '' or char_length(clean_name) > 60 then
    raise exception 'A team name is 1–60 characters.' using errcode = '22023';
  end if;
  if clean_slug !~ '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$' then
    raise exception 'A slug is 3–40 characters of a–z, 0–9 and "-", not starting or ending with "-".'
      using errcode = '22023';
  end if;
  if clean_slug = 'new' then
    raise exception 'That slug is reserved.' using errcode = '22023';
  end if;

  begin
    insert into public.teams (name, slug, created_by)
    values (clean_name, clean_slug, me)
    returning * into team;
  exception when unique_violation then
    raise exception 'That slug is taken.' using errcode = '23505';
  end;
  insert into public.team_members (team_id, user_id, role) values (team.id, me, 'owner');
  return team;
end;
$$;

create or replace function public.move_task(task_id uuid, status text, "position" integer default null)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid;
  task public.tasks;
  target public.task_status;
  others integer;
  place integer;
begin
  perform public.require_aal();
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
    raise exception 'This project is archived; its tasks are read-only.' using errcode = 'P0001';
  end if;

  if $2 is null or not ($2 = any (enum_range(null::public.task_status)::text[])) then
    raise exception 'Unknown status "%". Use backlog, todo, in_progress, done or canceled.', $2
      using errcode = '22023';
  end if;
  target := $2::public.task_status;
  if $3 is not null and $3 < 0 then
    raise exception 'A position is 0 or more.' using errcode = '22023';
  end if;

  if not (
    target = task.status
    or (task.status, target) in (
      ('backlog'::public.task_status, 'todo'::public.task_status),
      ('todo', 'in_progress'),
      ('in_progress', 'done')
    )
    or (target = 'canceled' and task.status in ('backlog', 'todo', 'in_progress'))
    or (target = 'todo' and task.status in ('done', 'canceled'))
  ) then
    raise exception 'A task can''t move from % to %.', task.status, target
      using errcode = 'P0001',
            hint = 'backlog → todo → in_progress → done; open tasks can be canceled; done or canceled tasks reopen to todo.';
  end if;

  -- take it out of its column, then make room at its new place
  update public.tasks t
  set position = t.position - 1
  where t.project_id = project and t.status = task.status and t.position > task.position;

  select count(*) into others
  from public.tasks t
  where t.project_id = project and t.status = target and t.id <> task.id;
  place := least(coalesce($3, others), others);

  update public.tasks t
  set position = t.position + 1
  where t.project_id = project and t.status = target and t.id <> task.id and t.position >= place;

  update public.tasks t
  set status = target, position = place
  where t.id = task.id
  returning * into task;
  return task;
end;
$$;

create or replace function public.transfer_ownership(team_id uuid, new_owner_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  perform public.require_aal();
  if me is null or not public.is_member($1) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  if not public.has_role($1, 'owner') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  if $2 is null or $2 = me then
    raise exception 'Choose another member of the team as the new owner.' using errcode = '22023';
  end if;
  perform 1 from public.team_members m where m.team_id = $1 and m.user_id = $2 for update;
  if not found then
    raise exception 'The new owner must already be a member of the team.' using errcode = '22023';
  end if;
  update public.team_members m set role = 'admin' where m.team_id = $1 and m.user_id = me;
  update public.team_members m set role = 'owner' where m.team_id = $1 and m.user_id = $2;
end;
$$;

create or replace function public.leave_team(team_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  perform public.require_aal();
  if me is null or not public.is_member($1) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  if public.has_role($1, 'owner') then
    raise exception 'The owner can''t leave the team. Transfer ownership first.' using errcode = 'P0001';
  end if;
  delete from public.team_members m where m.team_id = $1 and m.user_id = me;
end;
$$;

create or replace function public.team_has_member_email(team_id uuid, email text) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform public.require_aal();
  if not public.has_role($1, 'admin') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  return exists (
    select 1
    from public.team_members m
    join auth.users u on u.id = m.user_id
    where m.team_id = $1 and lower(u.email) = lower(btrim(coalesce($2, '')))
  );
end;
$$;

-- my_invitations (20251123000101): plpgsql now, so it can refuse instead of
-- answering an empty list.
create or replace function public.my_invitations()
returns table (
  id uuid,
  team_name text,
  inviter_name text,
  role public.team_role,
  created_at timestamptz,
  expires_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform public.require_aal();
  return query
  select i.id, t.name, p.display_name, i.role, i.created_at, i.expires_at
  from public.invitations i
  join public.teams t on t.id = i.team_id
  left join public.profiles p on p.id = i.invited_by
  where i.accepted_at is null and i.revoked_at is null and i.expires_at > now()
    and lower(i.email::text) = lower(coalesce((select auth.jwt()) ->> 'email', ''))
    and auth.uid() is not null
  order by i.created_at desc
  limit 20;
end;
$$;
