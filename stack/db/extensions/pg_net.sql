-- pg_net's SQL surface and Supabase's Database Webhooks (supabase_functions),
-- as the local stack supplies them: `create extension pg_net` in a migration
-- runs this file instead (stack/db/extensions/index.ts), and stack/net sends
-- the queued requests. Written from pg_net 0.20's documentation and its SQL
-- (signatures, defaults, tables, privileges, the hosted project's grants);
-- its C helpers are plpgsql here. Idempotent.

create schema if not exists net;

do $$
begin
  if to_regtype('net.http_method') is null then
    create domain net.http_method as text
      check (value ilike 'get' or value ilike 'post' or value ilike 'delete');
  end if;
  if to_regtype('net.request_status') is null then
    create type net.request_status as enum ('PENDING', 'SUCCESS', 'ERROR');
  end if;
  if to_regtype('net.http_response') is null then
    create type net.http_response as (status_code integer, headers jsonb, body text);
  end if;
  if to_regtype('net.http_response_result') is null then
    create type net.http_response_result as (status net.request_status, message text, response net.http_response);
  end if;
end
$$;

-- Requests waiting to be sent. pg_net's tables are unlogged; these are not,
-- so a queued request survives any restart of the stack.
create table if not exists net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb,
  body bytea,
  timeout_milliseconds int not null
);

create table if not exists net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out bool,
  error_msg text,
  created timestamptz not null default now()
);
create index if not exists _http_response_created_idx on net._http_response (created);

-- Wakes the stack's sender once the calling transaction commits (a NOTIFY is
-- delivered at commit and dropped on rollback, as pg_net's at-commit wake).
create or replace function net.wake() returns void
language sql as $$
  select pg_notify('stack_net', '')
$$;

create or replace function net.worker_restart() returns boolean
language plpgsql as $$
begin
  perform pg_notify('stack_net', '');
  return true;
end
$$;

create or replace function net.wait_until_running() returns void
language sql as $$
  select
$$;
comment on function net.wait_until_running() is 'waits until the worker is running';

-- The sender runs in the stack's process, which is up whenever this database is served.
create or replace function net.check_worker_is_up() returns void
language sql as $$
  select
$$;
comment on function net.check_worker_is_up() is 'raises an exception if the pg_net background worker is not up, otherwise it doesn''t return anything';

-- Percent-encodes all but A-Z a-z 0-9 - . _ ~ (as curl_easy_escape).
create or replace function net._urlencode_string(string varchar) returns text
language sql immutable as $$
  select case when string is null then null else coalesce((
    select string_agg(
      case when b between 48 and 57 or b between 65 and 90 or b between 97 and 122 or b in (45, 46, 95, 126)
        then chr(b) else '%' || upper(lpad(to_hex(b), 2, '0')) end, '' order by i)
    from (
      select i, get_byte(convert_to(string, 'UTF8'), i) as b
      from generate_series(0, octet_length(convert_to(string, 'UTF8')) - 1) as i
    ) as bytes
  ), '') end
$$;

-- The URL with the parameters appended to its query; a URL curl could not read is refused here, at the call.
create or replace function net._encode_url_with_params_array(url text, params_array text[]) returns text
language plpgsql immutable as $$
declare
  base text;
  fragment text := '';
  param text;
begin
  if url is null or params_array is null then
    return null;
  end if;
  if url !~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#[:space:]]+([/?#][^[:space:]]*)?$' then
    raise exception 'invalid URL "%": Malformed input to a URL function', url;
  end if;
  base := split_part(url, '#', 1);
  if position('#' in url) > 0 then
    fragment := substr(url, position('#' in url));
  end if;
  foreach param in array params_array loop
    continue when param is null;
    base := base || case when position('?' in base) > 0 then '&' else '?' end || param;
  end loop;
  return base || fragment;
end
$$;

-- What the three request functions share: the parameters URL-encoded onto the
-- URL, the row queued, the sender woken at commit.
create or replace function net._enqueue(
  method text, url text, params jsonb, headers jsonb, body jsonb, timeout_milliseconds int
) returns bigint
language plpgsql as $$
declare
  request_id bigint;
  params_array text[];
begin
  select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
    into params_array from jsonb_each_text(params);
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (method, net._encode_url_with_params_array(url, params_array), headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
  returning id into request_id;
  perform net.wake();
  return request_id;
end
$$;

create or replace function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000
) returns bigint
language sql as $$
  select net._enqueue('GET', url, params, headers, null, timeout_milliseconds)
$$;

create or replace function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds int default 5000
) returns bigint
language plpgsql as $$
declare
  content_type text;
begin
  select header_value into content_type
    from jsonb_each_text(coalesce(headers, '{}'::jsonb)) as r(header_name, header_value)
    where lower(header_name) = 'content-type'
    limit 1;
  if content_type is null then
    headers := headers || '{"Content-Type": "application/json"}'::jsonb;
  end if;
  if content_type <> 'application/json' then
    raise exception 'Content-Type header must be "application/json"';
  end if;
  return net._enqueue('POST', url, params, headers, body, timeout_milliseconds);
end
$$;

create or replace function net.http_delete(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000,
  body jsonb default null
) returns bigint
language sql as $$
  select net._enqueue('DELETE', url, params, headers, body, timeout_milliseconds)
$$;

-- Waiting inside a statement for the sender: on PGlite (one connection) the
-- sender could never write the answer while the statement waits, so it is refused.
create or replace function net._await_response(request_id bigint) returns boolean
language plpgsql as $$
begin
  if version() like '%PGlite%' then
    raise exception using
      errcode = '0A000',
      message = 'waiting for a response inside a statement is not possible on the embedded database',
      hint = 'Read net._http_response after the request has been answered, or run the stack on a native PostgreSQL.';
  end if;
  while not exists (select from net._http_response r where r.id = request_id) loop
    perform pg_sleep(0.05);
  end loop;
  return true;
