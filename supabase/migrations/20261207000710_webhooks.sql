-- Webhooks (PRODUCT.md §19; docs/decisions/0036-api-tokens-and-webhooks.md).
--
-- Sent by the database itself, so the app, the API, bulk edits, imports and
-- plain SQL all produce them:
--   triggers on tasks and comments  -> a row in webhook_deliveries per matching
--                                      webhook, in the writing transaction
--   webhook_send()                  -> signs the body (Standard Webhooks: HMAC-SHA256
--                                      of "id.timestamp.body" with pgcrypto) and hands
--                                      it to pg_net, whose queue is transactional too:
--                                      nothing leaves before the commit, nothing of a
--                                      rolled-back transaction ever does
--   webhooks_tick() (pg_cron, 5 s)  -> reads pg_net's answers: 2xx delivered, anything
--                                      else (or no answer within a minute: a restart)
--                                      a failed attempt, retried after 1 min, 5 min,
--                                      30 min, 2 h, 6 h; sends what is due
-- While a webhook's last attempt failed, new deliveries wait and one, the
-- oldest, is tried when the back-off says so (a receiver that is down gets
-- one request per step, not one per change); "failures in a row" counts those
-- steps, and at 20 the webhook is turned off. Each webhook keeps its last 100
-- finished deliveries. The secret lives in Vault; nobody reads it back.

-- Which hosts a webhook may point at, besides public ones (SQL / service role only) ------
-- Default: none. Loopback, private ranges (10/8, 172.16/12, 192.168/16, 100.64/10,
-- fc00::/7), link-local and cloud metadata (169.254/16, fe80::/10,
-- metadata.google.internal) and the backend's own host are refused unless listed here.
create table public.webhook_allowed_hosts (
  host text primary key,
  note text not null default ''
);
alter table public.webhook_allowed_hosts enable row level security;
revoke all on table public.webhook_allowed_hosts from anon, authenticated;
create policy "two-factor accounts need aal2" on public.webhook_allowed_hosts
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));

create table public.webhooks (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  url text not null,
  events text[] not null,
  format text not null default 'standard',
  -- vault.secrets' id of the signing secret (whsec_…)
  secret_id uuid not null,
  enabled boolean not null default true,
  failures_in_row integer not null default 0,
  -- while failing: when the next (probe) attempt may go
  retry_at timestamptz,
  disabled_at timestamptz,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint webhooks_format check (format in ('standard', 'slack')),
  constraint webhooks_events check (
    cardinality(events) between 1 and 5
    and events <@ array['task.created', 'task.changed', 'task.moved', 'task.deleted', 'comment.posted']
  ),
  constraint webhooks_url_length check (char_length(url) <= 2000)
);
create index webhooks_project_idx on public.webhooks (project_id);
create index webhooks_created_by_idx on public.webhooks (created_by);

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references public.webhooks (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  -- webhook-id: the same for every attempt and for "Send again"
  message_id text not null,
  event text not null,
  -- the Standard Webhooks body ({type, timestamp, data}); Slack's is made from it when sent
  payload jsonb not null,
  status text not null default 'pending',
  attempt integer not null default 0,
  next_attempt_at timestamptz,
  request_id bigint,
  sent_at timestamptz,
  response_status integer,
  duration_ms integer,
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  constraint webhook_deliveries_status check (status in ('pending', 'sending', 'delivered', 'failed'))
);
create index webhook_deliveries_project_idx on public.webhook_deliveries (project_id);
create index webhook_deliveries_log_idx on public.webhook_deliveries (webhook_id, created_at desc);
create index webhook_deliveries_open_idx on public.webhook_deliveries (status, next_attempt_at)
  where status in ('pending', 'sending');

alter table public.webhooks enable row level security;
alter table public.webhook_deliveries enable row level security;
revoke all on table public.webhooks, public.webhook_deliveries from anon, authenticated;
-- never secret_id
grant select (id, project_id, url, events, format, enabled, failures_in_row, retry_at, disabled_at, created_by, created_at)
  on table public.webhooks to authenticated;
grant select (id, webhook_id, project_id, message_id, event, status, attempt, next_attempt_at, sent_at,
              response_status, duration_ms, error, created_at, finished_at)
  on table public.webhook_deliveries to authenticated;

