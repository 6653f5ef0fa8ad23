-- Calendars and the calendar feed (PRODUCT.md §12; docs/decisions/0029-time.md).

-- A month of a project, or of my assigned tasks, is read by due date.
create index tasks_project_due_idx on public.tasks (project_id, due_on) where due_on is not null;
-- My assigned tasks are read through tasks_assignee_due_idx (assignee_id, due_on), which My work's
-- migration (20261126000603_task_list.sql) makes; one index serves both.

-- calendar_feeds -----------------------------------------------------------------------------
-- One secret address per person, /calendar/<token>.ics, that any calendar app
-- can subscribe to without signing in. The token is a selector (16
-- characters, 96 random bits: which feed, looked up through an index) and a
-- verifier (43 characters, 256 random bits: the secret). Only the verifier's
-- SHA-256 is stored, and it is compared in constant time. "Reset the
-- address" replaces both, so the old address answers 404.
create table public.calendar_feeds (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  selector text not null,
  token_hash bytea not null,
  created_at timestamptz not null default now(),
  constraint calendar_feeds_selector_key unique (selector),
  constraint calendar_feeds_selector_format check (selector ~ '^[A-Za-z0-9_-]{16}$'),
  constraint calendar_feeds_token_hash_length check (octet_length(token_hash) = 32)
);

comment on table public.calendar_feeds is
  'A person''s secret calendar address (its verifier stored as SHA-256 only). Made and reset by reset_calendar_feed(); read by calendar_feed(token).';

alter table public.calendar_feeds enable row level security;
revoke all on table public.calendar_feeds from anon, authenticated;
-- a person sees whether they have a feed and since when (never the hash), and may turn it off
grant select (user_id, created_at), delete on table public.calendar_feeds to authenticated;

create policy "people see their own calendar feed"
on public.calendar_feeds for select
to authenticated
using (user_id = (select auth.uid()));

create policy "people turn their own calendar feed off"
on public.calendar_feeds for delete
to authenticated
using (user_id = (select auth.uid()));

-- two-factor at the API (20261126000100_aal2_everywhere.sql): ANDed with the above
create policy "two-factor accounts need aal2" on public.calendar_feeds
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

-- random bytes as URL-safe text without padding (RFC 4648 §5)
create function public.base64url(bytes bytea) returns text
language sql
immutable
set search_path = ''
as $$ select rtrim(translate(encode($1, 'base64'), E'+/\n', '-_'), '=') $$;

revoke execute on function public.base64url(bytea) from public, anon, authenticated;

-- A new address for the caller (the first, or one replacing the old): the
-- token, shown to them once; the database keeps only the verifier's hash.
create function public.reset_calendar_feed() returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  selector text := public.base64url(extensions.gen_random_bytes(12));
  verifier text := public.base64url(extensions.gen_random_bytes(32));
begin
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  perform public.require_aal();
  insert into public.calendar_feeds as f (user_id, selector, token_hash)
  values (me, selector, sha256(convert_to(verifier, 'UTF8')))
  on conflict (user_id) do update
    set selector = excluded.selector, token_hash = excluded.token_hash, created_at = now();
  return selector || verifier;
end;
$$;

revoke execute on function public.reset_calendar_feed() from public, anon;
grant execute on function public.reset_calendar_feed() to authenticated;

-- Whether two SHA-256 digests are equal, looking at every bit of both
-- whatever they hold (XOR, then count the ones): the time does not tell how
-- many leading bytes of a guess were right.
create function public.digests_equal(a bytea, b bytea) returns boolean
language sql
immutable
set search_path = ''
as $$
  select octet_length(a) = 32 and octet_length(b) = 32
     and bit_count(('x' || encode(a, 'hex'))::bit(256) # ('x' || encode(b, 'hex'))::bit(256)) = 0
$$;

revoke execute on function public.digests_equal(bytea, bytea) from public, anon, authenticated;

-- The feed behind a token, for anyone holding it (the app server asks with
-- the anon key, no session): the owner's tasks with a due date from 30 days
-- ago (in the owner's time zone) on, in the teams they are still in. Null
-- for a token that is malformed, unknown, reset or wrong: all the same to the caller.
create function public.calendar_feed(token text) returns jsonb
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
      where t.assignee_id = feed.user_id
        and t.due_on is not null
        and t.due_on >= (now() at time zone zone)::date - 30
        and exists (select 1 from public.team_members m where m.team_id = p.team_id and m.user_id = feed.user_id)
    ), '[]'::jsonb)
  );
end;
$$;

revoke execute on function public.calendar_feed(text) from public;
grant execute on function public.calendar_feed(text) to anon, authenticated;
