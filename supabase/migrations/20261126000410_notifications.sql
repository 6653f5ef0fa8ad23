-- Notifications, email settings and unsubscribe links (PRODUCT.md §10
-- "Notifications", "Email"; docs/decisions/0028-activity-and-notifications.md).
--
-- The database makes the notifications from the events (a trigger on
-- task_events), so every client's changes notify: once per event per person,
-- for the people who watch the task or are assigned to it (comments, status
-- changes), the person a task is assigned to, and the people mentioned; never
-- the actor; never anyone outside the task's team. Emails are sent by the
-- send-notifications function, which the scheduler calls every minute: it
-- claims the due batches with claim_notification_emails() (service role only)
-- and reports each one back with finish_notification_emails().

-- What a person is notified about, and how each kind is emailed ----------------------------
create function public.notification_kinds() returns text[]
language sql
immutable
set search_path = ''
as $$ select array['assigned', 'mentioned', 'comment', 'status', 'due_date'] $$;

-- §10's defaults: assigned and mentioned right away, the rest not emailed.
create function public.default_email_setting(kind text) returns text
language sql
immutable
set search_path = ''
as $$ select case when $1 in ('assigned', 'mentioned') then 'instant' else 'never' end $$;

create table public.notification_settings (
  user_id uuid not null references public.profiles (id) on delete cascade default auth.uid(),
  kind text not null,
  email text not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, kind),
  constraint notification_settings_kind check (kind = any (public.notification_kinds())),
  constraint notification_settings_email check (email in ('instant', 'daily', 'never'))
);

create trigger notification_settings_set_updated_at
before update on public.notification_settings
for each row execute function public.set_updated_at();

create function public.email_setting(person uuid, kind text) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select s.email from public.notification_settings s where s.user_id = $1 and s.kind = $2),
    public.default_email_setting($2)
  )
$$;

-- notifications ----------------------------------------------------------------------------
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  team_id uuid not null references public.teams (id) on delete cascade,
  task_id uuid not null references public.tasks (id) on delete cascade,
  event_id uuid references public.task_events (id) on delete cascade,
  comment_id uuid references public.comments (id) on delete set null,
  actor_id uuid references public.profiles (id) on delete set null,
  kind text not null,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  -- email: 'pending' until sent ('sent', emailed_at) or not needed ('none': its kind is not emailed,
  -- or it was read in the app first)
  email text not null default 'pending',
  emailed_at timestamptz,
  -- a run of send-notifications holds the row while it sends (claim_notification_emails)
  email_claim uuid,
  email_tried_at timestamptz,
  email_attempts integer not null default 0,
  constraint notifications_kind check (kind = any (public.notification_kinds())),
  constraint notifications_email check (email in ('pending', 'sent', 'none')),
  constraint notifications_one_per_event unique (event_id, recipient_id)
);

comment on table public.notifications is
  'Made by the database from task_events (docs/decisions/0028). Each person reads and marks their own; nobody inserts or deletes.';

create index notifications_recipient_idx on public.notifications (recipient_id, created_at desc, id desc);
create index notifications_unread_idx on public.notifications (recipient_id) where read_at is null;
create index notifications_email_pending_idx on public.notifications (recipient_id, created_at) where email = 'pending';
-- (a deleted task takes its notifications; leaving a team deletes one person's,
-- found through recipient_idx; the daily prune reads the table once: no more indexes, so writes stay cheap)
create index notifications_task_idx on public.notifications (task_id);
create index notifications_email_claim_idx on public.notifications (email_claim) where email_claim is not null;

-- From events to notifications -------------------------------------------------------------
-- Who hears of an event, and as what (one notification per person: the first
-- reason by rank wins): the new assignee (assigned), the people mentioned
-- (mentioned), the task's watchers and its assignee for a comment (comment)
-- or a change of status (status). Only members of the task's team; never the
-- actor (for a comment, never its author either).
create function public.task_events_notify() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  assigned uuid;
  status_changed boolean;
  comment uuid := (new.data ->> 'comment_id')::uuid;
  author uuid;
  current_assignee uuid;
