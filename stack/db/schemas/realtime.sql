-- The local stack's Realtime service (stack/realtime/). Idempotent; applied on
-- every start after base-schema.sql.
--
-- Hosted Realtime reads changes from a logical replication slot. PGlite has no
-- logical decoding, so here a row trigger ("realtime_capture", kept on exactly
-- the tables of the supabase_realtime publication by
-- realtime.sync_capture_triggers()) queues each change in realtime.changes and
-- wakes the service with NOTIFY. The same capture runs on native PostgreSQL.

create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;

-- Authorization of private channels, as hosted: RLS policies on this table
-- decide who may read (select) and write (insert) broadcast and presence of a
-- topic; realtime.topic() is the channel being checked.
create table if not exists realtime.messages (
  id uuid not null default gen_random_uuid(),
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;

create or replace function realtime.topic() returns text
language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '')::text $$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

-- The change queue: written only by the capture trigger (security definer),
-- read and emptied by the service. No API role can see it.
create table if not exists realtime.changes (
  id bigint generated always as identity primary key,
  schema_name text not null,
  table_name text not null,
  action text not null,
  record jsonb,
  old_record jsonb,
  committed_at timestamptz not null default clock_timestamp()
);
revoke all on realtime.changes from public, anon, authenticated, service_role;

create or replace function realtime.capture_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into realtime.changes (schema_name, table_name, action, record, old_record)
  values (
    tg_table_schema, tg_table_name, tg_op,
    case when tg_op <> 'DELETE' then to_jsonb(new) end,
    case when tg_op <> 'INSERT' then to_jsonb(old) end
  );
  -- one notification per transaction (identical payloads are folded), sent at commit
  perform pg_notify('realtime_changes', '');
  return null;
end
$$;
revoke all on function realtime.capture_change() from public;

-- Puts the capture trigger on every table of the publication and takes it off
-- tables that left it.
create or replace function realtime.sync_capture_triggers() returns void
language plpgsql
as $$
declare
  r record;
begin
  for r in
    select format('%I.%I', p.schemaname, p.tablename) as rel
    from pg_publication_tables p
    where p.pubname = 'supabase_realtime'
      and not exists (
        select 1 from pg_trigger t
        where t.tgrelid = format('%I.%I', p.schemaname, p.tablename)::regclass and t.tgname = 'realtime_capture'
      )
  loop
    execute format(
      'create trigger realtime_capture after insert or update or delete on %s for each row execute function realtime.capture_change()',
      r.rel
    );
  end loop;
  for r in
    select t.tgrelid::regclass::text as rel
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where t.tgname = 'realtime_capture'
      and not exists (
        select 1 from pg_publication_tables p
        where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname
      )
  loop
    execute format('drop trigger realtime_capture on %s', r.rel);
  end loop;
end
$$;
revoke all on function realtime.sync_capture_triggers() from public;

-- Which of the given subscribers (their JWT claims) may see one row, checked as
-- each subscriber's role with its claims, as hosted Realtime's apply_rls does:
-- table privilege first, then a select of the row by its primary key under
-- row-level security. Called by the service's own (superuser) connection.
create or replace function realtime.visible_to(entity regclass, pk jsonb, claims_list jsonb)
returns jsonb
language plpgsql
as $$
declare
  result jsonb := '[]';
  claims jsonb;
  role_name text;
  ok boolean;
  condition text;
  rls boolean;
begin
  select relrowsecurity into rls from pg_class where oid = entity;
  select string_agg(format('%I = ($1 ->> %L)::%s', a.attname, a.attname, format_type(a.atttypid, a.atttypmod)), ' and ')
    into condition
    from jsonb_object_keys(pk) k
    join pg_attribute a on a.attrelid = entity and a.attname = k and not a.attisdropped;
  for claims in select value from jsonb_array_elements(claims_list) loop
    role_name := coalesce(claims ->> 'role', 'anon');
    if role_name not in ('anon', 'authenticated', 'service_role')
       or not has_table_privilege(role_name, entity, 'SELECT') then
      ok := false;
    elsif not rls or condition is null then
      ok := true;
    else
      begin
        perform set_config('role', role_name, true), set_config('request.jwt.claims', claims::text, true);
        execute format('select exists (select 1 from %s where %s)', entity, condition) into ok using pk;
        perform set_config('role', null, true);
      exception when others then
        perform set_config('role', null, true);
        ok := false;
      end;
    end if;
    result := result || to_jsonb(ok);
  end loop;
  perform set_config('request.jwt.claims', null, true);
  return result;
end
$$;
revoke all on function realtime.visible_to(regclass, jsonb, jsonb) from public;

-- What a subscriber may do on a private channel: read (select) and write
-- (insert) realtime.messages rows of its topic for each extension, checked as
-- its role under RLS and always rolled back (the sentinel exception undoes
-- every row and setting of the block), as hosted Realtime checks them.
create or replace function realtime.channel_access(p_topic text, p_claims jsonb, p_extensions text[])
returns jsonb
language plpgsql
as $$
declare
  result jsonb := '{}';
  ids uuid[] := '{}';
  i int;
  seen boolean;
  wrote boolean;
begin
  begin
    for i in 1 .. coalesce(array_length(p_extensions, 1), 0) loop
      ids := ids || gen_random_uuid();
      insert into realtime.messages (id, topic, extension, private) values (ids[i], p_topic, p_extensions[i], true);
    end loop;
    perform set_config('role', coalesce(p_claims ->> 'role', 'anon'), true),
            set_config('request.jwt.claims', p_claims::text, true),
            set_config('realtime.topic', p_topic, true);
    for i in 1 .. coalesce(array_length(p_extensions, 1), 0) loop
      select exists (select 1 from realtime.messages where id = ids[i]) into seen;
      begin
        insert into realtime.messages (topic, extension, private) values (p_topic, p_extensions[i], true);
        wrote := true;
      exception when insufficient_privilege then
        wrote := false;
      end;
      result := result || jsonb_build_object(p_extensions[i], jsonb_build_object('read', seen, 'write', wrote));
    end loop;
    raise exception using errcode = 'RTACL', message = result::text;
  exception when sqlstate 'RTACL' then
    return sqlerrm::jsonb;
  end;
end
$$;
revoke all on function realtime.channel_access(text, jsonb, text[]) from public;
