-- Personal API tokens (PRODUCT.md §19; docs/decisions/0036-api-tokens-and-webhooks.md).
--
-- A token `tb_…` is shown once; only its SHA-256 is kept. A script trades it
-- at the Edge Function `api-token` for an access token of 60 seconds
-- (api_token_exchange() below, service role only), signed with a key the
-- project trusts (on hosted: an imported standby signing key). That access
-- token is an ordinary `authenticated` JWT of the person with three claims
-- more: tb_token (the token's id), tb_team (its team, absent for "all my
-- teams") and tb_mode ('read' or 'write'); its session_id is the token's id,
-- which is no Auth session, so Auth's own endpoints (/auth/v1/user…) refuse it.
--
-- The database then keeps the token to what it may do, on every request:
--   api_token_check()   PostgREST's db-pre-request: a revoked or expired token
--                       gets 401 at once; a read-only one gets 403 for any
--                       write (a table, or a volatile function), and its
--                       transaction is made read only besides; no token may
--                       manage tokens, recovery codes or the calendar feed.
--   the role helpers    (is_member, has_role, …, my_team_ids) answer no for a
--                       team other than the token's, so every policy and
--                       every security definer RPC built on them narrows too.
--   restrictive policies where a row names the team itself (notifications),
--                       and read-only on Storage and Realtime (no PostgREST there).

-- The person's security log (/account/security) -----------------------------------------
create table public.security_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null,
  detail text not null default '',
  created_at timestamptz not null default now(),
  constraint security_events_kind check (kind in ('api_token_created', 'api_token_used', 'api_token_revoked'))
);
create index security_events_user_idx on public.security_events (user_id, created_at desc);

alter table public.security_events enable row level security;
revoke all on table public.security_events from anon, authenticated;
grant select on table public.security_events to authenticated;

create policy "two-factor accounts need aal2" on public.security_events
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));
create policy "people see their own security log"
  on public.security_events for select to authenticated
  using (user_id = (select auth.uid()));

-- Tokens --------------------------------------------------------------------------------
create table public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null,
  -- null: all the person's teams
  team_id uuid references public.teams (id) on delete cascade,
  mode text not null,
  token_hash text not null,
  -- the first characters, so a person can tell their tokens apart ("tb_3kf9…")
  prefix text not null,
  -- aal2 when made with the second factor: the token then reaches what an aal2 session does
  aal text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  constraint api_tokens_hash_key unique (token_hash),
  constraint api_tokens_name_length check (char_length(btrim(name)) between 1 and 100),
  constraint api_tokens_mode check (mode in ('read', 'write')),
  constraint api_tokens_aal check (aal in ('aal1', 'aal2')),
  constraint api_tokens_hash_form check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint api_tokens_expiry check (expires_at > created_at and expires_at <= created_at + interval '1 year')
);
create index api_tokens_user_idx on public.api_tokens (user_id, created_at desc);
create index api_tokens_team_idx on public.api_tokens (team_id);

alter table public.api_tokens enable row level security;
revoke all on table public.api_tokens from anon, authenticated;
-- never the hash
grant select (id, user_id, name, team_id, mode, prefix, aal, created_at, expires_at, last_used_at, revoked_at)
  on table public.api_tokens to authenticated;

create policy "two-factor accounts need aal2" on public.api_tokens
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));
create policy "people see their own tokens"
  on public.api_tokens for select to authenticated
  using (user_id = (select auth.uid()));

-- The token's claims, for policies: its team (null when none, or no token) and whether it may write.
create function private.api_token_team() returns uuid
language sql
stable
set search_path = ''
as $$
  select nullif(auth.jwt() ->> 'tb_team', '')::uuid
$$;

create function private.api_token_may_write() returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'tb_mode', 'write') = 'write'
$$;

revoke execute on function private.api_token_team(), private.api_token_may_write() from public;
grant execute on function private.api_token_team(), private.api_token_may_write() to anon, authenticated, service_role;