begin
  if new.kind = 'task_created' then
    assigned := (new.data ->> 'assignee')::uuid;
  elsif new.kind = 'task_updated' then
    assigned := (new.data #>> '{changes,assignee,to}')::uuid;
    status_changed := (new.data -> 'changes') ? 'status';
  elsif new.kind not in ('comment_posted', 'comment_edited') then
    return null;
  end if;
  if assigned is null and coalesce(jsonb_array_length(new.data -> 'mentions'), 0) = 0
     and new.kind <> 'comment_posted' and not coalesce(status_changed, false) then
    return null;
  end if;
  -- a comment's author, when the service role wrote it (else the author is the actor)
  author := coalesce((new.data ->> 'author')::uuid, new.actor_id);
  if new.kind = 'comment_posted' or status_changed then
    select t.assignee_id into current_assignee from public.tasks t where t.id = new.task_id;
  end if;

  insert into public.notifications (recipient_id, team_id, task_id, event_id, comment_id, actor_id, kind, email)
  select distinct on (r.person)
    r.person, new.team_id, new.task_id, new.id, comment, new.actor_id, r.kind,
    case when coalesce(s.email, public.default_email_setting(r.kind)) = 'never' then 'none' else 'pending' end
  from (
    select assigned as person, 'assigned' as kind, 1 as rank
    where assigned is not null
    union all
    select m::uuid, 'mentioned', 2
    from jsonb_array_elements_text(coalesce(new.data -> 'mentions', '[]'::jsonb)) m
    union all
    select w.user_id, case when new.kind = 'comment_posted' then 'comment' else 'status' end, 3
    from public.task_watchers w
    where w.task_id = new.task_id and (new.kind = 'comment_posted' or status_changed)
    union all
    select current_assignee, case when new.kind = 'comment_posted' then 'comment' else 'status' end, 3
    where current_assignee is not null
  ) r
  join public.team_members m on m.team_id = new.team_id and m.user_id = r.person
  left join public.notification_settings s on s.user_id = r.person and s.kind = r.kind
  where r.person is distinct from new.actor_id and r.person is distinct from author
  order by r.person, r.rank
  on conflict on constraint notifications_one_per_event do nothing;
  return null;
end;
$$;

create trigger task_events_notify
after insert or update of data on public.task_events
for each row execute function public.task_events_notify();

-- Leaving a team: its notifications go (unsent emails included).
create function public.team_members_forget_notifications() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.teams t where t.id = old.team_id) then
    delete from public.notifications n where n.team_id = old.team_id and n.recipient_id = old.user_id;
  end if;
  return null;
end;
$$;

create trigger team_members_forget_notifications
after delete on public.team_members
for each row execute function public.team_members_forget_notifications();

-- The header's bell: unread notifications, counted up to 100 (shown as "99+").
create function public.unread_notification_count() returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select count(*)::integer
  from (
    select 1 from public.notifications n
    where n.recipient_id = auth.uid() and n.read_at is null
    limit 100
  ) unread
$$;

-- Opening a notification: marks it read (the first time) and says where its
-- task is; null when it isn't the caller's, or its task is out of their reach.
create function public.open_notification(notification_id uuid) returns json
language sql
volatile
security invoker
set search_path = ''
as $$
  with opened as (
    update public.notifications n
    set read_at = coalesce(n.read_at, now())
    where n.id = $1 and n.recipient_id = auth.uid()
    returning n.task_id
  )
  select json_build_object('team_slug', tm.slug, 'project_key', p.key, 'task_number', t.number)
  from opened o
  join public.tasks t on t.id = o.task_id
  join public.projects p on p.id = t.project_id
  join public.teams tm on tm.id = p.team_id
$$;

-- Unsubscribe links --------------------------------------------------------------------------
-- Each email carries a link with a random token (stored only as its SHA-256)
-- that turns off the kinds the email was about, for its person, without
-- signing in (RFC 8058 one-click, and the link in the email).
create table public.email_unsubscribe_tokens (
  token_hash text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  kinds text[] not null,
  created_at timestamptz not null default now(),
  constraint email_unsubscribe_tokens_hash check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint email_unsubscribe_tokens_kinds check (kinds <@ public.notification_kinds() and cardinality(kinds) > 0)
);