end
$$;

create or replace function net._http_collect_response(request_id bigint, async boolean default true)
returns net.http_response_result
language plpgsql as $$
declare
  rec net._http_response;
begin
  if not async then
    perform net._await_response(request_id);
  end if;
  select * into rec from net._http_response r where r.id = request_id;
  if rec is null or rec.error_msg is not null then
    return ('ERROR', coalesce(rec.error_msg, 'request matching request_id not found'), null)::net.http_response_result;
  end if;
  return ('SUCCESS', 'ok', (rec.status_code, rec.headers, rec.content)::net.http_response)::net.http_response_result;
end
$$;

create or replace function net.http_collect_response(request_id bigint, async boolean default true)
returns net.http_response_result
language plpgsql as $$
begin
  raise notice 'The net.http_collect_response function is deprecated.';
  return net._http_collect_response(request_id, async);
end
$$;

-- pg_net's privileges, then a hosted project's: http_get and http_post run as
-- their owner and only the API roles (and the owner) may call them.
grant usage on schema net to public;
grant all on all sequences in schema net to public;
grant all on all tables in schema net to public;
alter function net.http_get(text, jsonb, jsonb, integer) security definer set search_path = net;
alter function net.http_post(text, jsonb, jsonb, jsonb, integer) security definer set search_path = net;
revoke all on function net.http_get(text, jsonb, jsonb, integer) from public;
revoke all on function net.http_post(text, jsonb, jsonb, jsonb, integer) from public;
grant execute on function net.http_get(text, jsonb, jsonb, integer) to anon, authenticated, service_role;
grant execute on function net.http_post(text, jsonb, jsonb, jsonb, integer) to anon, authenticated, service_role;

-- Database Webhooks ------------------------------------------------------------
-- What a hosted project gets when webhooks are enabled: the supabase_functions
-- schema, its audit table, and the trigger function the dashboard attaches
-- (`execute function supabase_functions.http_request(url, method, headers, params, timeout_ms)`).
do $$
begin
  if not exists (select from pg_roles where rolname = 'supabase_functions_admin') then
    create role supabase_functions_admin noinherit nologin;
  end if;
end
$$;
grant usage on schema net to supabase_functions_admin;
grant execute on function net.http_get(text, jsonb, jsonb, integer) to supabase_functions_admin;
grant execute on function net.http_post(text, jsonb, jsonb, jsonb, integer) to supabase_functions_admin;

create schema if not exists supabase_functions;
grant usage on schema supabase_functions to anon, authenticated, service_role;
grant all privileges on schema supabase_functions to supabase_functions_admin;

create table if not exists supabase_functions.migrations (
  version text primary key,
  inserted_at timestamptz not null default now()
);
insert into supabase_functions.migrations (version) values ('initial'), ('20210809183423_update_grants')
  on conflict do nothing;

create table if not exists supabase_functions.hooks (
  id bigserial primary key,
  hook_table_id integer not null,
  hook_name text not null,
  created_at timestamptz not null default now(),
  request_id bigint
);
create index if not exists supabase_functions_hooks_request_id_idx on supabase_functions.hooks (request_id);
create index if not exists supabase_functions_hooks_h_table_id_h_name_idx on supabase_functions.hooks (hook_table_id, hook_name);
comment on table supabase_functions.hooks is 'Supabase Functions Hooks: Audit trail for triggered hooks.';
grant all on supabase_functions.migrations, supabase_functions.hooks to anon, authenticated, service_role, supabase_functions_admin;
grant all on sequence supabase_functions.hooks_id_seq to anon, authenticated, service_role, supabase_functions_admin;

-- The trigger's arguments: url, method (GET or POST), headers, params, timeout in ms
-- ('null' or absent for the defaults). POST sends the row change as hosted does.
create or replace function supabase_functions.http_request() returns trigger
language plpgsql security definer set search_path = supabase_functions as $$
declare
  request_id bigint;
  payload jsonb;
  url text := tg_argv[0]::text;
  method text := tg_argv[1]::text;
  headers jsonb default '{}'::jsonb;
  params jsonb default '{}'::jsonb;
  timeout_ms integer default 1000;
begin
  if url is null or url = 'null' then
    raise exception 'url argument is missing';
  end if;
  if method is null or method = 'null' then
    raise exception 'method argument is missing';
  end if;
  if tg_argv[2] is null or tg_argv[2] = 'null' then
    headers := '{"Content-Type": "application/json"}'::jsonb;
  else
    headers := tg_argv[2]::jsonb;
  end if;
  if tg_argv[3] is null or tg_argv[3] = 'null' then
    params := '{}'::jsonb;
  else
    params := tg_argv[3]::jsonb;
  end if;
  if tg_argv[4] is null or tg_argv[4] = 'null' then
    timeout_ms := 1000;
  else
    timeout_ms := tg_argv[4]::integer;
  end if;
  case
    when method = 'GET' then
      select net.http_get(url, params, headers, timeout_ms) into request_id;
    when method = 'POST' then
      payload := jsonb_build_object(
        'old_record', old,
        'record', new,
        'type', tg_op,
        'table', tg_table_name,
        'schema', tg_table_schema
      );
      select net.http_post(url, payload, params, headers, timeout_ms) into request_id;
    else
      raise exception 'method argument % is invalid', method;
  end case;
  insert into supabase_functions.hooks (hook_table_id, hook_name, request_id) values (tg_relid, tg_name, request_id);
  return new;
end
$$;
revoke all on function supabase_functions.http_request() from public;
grant execute on function supabase_functions.http_request() to anon, authenticated, service_role, supabase_functions_admin;