-- Making and revoking (the app asks for the password, and the code when enrolled, first) --
create function public.create_api_token(
  name text, team_id uuid, mode text, days integer, token_hash text, prefix text
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  made uuid;
begin
  perform private.require_aal();
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  if auth.jwt() ->> 'tb_token' is not null then
    raise exception 'An API token can''t make tokens.' using errcode = '42501';
  end if;
  if $3 not in ('read', 'write') then
    raise exception 'Choose read-only or read and write.' using errcode = '22023', detail = 'api_tokens_mode';
  end if;
  if $4 is null or $4 < 1 or $4 > 365 then
    raise exception 'A token lasts at most a year.' using errcode = '22023', detail = 'api_tokens_expiry';
  end if;
  if $2 is not null and not private.is_member($2) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  insert into public.api_tokens (user_id, name, team_id, mode, token_hash, prefix, aal, expires_at)
  values (
    me, btrim($1), $2, $3, $5, $6,
    case when auth.jwt() ->> 'aal' = 'aal2' then 'aal2' else 'aal1' end,
    now() + make_interval(days => $4)
  )
  returning id into made;
  insert into public.security_events (user_id, kind, detail)
  select me, 'api_token_created',
         format('“%s” (%s, %s, until %s)', btrim($1),
                coalesce((select t.name from public.teams t where t.id = $2), 'all teams'),
                case $3 when 'read' then 'read-only' else 'read and write' end,
                to_char((now() + make_interval(days => $4)) at time zone 'UTC', 'YYYY-MM-DD'));
  return made;
end;
$$;

create function public.revoke_api_token(token_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  revoked public.api_tokens;
begin
  perform private.require_aal();
  if auth.jwt() ->> 'tb_token' is not null then
    raise exception 'An API token can''t revoke tokens.' using errcode = '42501';
  end if;
  update public.api_tokens t set revoked_at = now()
  where t.id = $1 and t.user_id = auth.uid() and t.revoked_at is null
  returning * into revoked;
  if revoked.id is null then
    if exists (select 1 from public.api_tokens t where t.id = $1 and t.user_id = auth.uid()) then
      return; -- revoked already
    end if;
    raise exception 'Token not found.' using errcode = 'PT404';
  end if;
  insert into public.security_events (user_id, kind, detail)
  values (revoked.user_id, 'api_token_revoked', format('“%s”', revoked.name));
end;
$$;

revoke execute on function public.create_api_token(text, uuid, text, integer, text, text),
  public.revoke_api_token(uuid) from public, anon;
grant execute on function public.create_api_token(text, uuid, text, integer, text, text),
  public.revoke_api_token(uuid) to authenticated;

-- The exchange (the api-token function, with the service role) ----------------------------
-- A live token's person and limits, or null. Its use goes to the security log
-- at most once an hour (a script trades its token about once a minute).
create function public.api_token_exchange(token_hash text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.api_tokens;
  u auth.users;
begin
  select * into t from public.api_tokens a where a.token_hash = $1;
  if t.id is null or t.revoked_at is not null or t.expires_at <= now() then
    return null;
  end if;
  select * into u from auth.users x where x.id = t.user_id;
  if u.id is null or u.deleted_at is not null or coalesce(u.banned_until > now(), false) then
    return null;
  end if;
  if t.last_used_at is null or t.last_used_at < now() - interval '1 hour' then
    insert into public.security_events (user_id, kind, detail)
    values (t.user_id, 'api_token_used', format('“%s”', t.name));
  end if;
  update public.api_tokens a set last_used_at = now() where a.id = t.id;
  return jsonb_build_object(
    'token_id', t.id,
    'user_id', t.user_id,
    'email', u.email,
    'team_id', t.team_id,
    'mode', t.mode,
    'aal', t.aal,
    'app_metadata', coalesce(u.raw_app_meta_data, '{}'::jsonb),
    'expires_at', t.expires_at
  );
end;
$$;

revoke execute on function public.api_token_exchange(text) from public, anon, authenticated;
grant execute on function public.api_token_exchange(text) to service_role;

-- PostgREST's db-pre-request ---------------------------------------------------------------
-- Runs first in every API request's transaction, as the request's role; costs
-- nothing but a claim lookup without a token, one primary-key probe with one.
create function private.api_token_check() returns void
language plpgsql
set search_path = ''
as $$
declare
  claims jsonb := coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb;
  found_id uuid;
  token_mode text;
  expires timestamptz;
  revoked timestamptz;
  method text;
  path text;
  fn text;
begin
  if claims ->> 'tb_token' is null then
    return;
  end if;
  -- as the person: their own row (the aal2 rule applies: a token made before a second factor was added is refused)
  select a.id, a.mode, a.expires_at, a.revoked_at into found_id, token_mode, expires, revoked
  from public.api_tokens a where a.id = (claims ->> 'tb_token')::uuid;
  if found_id is null or revoked is not null or expires <= now() then
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'PGRST303', 'message', 'This API token was revoked or has expired.',
                                  'details', null, 'hint', 'Make a new one at /account/tokens.')::text,
      detail = json_build_object('status', 401,
                                 'headers', json_build_object('WWW-Authenticate', 'Bearer error="invalid_token"'))::text;
  end if;
  method := coalesce(current_setting('request.method', true), '');
  path := coalesce(current_setting('request.path', true), '');
  fn := case when path like '/rpc/%' then substr(path, 6) end;
  -- the account's own keys stay with the app
  if path in ('/api_tokens', '/security_events', '/mfa_recovery_codes', '/calendar_feeds')
     or fn in ('create_api_token', 'revoke_api_token', 'new_recovery_codes', 'redeem_recovery_code',
               'reset_calendar_feed') then
    raise sqlstate 'PGRST' using
      message = json_build_object('code', '42501', 'message', 'An API token can''t do that: use the app.',
                                  'details', null, 'hint', null)::text,
      detail = json_build_object('status', 403, 'headers', json_build_object())::text;
  end if;
  if token_mode = 'read' then
    if method not in ('GET', 'HEAD') and (
      fn is null
      or exists (
        select 1 from pg_catalog.pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.proname = fn and p.provolatile = 'v'
      )
    ) then
      raise sqlstate 'PGRST' using
        message = json_build_object('code', '42501', 'message', 'This API token is read-only.',
                                    'details', null, 'hint', null)::text,
        detail = json_build_object('status', 403, 'headers', json_build_object())::text;
    end if;
    perform pg_catalog.set_config('transaction_read_only', 'on', true);
  end if;
end;
$$;

revoke execute on function private.api_token_check() from public;
grant execute on function private.api_token_check() to anon, authenticated, service_role;

alter role authenticator set pgrst.db_pre_request = 'private.api_token_check';
notify pgrst, 'reload config';

-- Storage and Realtime have no pre-request: a read-only token writes nothing there.
create policy "read-only API tokens don't write" on storage.objects
  as restrictive for insert to authenticated
  with check ((select private.api_token_may_write()));
create policy "read-only API tokens don't change" on storage.objects
  as restrictive for update to authenticated
  using ((select private.api_token_may_write())) with check ((select private.api_token_may_write()));
create policy "read-only API tokens don't remove" on storage.objects
  as restrictive for delete to authenticated
  using ((select private.api_token_may_write()));

-- A row naming its team: a token for one team sees that team's only.
create policy "API tokens see their own team's" on public.notifications
  as restrictive for all to authenticated
  using ((select private.api_token_team()) is null or team_id = (select private.api_token_team()))
  with check ((select private.api_token_team()) is null or team_id = (select private.api_token_team()));

-- The role helpers, restated with one condition more: a token's team only ---------------
-- (bodies otherwise as in 20251122000002_teams.sql, 20251122000003_projects_tasks.sql,
-- 20261126000100_aal2_everywhere.sql, 20261126000310_team_labels.sql)
create or replace function private.is_member(team_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.team_members m
    where m.team_id = $1 and m.user_id = auth.uid()
      and m.team_id = coalesce(private.api_token_team(), m.team_id)
  )
$$;

create or replace function private.has_role(team_id uuid, min_role text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.team_members m
    where m.team_id = $1 and m.user_id = auth.uid() and m.role >= $2::public.team_role
      and m.team_id = coalesce(private.api_token_team(), m.team_id)
  )
$$;

create or replace function private.shares_team_with(user_id uuid) returns boolean
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
      and mine.team_id = coalesce(private.api_token_team(), mine.team_id)
  )
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
  )
$$;

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
$$;

create or replace function private.my_team_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  -- once per query, so it checks the two-factor rule (as my_project_ids() does)
  select m.team_id from public.team_members m
  where m.user_id = auth.uid() and (select private.has_required_aal())
    and m.team_id = coalesce((select private.api_token_team()), m.team_id)
$$;

-- The two list helpers issue 37 added follow the token's team as the others do.
create or replace function private.my_admin_team_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.team_id from public.team_members m
  where m.user_id = auth.uid() and m.role >= 'admin'::public.team_role and (select private.has_required_aal())
    and m.team_id = coalesce((select private.api_token_team()), m.team_id)
$$;

create or replace function private.my_teammate_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select distinct theirs.user_id
  from public.team_members mine
  join public.team_members theirs on theirs.team_id = mine.team_id
  where mine.user_id = auth.uid() and (select private.has_required_aal())
    and mine.team_id = coalesce((select private.api_token_team()), mine.team_id)
$$;