create index email_unsubscribe_tokens_user_idx on public.email_unsubscribe_tokens (user_id);

-- 'unsubscribed', 'already' (every kind of the link was off already) or 'unknown'.
create function public.unsubscribe_from_emails(token text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  link public.email_unsubscribe_tokens;
  changed integer;
begin
  select * into link
  from public.email_unsubscribe_tokens u
  where u.token_hash = encode(sha256(convert_to(coalesce($1, ''), 'UTF8')), 'hex');
  if not found then
    return json_build_object('status', 'unknown');
  end if;
  with turned_off as (
    insert into public.notification_settings as s (user_id, kind, email)
    select link.user_id, k, 'never' from unnest(link.kinds) k
    where public.email_setting(link.user_id, k) <> 'never'
    on conflict (user_id, kind) do update set email = 'never'
    returning 1
  )
  select count(*) into changed from turned_off;
  -- what was waiting to be emailed for those kinds isn't any more
  update public.notifications n set email = 'none'
  where n.recipient_id = link.user_id and n.email = 'pending' and n.email_claim is null and n.kind = any (link.kinds);
  return json_build_object('status', case when changed > 0 then 'unsubscribed' else 'already' end, 'kinds', link.kinds);
end;
$$;

-- What a link would do, without doing it (the page a link opens asks first):
-- 'subscribed' (some of its kinds are still emailed), 'already' or 'unknown'.
create function public.unsubscribe_link_status(token text) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (
      select json_build_object(
        'status', case when bool_or(public.email_setting(u.user_id, k) <> 'never') then 'subscribed' else 'already' end,
        'kinds', u.kinds
      )
      from public.email_unsubscribe_tokens u, unnest(u.kinds) k
      where u.token_hash = encode(sha256(convert_to(coalesce($1, ''), 'UTF8')), 'hex')
      group by u.token_hash, u.kinds
    ),
    json_build_object('status', 'unknown')
  )
$$;

-- Claiming the emails that are due -----------------------------------------------------------
-- The last 08:00 at or before `at` in a time zone (UTC for an unknown one).
create function public.last_digest_time(at timestamptz, zone text) returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
declare
  local timestamp;
  boundary timestamp;
begin
  begin
    local := $1 at time zone coalesce($2, 'UTC');
  exception when others then
    zone := 'UTC';
    local := $1 at time zone 'UTC';
  end;
  boundary := date_trunc('day', local) + interval '8 hours';
  if local < boundary then
    boundary := boundary - interval '1 day';
  end if;
  return boundary at time zone coalesce(zone, 'UTC');
end;
$$;

-- A person's time zone (§12): profiles.time_zone once it exists, else UTC.
-- Read through the row's JSON so this migration doesn't depend on that column.
create function public.person_time_zone(person uuid) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select to_jsonb(p) ->> 'time_zone' from public.profiles p where p.id = $1), 'UTC')
$$;

