-- Teams, their members and invitations, and the role helpers every policy uses.

-- Roles in declaration order, so `role >= 'admin'` means "admin or owner".
create type public.team_role as enum ('viewer', 'member', 'admin', 'owner');

-- teams -----------------------------------------------------------------------------
create table public.teams (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  slug text not null,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint teams_slug_key unique (slug),
  constraint teams_name_length check (btrim(name) <> '' and char_length(name) <= 60),
  constraint teams_slug_format check (slug ~ '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$'),
  constraint teams_slug_not_reserved check (slug <> 'new')
);

-- team_members ------------------------------------------------------------------------
create table public.team_members (
  team_id uuid not null references public.teams (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role public.team_role not null default 'member',
  joined_at timestamptz not null default now(),
  primary key (team_id, user_id)
);

-- At most one owner per team here; "at least one" is the deferred trigger below.
create unique index team_members_one_owner on public.team_members (team_id) where role = 'owner';
create index team_members_user_id_idx on public.team_members (user_id);

-- invitations -------------------------------------------------------------------------
create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  email extensions.citext not null,
  role public.team_role not null default 'member',
  token_hash text not null,
  invited_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  revoked_at timestamptz,
  constraint invitations_token_hash_key unique (token_hash),
  constraint invitations_token_hash_format check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint invitations_role_not_owner check (role <> 'owner'),
  constraint invitations_email_format check (
    char_length(email) <= 254 and email::text ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'
  ),
  constraint invitations_accepted_or_revoked check (accepted_at is null or revoked_at is null)
);

create index invitations_team_id_idx on public.invitations (team_id, created_at desc);
create index invitations_email_idx on public.invitations (lower(email::text)) where accepted_at is null and revoked_at is null;
create index invitations_invited_by_idx on public.invitations (invited_by);

-- Role helpers (used by the policies; security definer so they read
-- team_members without recursing into its own policies) -------------------------
create function public.is_member(team_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.team_members m
    where m.team_id = $1 and m.user_id = auth.uid()
  )
$$;

create function public.has_role(team_id uuid, min_role text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.team_members m
    where m.team_id = $1 and m.user_id = auth.uid() and m.role >= $2::public.team_role
  )
$$;

create function public.shares_team_with(user_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.team_members mine
    join public.team_members theirs on theirs.team_id = mine.team_id
    where mine.user_id = auth.uid() and theirs.user_id = $1
  )
$$;

revoke execute on function public.is_member(uuid), public.has_role(uuid, text), public.shares_team_with(uuid) from public, anon;
grant execute on function public.is_member(uuid), public.has_role(uuid, text), public.shares_team_with(uuid) to authenticated, service_role;

-- Exactly one owner per team, checked when the transaction commits (so a
-- transfer may pass through zero owners, and a team and its owner row may be
-- written one after the other). A deleted team needs no owner.
create function public.check_team_has_one_owner() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  team uuid;
  owners int;
begin
  if tg_table_name = 'teams' then
    team := new.id;
  elsif tg_op = 'DELETE' then
    team := old.team_id;
  else
    team := new.team_id;
  end if;
  if exists (select 1 from public.teams t where t.id = team) then
    select count(*) into owners from public.team_members m where m.team_id = team and m.role = 'owner';
    if owners <> 1 then
      raise exception 'A team must have exactly one owner. Transfer ownership instead.'
        using errcode = '23514', hint = 'The owner cannot leave or be removed; an owner who deletes their account must first transfer ownership or delete the team.';
    end if;
  end if;
  -- a membership moved to another team (only possible bypassing the API) leaves the old one to check too
  if tg_op = 'UPDATE' and tg_table_name = 'team_members' then
    if old.team_id <> new.team_id
       and exists (select 1 from public.teams t where t.id = old.team_id)
       and not exists (select 1 from public.team_members m where m.team_id = old.team_id and m.role = 'owner') then
      raise exception 'A team must have exactly one owner. Transfer ownership instead.' using errcode = '23514';
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function public.check_team_has_one_owner() from public, anon, authenticated;

create constraint trigger team_members_one_owner_check
after insert or update or delete on public.team_members
deferrable initially deferred
for each row execute function public.check_team_has_one_owner();

create constraint trigger teams_have_owner_check
after insert on public.teams
deferrable initially deferred
for each row execute function public.check_team_has_one_owner();

-- Row-level security ------------------------------------------------------------------
alter table public.teams enable row level security;
alter table public.team_members enable row level security;
alter table public.invitations enable row level security;

revoke all on table public.teams, public.team_members, public.invitations from anon, authenticated;

-- teams: created only through create_team(); renamed by admins; deleted by the owner
grant select, delete on table public.teams to authenticated;
grant update (name) on table public.teams to authenticated;

create policy "members see their teams"
on public.teams for select
to authenticated
using (public.is_member(id));

create policy "admins rename the team"
on public.teams for update
to authenticated
using (public.has_role(id, 'admin'))
with check (public.has_role(id, 'admin'));

create policy "the owner deletes the team"
on public.teams for delete
to authenticated
using (public.has_role(id, 'owner'));

-- team_members: rows are added by create_team() and accept_invitation(); the
-- owner row changes only through transfer_ownership()
grant select, delete on table public.team_members to authenticated;
grant update (role) on table public.team_members to authenticated;

create policy "members see who is in their teams"
on public.team_members for select
to authenticated
using (public.is_member(team_id));

create policy "admins change roles up to admin, never the owner's"
on public.team_members for update
to authenticated
using (public.has_role(team_id, 'admin') and role <> 'owner')
with check (public.has_role(team_id, 'admin') and role <> 'owner');

create policy "admins remove members; anyone leaves; the owner stays"
on public.team_members for delete
to authenticated
using (role <> 'owner' and (user_id = (select auth.uid()) or public.has_role(team_id, 'admin')));

-- invitations: admins manage their team's; people see the pending ones sent to
-- their own address (the /teams page lists them)
grant select on table public.invitations to authenticated;
grant insert (team_id, email, role, token_hash) on table public.invitations to authenticated;
grant update (revoked_at) on table public.invitations to authenticated;

create policy "admins and the invited person see invitations"
on public.invitations for select
to authenticated
using (
  public.has_role(team_id, 'admin')
  or (
    accepted_at is null and revoked_at is null and expires_at > now()
    and lower(email::text) = lower(coalesce((select auth.jwt()) ->> 'email', ''))
  )
);

create policy "admins invite to their team"
on public.invitations for insert
to authenticated
with check (public.has_role(team_id, 'admin') and invited_by = (select auth.uid()));

create policy "admins revoke pending invitations"
on public.invitations for update
to authenticated
using (public.has_role(team_id, 'admin') and accepted_at is null)
with check (public.has_role(team_id, 'admin'));

-- profiles are visible to their person and to people sharing a team
create policy "people see themselves and their teammates"
on public.profiles for select
to authenticated
using (id = (select auth.uid()) or public.shares_team_with(id));