create policy "two-factor accounts need aal2" on public.webhooks
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));
create policy "two-factor accounts need aal2" on public.webhook_deliveries
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));
-- once per query: the projects of the teams the person administers (decision 0034)
create policy "admins see their projects' webhooks" on public.webhooks
  for select to authenticated
  using (project_id in (select p.id from public.projects p where p.team_id in (select private.my_admin_team_ids())));
create policy "admins see their projects' deliveries" on public.webhook_deliveries
  for select to authenticated
  using (project_id in (select p.id from public.projects p where p.team_id in (select private.my_admin_team_ids())));

-- Addresses ------------------------------------------------------------------------------------
-- "host:port" of an http(s) address (the scheme's port when none is written), lower case; null if none.
create function private.webhook_authority(url text) returns text
language sql
immutable
set search_path = ''
as $$
  select lower(trim(both '[]' from m[1])) || ':' || coalesce(m[2], case when lower($1) like 'https:%' then '443' else '80' end)
  from (select regexp_match($1, '^[A-Za-z]+://(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d+))?') as m) x
  where m is not null
$$;

-- Why a webhook may not go to this address (null: it may). The host is checked
-- as written: a name that resolves to a private address is not caught here.
create function public.webhook_url_problem(url text) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  h text;
  addr inet;
  here text;
begin
  if url is null or url !~* '^https?://[^/?#\s]+' or url ~ '\s' then
    return 'A webhook needs an http or https address.';
  end if;
  h := lower(substring(url from '^[A-Za-z]+://(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)'));
  h := trim(both '[]' from coalesce(h, ''));
  h := rtrim(h, '.');
  if h = '' then
    return 'A webhook needs an http or https address.';
  end if;
  -- the backend itself (its API address from Vault, or the Host this request came to), by host and port
  here := private.webhook_authority(url);
  if here = private.webhook_authority((select s.decrypted_secret from vault.decrypted_secrets s where s.name = 'project_url'))
     or here = private.webhook_authority('https://' || (coalesce(nullif(current_setting('request.headers', true), ''), '{}')::jsonb ->> 'host'))
     or here = private.webhook_authority('http://' || (coalesce(nullif(current_setting('request.headers', true), ''), '{}')::jsonb ->> 'host')) then
    return 'A webhook can''t point at Teamboard''s own backend.';
  end if;
  if exists (select 1 from public.webhook_allowed_hosts a where lower(a.host) in (h, '*')) then
    return null;
  end if;
  if h = 'localhost' or h like '%.localhost' or h like '%.internal' or h like '%.local'
     or h in ('metadata', 'instance-data') then
    return 'That address is on a private network; this deployment doesn''t send webhooks there.';
  end if;
  -- numbers in other forms (2130706433, 0x7f.1, 017700000001) reach the same addresses: refused
  if h ~ '^[0-9x.]+$' and h !~ '^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$' then
    return 'That address is on a private network; this deployment doesn''t send webhooks there.';
  end if;
  begin
    addr := h::inet;
  exception when others then
    return null; -- a name
  end;
  if addr <<= any (array[
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
    '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/3',
    '::/128', '::1/128', '::ffff:0:0/96', 'fc00::/7', 'fe80::/10', 'ff00::/8'
  ]::inet[]) then
    return 'That address is on a private network; this deployment doesn''t send webhooks there.';
  end if;
  return null;
end;
$$;
revoke execute on function public.webhook_url_problem(text) from public, anon, authenticated;

-- Managing (admins and owners, from project settings) ------------------------------------
create function public.create_webhook(project_id uuid, url text, events text[], format text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem text;
  made uuid := gen_random_uuid();
  secret text := 'whsec_' || encode(extensions.gen_random_bytes(24), 'base64');
  vault_id uuid;
begin
  perform private.require_aal();
  if not private.has_project_role($1, 'viewer') then
    raise exception 'Project not found.' using errcode = 'PT404';
  end if;
  if not private.has_project_role($1, 'admin') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  problem := public.webhook_url_problem(btrim($2));
  if problem is not null then
    raise exception '%', problem using errcode = '22023', detail = case
      when problem like 'A webhook needs%' then 'webhook_url_scheme'
      when problem like '%own backend%' then 'webhook_url_backend'
      else 'webhook_url_private' end;
  end if;
  if $3 is null or cardinality($3) = 0 then
    raise exception 'Choose at least one event.' using errcode = '22023', detail = 'webhook_events';
  end if;
  if (select count(*) from public.webhooks w where w.project_id = $1) >= 10 then
    raise exception 'A project can have at most 10 webhooks.' using errcode = '22023', detail = 'webhooks_limit';
  end if;
  vault_id := vault.create_secret(secret, 'webhook:' || made::text, 'A Teamboard webhook''s signing secret');
  insert into public.webhooks (id, project_id, url, events, format, secret_id)
  values (made, $1, btrim($2), (select array_agg(distinct e order by e) from unnest($3) e), coalesce($4, 'standard'), vault_id);
  return jsonb_build_object('id', made, 'secret', secret);
end;
$$;

create function public.update_webhook(webhook_id uuid, url text, events text[], format text, enabled boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook public.webhooks;
  problem text;
begin
  perform private.require_aal();
  select * into hook from public.webhooks w where w.id = $1;
  if hook.id is null or not private.has_project_role(hook.project_id, 'admin') then
    raise exception 'Webhook not found.' using errcode = 'PT404';
  end if;
  problem := public.webhook_url_problem(btrim($2));
  if problem is not null then
    raise exception '%', problem using errcode = '22023', detail = case
      when problem like 'A webhook needs%' then 'webhook_url_scheme'
      when problem like '%own backend%' then 'webhook_url_backend'
      else 'webhook_url_private' end;
  end if;
  if $3 is null or cardinality($3) = 0 then
    raise exception 'Choose at least one event.' using errcode = '22023', detail = 'webhook_events';
  end if;
  update public.webhooks w set
    url = btrim($2),
    events = (select array_agg(distinct e order by e) from unnest($3) e),
    format = coalesce($4, w.format),
    enabled = $5,
    -- turned on again: a fresh start
    failures_in_row = case when $5 and not w.enabled then 0 else w.failures_in_row end,
    retry_at = case when $5 and not w.enabled then null else w.retry_at end,
    disabled_at = case when $5 then null else coalesce(w.disabled_at, now()) end
  where w.id = $1;
end;
$$;

create function public.delete_webhook(webhook_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook public.webhooks;
begin
  perform private.require_aal();
  select * into hook from public.webhooks w where w.id = $1;
  if hook.id is null or not private.has_project_role(hook.project_id, 'admin') then
    raise exception 'Webhook not found.' using errcode = 'PT404';
  end if;
  delete from public.webhooks w where w.id = $1;
end;
$$;

-- However a webhook goes (deleted, or with its project or team), its secret goes from Vault.
create function public.webhooks_forget_secret() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from vault.secrets s where s.id = old.secret_id;
  return null;
end;
$$;
revoke execute on function public.webhooks_forget_secret() from public, anon, authenticated;
create trigger webhooks_forget_secret after delete on public.webhooks
for each row execute function public.webhooks_forget_secret();

-- "Send again": the same message (same webhook-id), as a new delivery, now.
create function public.resend_webhook_delivery(delivery_id uuid) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  old public.webhook_deliveries;
  made uuid;
begin
  perform private.require_aal();
  select * into old from public.webhook_deliveries d where d.id = $1;
  if old.id is null or not private.has_project_role(old.project_id, 'admin') then
    raise exception 'Delivery not found.' using errcode = 'PT404';
  end if;
  insert into public.webhook_deliveries (webhook_id, project_id, message_id, event, payload, next_attempt_at)
  values (old.webhook_id, old.project_id, old.message_id, old.event, old.payload, now())
  returning id into made;
  perform public.webhook_send(made);
  return made;
end;
$$;

-- Sending --------------------------------------------------------------------------------------
-- Standard Webhooks: webhook-signature is "v1," + base64(HMAC-SHA256(secret bytes, "id.timestamp.body")),
-- the secret's bytes being the base64 after "whsec_". pg_net sends body::text, so that is what is signed.
create function public.webhook_send(delivery_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.webhook_deliveries;
  hook public.webhooks;
  secret text;
  body jsonb;
  stamp text := floor(extract(epoch from clock_timestamp()))::bigint::text;
  request bigint;
begin
  select * into d from public.webhook_deliveries x where x.id = $1 for update;
  select * into hook from public.webhooks w where w.id = d.webhook_id;
  if d.id is null or hook.id is null then
    return;
  end if;
  if public.webhook_url_problem(hook.url) is not null then
    update public.webhook_deliveries x
    set status = 'failed', error = public.webhook_url_problem(hook.url), finished_at = now(), attempt = x.attempt + 1
    where x.id = d.id;
    return;
  end if;
  select s.decrypted_secret into secret from vault.decrypted_secrets s where s.id = hook.secret_id;
  body := case hook.format
    when 'slack' then jsonb_build_object('text', d.payload -> 'data' ->> 'summary')
    else d.payload
  end;
  request := net.http_post(
    url := hook.url,
    body := body,
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'User-Agent', 'Teamboard-Webhooks/1',
      'webhook-id', d.message_id,
      'webhook-timestamp', stamp,
      'webhook-signature', 'v1,' || encode(extensions.hmac(
        convert_to(d.message_id || '.' || stamp || '.' || body::text, 'UTF8'),
        decode(substr(secret, 7), 'base64'),
        'sha256'), 'base64')
    ),
    timeout_milliseconds := 10000
  );
  update public.webhook_deliveries x
  set status = 'sending', request_id = request, sent_at = clock_timestamp(), attempt = x.attempt + 1,
      next_attempt_at = null
  where x.id = d.id;
end;
$$;

-- The back-off after the n-th failed attempt (1 min, 5 min, 30 min, 2 h, 6 h); null: give up.
create function public.webhook_backoff(failures integer) returns interval
language sql
immutable
set search_path = ''
as $$
  select (array[interval '1 minute', interval '5 minutes', interval '30 minutes', interval '2 hours', interval '6 hours'])[$1]
$$;

-- A change, for every enabled webhook of the project that wants its event.
create function public.webhooks_enqueue(project uuid, event text, data jsonb) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook record;
  made uuid;
begin
  for hook in
    select w.id, w.failures_in_row, w.retry_at from public.webhooks w
    where w.project_id = $1 and w.enabled and $2 = any (w.events)
  loop
    insert into public.webhook_deliveries (webhook_id, project_id, message_id, event, payload, next_attempt_at)
    values (
      hook.id, $1, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $2,
      jsonb_build_object('type', $2, 'timestamp', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                         'data', $3),
      case when hook.failures_in_row = 0 then now() else hook.retry_at end
    )
    returning id into made;
    -- a healthy webhook is sent to at once (pg_net sends after the commit); a failing one waits its turn
    if hook.failures_in_row = 0 then
      perform public.webhook_send(made);
    end if;
  end loop;
end;
$$;

-- What a task looks like in a webhook, with its link and a sentence for chat tools.
create function public.webhook_task_data(t public.tasks, event text, extra jsonb default '{}'::jsonb) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  p record;
  status_name text;
  link text;
  who text;
begin
  select pr.key, pr.name, tm.slug into p
  from public.projects pr join public.teams tm on tm.id = pr.team_id where pr.id = t.project_id;
  select s.name into status_name from public.project_statuses s where s.id = t.status_id;
  select pf.display_name into who from public.profiles pf where pf.id = auth.uid();
  link := rtrim(coalesce((select s.decrypted_secret from vault.decrypted_secrets s where s.name = 'site_url'), ''), '/')
    || format('/teams/%s/projects/%s/tasks/%s', p.slug, p.key, t.number);
  return jsonb_build_object(
    'task', jsonb_build_object(
      'id', t.id, 'key', p.key || '-' || t.number, 'number', t.number, 'title', t.title,
      'status', status_name, 'priority', t.priority, 'due_on', t.due_on, 'assignee_id', t.assignee_id,
      'url', link),
    'project', jsonb_build_object('id', t.project_id, 'key', p.key, 'name', p.name),
    'team', p.slug,
    'actor_id', auth.uid(),
    'summary', format('%s %s: %s (%s) %s', coalesce(who, 'Someone'),
      case event
        when 'task.created' then 'created'
        when 'task.moved' then 'moved'
        when 'task.deleted' then 'deleted'
        when 'comment.posted' then 'commented on'
        else 'changed' end,
      p.key || '-' || t.number, t.title, link)
  ) || extra;
end;
$$;

create function public.tasks_webhooks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- nothing to do for a project without webhooks (one index probe), or one being deleted (a cascade)
  if not exists (select 1 from public.webhooks w where w.project_id = coalesce(new.project_id, old.project_id) and w.enabled) then
    return null;
  end if;
  if tg_op = 'DELETE' and not exists (select 1 from public.projects p where p.id = old.project_id) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.webhooks_enqueue(new.project_id, 'task.created', public.webhook_task_data(new, 'task.created'));
  elsif tg_op = 'DELETE' then
    perform public.webhooks_enqueue(old.project_id, 'task.deleted', public.webhook_task_data(old, 'task.deleted'));
  elsif new.status_id is distinct from old.status_id then
    perform public.webhooks_enqueue(new.project_id, 'task.moved', public.webhook_task_data(new, 'task.moved',
      jsonb_build_object('from_status', (select s.name from public.project_statuses s where s.id = old.status_id))));
  elsif (new.title, new.description, new.priority, new.assignee_id, new.due_on, new.parent_id)
        is distinct from (old.title, old.description, old.priority, old.assignee_id, old.due_on, old.parent_id) then
    perform public.webhooks_enqueue(new.project_id, 'task.changed', public.webhook_task_data(new, 'task.changed'));
  end if;
  return null;
end;
$$;

create trigger tasks_webhooks after insert or update or delete on public.tasks
for each row execute function public.tasks_webhooks();

create function public.comments_webhooks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.tasks;
begin
  select * into t from public.tasks x where x.id = new.task_id;
  if t.id is null or not exists (select 1 from public.webhooks w where w.project_id = t.project_id and w.enabled) then
    return null;
  end if;
  perform public.webhooks_enqueue(t.project_id, 'comment.posted', public.webhook_task_data(t, 'comment.posted',
    jsonb_build_object('comment', jsonb_build_object('id', new.id, 'body', new.body, 'author_id', new.author_id))));
  return null;
end;
$$;

create trigger comments_webhooks after insert on public.comments
for each row execute function public.comments_webhooks();

-- The scheduler's part ----------------------------------------------------------------------------
create function public.webhooks_tick() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook record;
  d record;
  hooks uuid[];
  oks boolean[];
begin
  -- 1. pg_net's answers (or none after a minute: lost, as in a restart) for what was sent
  with answered as (
    select x.id, x.webhook_id, x.attempt, x.sent_at, r.status_code, r.timed_out, r.error_msg, r.created,
           (r.id is not null) as has_answer
    from public.webhook_deliveries x
    left join net._http_response r on r.id = x.request_id
    where x.status = 'sending' and (r.id is not null or x.sent_at < now() - interval '1 minute')
  ),
  updated as (
    update public.webhook_deliveries x set
      status = case
        when a.status_code between 200 and 299 then 'delivered'
        when public.webhook_backoff(a.attempt) is null then 'failed'
        else 'pending' end,
      response_status = a.status_code,
      duration_ms = case when a.has_answer then greatest(0, round(extract(epoch from a.created - a.sent_at) * 1000))::int end,
      error = case
        when a.status_code between 200 and 299 then null
        when not a.has_answer then 'No answer (the request was lost)'
        when coalesce(a.timed_out, false) then 'Timed out'
        when a.status_code is null then left(coalesce(a.error_msg, 'No answer'), 300)
        else 'HTTP ' || a.status_code end,
      next_attempt_at = case
        when a.status_code between 200 and 299 then null
        else now() + public.webhook_backoff(a.attempt) end,
      finished_at = case
        when a.status_code between 200 and 299 or public.webhook_backoff(a.attempt) is null then now() end
    from answered a
    where x.id = a.id
    returning x.webhook_id, coalesce(a.status_code between 200 and 299, false) as ok
  )
  select coalesce(array_agg(u.webhook_id), '{}'), coalesce(array_agg(u.ok), '{}') into hooks, oks from updated u;

  -- 2. each webhook: a success clears the count; failures (and no success) count one step
  for hook in
    select o.webhook_id, bool_or(o.ok) as any_ok from unnest(hooks, oks) as o (webhook_id, ok) group by o.webhook_id
  loop
    if hook.any_ok then
      update public.webhooks w set failures_in_row = 0, retry_at = null where w.id = hook.webhook_id;
    else
      update public.webhooks w set
        failures_in_row = w.failures_in_row + 1,
        retry_at = now() + coalesce(public.webhook_backoff(least(w.failures_in_row + 1, 5)), interval '6 hours'),
        enabled = w.failures_in_row + 1 < 20,
        disabled_at = case when w.failures_in_row + 1 >= 20 then now() end
      where w.id = hook.webhook_id;
    end if;
  end loop;

  -- 3. what is due: everything for a healthy webhook; the oldest one for a failing webhook
  --    whose back-off has passed (and that has nothing on the way)
  for d in
    select x.id from public.webhook_deliveries x join public.webhooks w on w.id = x.webhook_id
    where x.status = 'pending' and w.enabled and w.failures_in_row = 0
      and x.next_attempt_at <= now()
    order by x.created_at
    limit 1000
  loop
    perform public.webhook_send(d.id);
  end loop;
  for d in
    select distinct on (x.webhook_id) x.id
    from public.webhook_deliveries x join public.webhooks w on w.id = x.webhook_id
    where x.status = 'pending' and w.enabled and w.failures_in_row > 0 and w.retry_at <= now()
      and not exists (select 1 from public.webhook_deliveries y where y.webhook_id = w.id and y.status = 'sending')
    order by x.webhook_id, x.created_at
  loop
    perform public.webhook_send(d.id);
  end loop;

  -- 4. the log keeps each webhook's last 100 finished deliveries
  delete from public.webhook_deliveries x
  using (
    select y.id, row_number() over (partition by y.webhook_id order by y.created_at desc) as n
    from public.webhook_deliveries y where y.status in ('delivered', 'failed')
  ) old
  where x.id = old.id and old.n > 100;
end;
$$;

revoke execute on function public.create_webhook(uuid, text, text[], text),
  public.update_webhook(uuid, text, text[], text, boolean), public.delete_webhook(uuid),
  public.resend_webhook_delivery(uuid) from public, anon;
grant execute on function public.create_webhook(uuid, text, text[], text),
  public.update_webhook(uuid, text, text[], text, boolean), public.delete_webhook(uuid),
  public.resend_webhook_delivery(uuid) to authenticated;
revoke execute on function public.webhook_send(uuid), public.webhooks_enqueue(uuid, text, jsonb),
  public.webhook_task_data(public.tasks, text, jsonb), public.tasks_webhooks(), public.comments_webhooks(),
  public.webhooks_tick(), public.webhook_backoff(integer) from public, anon, authenticated;

-- Turned off after 20 failures: the team's admins and owner are told, in the bell (a notification
-- names a task: the one the last delivery was about, else the project's latest). Kind `webhook_off`;
-- not emailed unless a person asks for it (default_email_setting gives 'never').
create or replace function public.notification_kinds() returns text[]
language sql
immutable
set search_path = ''
as $$ select array['assigned', 'mentioned', 'comment', 'status', 'due_date', 'webhook_off'] $$;

create function public.webhooks_turned_off() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  about uuid;
  team uuid;
begin
  select p.team_id into team from public.projects p where p.id = new.project_id;
  select t.id into about
  from public.webhook_deliveries d join public.tasks t on t.id = (d.payload -> 'data' -> 'task' ->> 'id')::uuid
  where d.webhook_id = new.id
  order by d.created_at desc limit 1;
  if about is null then
    select t.id into about from public.tasks t where t.project_id = new.project_id order by t.updated_at desc limit 1;
  end if;
  if about is null or team is null then
    return null;
  end if;
  insert into public.notifications (recipient_id, team_id, task_id, kind, email)
  select m.user_id, team, about, 'webhook_off',
         case when public.default_email_setting('webhook_off') = 'never'
                   and not exists (select 1 from public.notification_settings ns
                                   where ns.user_id = m.user_id and ns.kind = 'webhook_off' and ns.email <> 'never')
              then 'none' else 'pending' end
  from public.team_members m
  where m.team_id = team and m.role >= 'admin'::public.team_role;
  return null;
end;
$$;
revoke execute on function public.webhooks_turned_off() from public, anon, authenticated;

create trigger webhooks_turned_off after update of enabled on public.webhooks
for each row when (old.enabled and not new.enabled and new.failures_in_row >= 20)
execute function public.webhooks_turned_off();

select cron.schedule('webhooks', '5 seconds', 'select public.webhooks_tick()');