-- Whether a pending row may be taken now: nobody holds it (or its run died
-- more than 5 minutes ago: the function's own limit is 150 s), and a failed
-- try was at least 30 s × attempts ago (the next run, then slower, at most hourly).
create function public.notification_email_claimable(n public.notifications) returns boolean
language sql
stable
set search_path = ''
as $$
  select n.email = 'pending' and (
    (n.email_claim is null and (n.email_attempts = 0
      or n.email_tried_at <= now() - interval '30 seconds' * least(n.email_attempts, 120)))
    or (n.email_claim is not null and n.email_tried_at < now() - interval '5 minutes')
  )
$$;

-- Claims the emails due at `at`, at most `max_batches` of them: per person,
-- everything right-away that is pending once the oldest of it is
-- `batch_window` old (several events within the window make one email), and
-- the daily digest of what came before their last 08:00. Each batch gets a
-- claim id (finish_notification_emails reports it) and an unsubscribe token
-- for its kinds. Rows another run holds are skipped, never waited for.
create function public.claim_notification_emails(
  at timestamptz default now(),
  batch_window interval default interval '50 seconds',
  max_batches integer default 100
) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  result json;
begin
  -- read in the app meanwhile, or its kind turned off since: no email
  update public.notifications n set email = 'none'
  from public.notifications x
  left join public.notification_settings s on s.user_id = x.recipient_id and s.kind = x.kind
  where n.id = x.id and x.email = 'pending' and x.email_claim is null
    and (x.read_at is not null or coalesce(s.email, public.default_email_setting(x.kind)) = 'never');

  -- one statement: what is due, claimed (rows another run holds are skipped:
  -- the claimable check is made again on each row as it is locked), the
  -- batches' unsubscribe tokens, and what each email says
  with pending as (
    select x.id, x.recipient_id, x.created_at, coalesce(s.email, public.default_email_setting(x.kind)) as mode
    from public.notifications x
    left join public.notification_settings s on s.user_id = x.recipient_id and s.kind = x.kind
    where x.email = 'pending' and public.notification_email_claimable(x) and x.created_at <= $1
  ),
  due as materialized (
    select g.recipient_id, g.mode, g.until, gen_random_uuid() as claim,
           replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') as token
    from (
      select p.recipient_id, p.mode, min(p.created_at) as oldest,
             case when p.mode = 'daily' then public.last_digest_time($1, public.person_time_zone(p.recipient_id))
                  else $1 end as until
      from pending p
      group by p.recipient_id, p.mode
    ) g
    where (g.mode = 'instant' and g.oldest <= $1 - $2) or (g.mode = 'daily' and g.oldest < g.until)
    order by g.oldest
    limit greatest(coalesce($3, 100), 1)
  ),
  taken as (
    update public.notifications n
    set email_claim = d.claim, email_tried_at = now()
    from pending p, due d
    where n.id = p.id and p.recipient_id = d.recipient_id and p.mode = d.mode and p.created_at <= d.until
      and public.notification_email_claimable(n)
    returning n.id, n.recipient_id, n.kind, n.created_at, n.task_id, n.actor_id, n.event_id, n.comment_id, d.claim
  ),
  batches as (
    select t.claim, d.mode, d.token, t.recipient_id, array_agg(distinct t.kind) as kinds, count(*)::int as total
    from taken t join due d on d.claim = t.claim
    group by t.claim, d.mode, d.token, t.recipient_id
  ),
  tokens as (
    insert into public.email_unsubscribe_tokens (token_hash, user_id, kinds)
    select encode(sha256(convert_to(b.token, 'UTF8')), 'hex'), b.recipient_id, b.kinds from batches b
  ),
  items as (
    select t.claim, t.id, t.kind, t.created_at, t.task_id,
           row_number() over (partition by t.claim order by t.created_at, t.id) as place,
           a.display_name as actor_name, tk.number as task_number, tk.title as task_title,
           p.key as project_key, tm.slug as team_slug, tm.name as team_name,
           e.kind as event_kind, e.data -> 'changes' as changes, left(c.body, 500) as comment_body
    from taken t
    join public.tasks tk on tk.id = t.task_id
    join public.projects p on p.id = tk.project_id
    join public.teams tm on tm.id = p.team_id
    left join public.profiles a on a.id = t.actor_id
    left join public.task_events e on e.id = t.event_id
    left join public.comments c on c.id = t.comment_id
  )
  select coalesce(json_agg(json_build_object(
    'claim', b.claim,
    'mode', b.mode,
    'unsubscribe_token', b.token,
    'recipient', json_build_object('id', u.id, 'email', u.email, 'display_name', pr.display_name),
    'kinds', b.kinds,
    'total', b.total,
    -- an email lists at most 50; the rest are on /notifications
    'items', (
      select json_agg(json_build_object(
        'id', i.id, 'kind', i.kind, 'created_at', i.created_at, 'task_id', i.task_id,
        'actor_name', i.actor_name, 'task_number', i.task_number, 'task_title', i.task_title,
        'project_key', i.project_key, 'team_slug', i.team_slug, 'team_name', i.team_name,
        'event_kind', i.event_kind, 'changes', i.changes, 'comment_body', i.comment_body
      ) order by i.place)
      from items i where i.claim = b.claim and i.place <= 50
    )
  )), '[]'::json)
  into result
  from batches b
  join auth.users u on u.id = b.recipient_id
  left join public.profiles pr on pr.id = b.recipient_id;
  return result;
end;
$$;

-- Reports what a run did with its batches: sent (never sent again) or not
-- (pending again, for a later run).
create function public.finish_notification_emails(sent_claims uuid[], failed_claims uuid[]) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  done integer;
begin
  update public.notifications n
  set email = case when n.email_claim = any ($1) then 'sent' else 'pending' end,
      emailed_at = case when n.email_claim = any ($1) then now() end,
      email_attempts = n.email_attempts + case when n.email_claim = any ($1) then 0 else 1 end,
      email_claim = null
  where n.email = 'pending' and (n.email_claim = any ($1) or n.email_claim = any ($2));
  get diagnostics done = row_count;
  return done;
end;
$$;

revoke execute on function
  public.email_setting(uuid, text),
  public.task_events_notify(),
  public.team_members_forget_notifications(),
  public.person_time_zone(uuid),
  public.notification_email_claimable(public.notifications),
  public.claim_notification_emails(timestamptz, interval, integer),
  public.finish_notification_emails(uuid[], uuid[]),
  public.unsubscribe_from_emails(text),
  public.unsubscribe_link_status(text),
  public.unread_notification_count(),
  public.open_notification(uuid),
  public.last_digest_time(timestamptz, text)
from public, anon, authenticated;

grant execute on function public.claim_notification_emails(timestamptz, interval, integer),
  public.finish_notification_emails(uuid[], uuid[])
to service_role;
-- the link in an email works without signing in
grant execute on function public.unsubscribe_from_emails(text), public.unsubscribe_link_status(text)
to anon, authenticated;
grant execute on function public.unread_notification_count(), public.open_notification(uuid) to authenticated;
grant execute on function public.notification_kinds(), public.default_email_setting(text) to authenticated;

-- Row-level security --------------------------------------------------------------------------
alter table public.notification_settings enable row level security;
alter table public.notifications enable row level security;
alter table public.email_unsubscribe_tokens enable row level security;

-- settings: each person their own
revoke all on table public.notification_settings from anon, authenticated;
grant select, insert, update, delete on table public.notification_settings to authenticated;

create policy "people see their email settings"
on public.notification_settings for select
to authenticated
using (user_id = (select auth.uid()));

create policy "people set their email settings"
on public.notification_settings for insert
to authenticated
with check (user_id = (select auth.uid()));

create policy "people change their email settings"
on public.notification_settings for update
to authenticated
using (user_id = (select auth.uid()))
with check (user_id = (select auth.uid()));

create policy "people reset their email settings"
on public.notification_settings for delete
to authenticated
using (user_id = (select auth.uid()));

-- notifications: each person reads their own and marks them read; nobody
-- inserts or deletes them (the service role neither: the function works through the two RPCs)
revoke all on table public.notifications from anon, authenticated, service_role;
grant select on table public.notifications to authenticated, service_role;
grant update (read_at) on table public.notifications to authenticated;

create policy "people see their notifications"
on public.notifications for select
to authenticated
using (recipient_id = (select auth.uid()));

create policy "people mark their notifications read"
on public.notifications for update
to authenticated
using (recipient_id = (select auth.uid()))
with check (recipient_id = (select auth.uid()));

-- unsubscribe tokens: only through unsubscribe_from_emails()
revoke all on table public.email_unsubscribe_tokens from anon, authenticated, service_role;

-- Two-factor accounts reach these at aal2 only, as every table (20261126000100_aal2_everywhere.sql)
create policy "two-factor accounts need aal2" on public.notification_settings
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.notifications
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.email_unsubscribe_tokens
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

-- The bell changes live: each person's own notifications reach them through Realtime (RLS decides).
alter publication supabase_realtime add table public.notifications;

-- Notifications are kept 90 days (§16); unsubscribe links a year.
select cron.schedule(
  'prune-notifications',
  '17 3 * * *',
  $$
  delete from public.notifications where created_at < now() - interval '90 days';
  delete from public.email_unsubscribe_tokens where created_at < now() - interval '1 year';
  $$
);
