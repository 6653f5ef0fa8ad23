-- pg_cron's SQL surface (Supabase Cron), as the local stack supplies it:
-- `create extension pg_cron` in a migration runs this file instead
-- (stack/db/extensions/index.ts), and stack/cron runs the jobs. Written from
-- pg_cron 1.6's documentation and behaviour: the tables, functions, errors
-- and row-level security of the real extension; its C code is our plpgsql.
-- Idempotent. Functions run as the extension's owner (the migration user),
-- as pg_cron's do; cron._caller() names the role that called them.

create schema if not exists cron;
create sequence if not exists cron.jobid_seq;
create sequence if not exists cron.runid_seq;
grant select on sequence cron.jobid_seq, cron.runid_seq to public;

create table if not exists cron.job (
  jobid bigint primary key default nextval('cron.jobid_seq'),
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport int not null default coalesce(inet_server_port(), 5432),
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text,
  constraint jobname_username_uniq unique (jobname, username)
);
grant select on cron.job to public;
alter table cron.job enable row level security;
drop policy if exists cron_job_policy on cron.job;
create policy cron_job_policy on cron.job using (username = current_user);

create table if not exists cron.job_run_details (
  jobid bigint,
  runid bigint primary key default nextval('cron.runid_seq'),
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
grant select, delete on cron.job_run_details to public;
alter table cron.job_run_details enable row level security;
drop policy if exists cron_job_run_details_policy on cron.job_run_details;
create policy cron_job_run_details_policy on cron.job_run_details using (username = current_user);
create index if not exists job_run_details_jobid_runid_idx on cron.job_run_details (jobid, runid desc);

-- The stack's scheduler reloads its jobs when this fires (delivered at commit, as
-- pg_cron's cache invalidation is).
create or replace function cron.job_cache_invalidate() returns trigger
language plpgsql as $$
begin
  perform pg_notify('stack_cron', '');
  return null;
end
$$;
drop trigger if exists cron_job_cache_invalidate on cron.job;
create trigger cron_job_cache_invalidate after insert or update or delete or truncate on cron.job
  for each statement execute function cron.job_cache_invalidate();

-- Who calls a cron function: `current_user` where it is called, as pg_cron
-- (GetUserId()) records it in cron.job.username. Inside a security definer
-- function that is the function's owner, not the API role of the request.
-- Our functions must write cron.job, so the work is done by security definer
-- functions, which cannot see their caller's current_user; the functions
-- people call run with the caller's rights instead, write the caller here
-- (the row policy lets a role write only its own name) and hand the row's
-- token over, and the definer side takes the name back out (issue 35).
-- The row is deleted in the transaction that wrote it: never seen by others.
create table if not exists cron._callers (
  token uuid primary key,
  username text not null default current_user
);
alter table cron._callers enable row level security;
drop policy if exists cron_callers_own on cron._callers;
create policy cron_callers_own on cron._callers for insert with check (username = current_user);
revoke all on cron._callers from public;
grant insert on cron._callers to public;

create or replace function cron._enter() returns uuid
language plpgsql volatile security invoker set search_path = pg_catalog as $$
declare
  t uuid := gen_random_uuid();
begin
  insert into cron._callers (token) values (t);
  return t;
end
$$;

create or replace function cron._caller(t uuid) returns text
language plpgsql volatile security definer set search_path = pg_catalog as $$
declare
  who text;
begin
  delete from cron._callers where token = t returning username into who;
  if who is null then
    raise exception using errcode = '42501', message = 'permission denied for schema cron';
  end if;
  return who;
end
$$;
drop function if exists cron._caller();

create or replace function cron._is_superuser(role_name text) returns boolean
language sql stable set search_path = pg_catalog as $$
  select coalesce((select rolsuper from pg_roles where rolname = role_name), false)
$$;

-- Whether a schedule is one pg_cron accepts: five cron fields (numbers, names
-- of months and days, `*`, ranges, steps, lists; `$` for the last day of the
-- month), an @-macro, or '[1-59] seconds'. stack/cron/schedule.ts reads the same
-- syntax to run the jobs; their tests share the cases.
-- One number of a schedule's field: digits, or a month's or day's name (pg_cron's names, any case).
create or replace function cron._schedule_value(field int, token text) returns int
language sql immutable set search_path = pg_catalog as $$
  select case
    when token ~ '^\d{1,9}$' then token::int
    when field = 4 then array_position(array['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'], lower(token))
    when field = 5 then array_position(array['sun','mon','tue','wed','thu','fri','sat'], lower(token)) - 1
  end
$$;

-- Whether a schedule is one pg_cron accepts: five cron fields (numbers, names
-- of months and days, `*`, ranges, steps, lists; `$` for the last day of the
-- month), an @-macro, or '[1-59] seconds'. stack/cron/schedule.ts reads the same
-- syntax to run the jobs; their tests share the cases.
create or replace function cron._valid_schedule(schedule text) returns boolean
language plpgsql immutable set search_path = pg_catalog as $$
declare
  s text := btrim(schedule, E' \t\n\r');
  seconds text[];
  fields text[];
  lo int[] := array[0, 0, 1, 1, 0];
  hi int[] := array[59, 23, 31, 12, 7];
  item text;
  m text[];
  a int;
  b int;
begin
  if schedule is null or length(schedule) >= 1000 then
    return false;
  end if;
  seconds := regexp_match(lower(s), '^(\d{1,9})\s*seconds?$');
  if seconds is not null then
    return seconds[1]::int between 1 and 59;
  end if;
  if left(s, 1) = '@' then
    return (regexp_match(s, '^@(\S*)'))[1] in ('reboot', 'restart', 'yearly', 'annually', 'monthly', 'weekly', 'daily', 'midnight', 'hourly');
  end if;
  fields := regexp_split_to_array(s, '[ \t]+');
  if coalesce(array_length(fields, 1), 0) < 5 then
    return false;
  end if;
  for i in 1 .. 5 loop
    continue when i = 3 and fields[i] = '$';
    foreach item in array string_to_array(fields[i], ',') loop
      -- * | n | n-m, then an optional /step (not after a single number)
      m := regexp_match(item, '^(\*|[A-Za-z0-9]+)(?:-([A-Za-z0-9]+))?(?:/(\d{1,9}))?$');
      if m is null or (m[1] = '*' and m[2] is not null) or (m[1] <> '*' and m[2] is null and m[3] is not null) then
        return false;
      end if;
      if m[3] is not null and (m[3]::int < 1 or m[3]::int > hi[i]) then
        return false;
      end if;
      if m[1] <> '*' then
        a := cron._schedule_value(i, m[1]);
        b := coalesce(cron._schedule_value(i, m[2]), a);
        if a is null or b is null or a < lo[i] or a > hi[i] or b < lo[i] or b > hi[i]
           or (m[2] is not null and cron._schedule_value(i, m[2]) is null) then
          return false;
        end if;
      end if;
    end loop;
  end loop;
  return true;
end
$$;

create or replace function cron._check_schedule(schedule text) returns void
language plpgsql immutable set search_path = pg_catalog as $$
begin
  if not cron._valid_schedule(schedule) then
    raise exception using
      errcode = '22023',
      message = format('invalid schedule: %s', schedule),
      hint = 'Use cron format (e.g. 5 4 * * *), or interval format ''[1-59] seconds''';
  end if;
end
$$;

-- A role a job may be given explicitly: it must exist and be able to log in (as pg_cron checks).
create or replace function cron._check_job_role(role_name text) returns void
language plpgsql stable set search_path = pg_catalog as $$
begin
  if not exists (select from pg_roles where rolname = role_name) then
    raise exception 'role "%" does not exist', role_name;
  end if;
  if not (select rolcanlogin from pg_roles where rolname = role_name) then
    raise exception using
      message = format('role "%s" can not log in', role_name),
      detail = 'Jobs may only be run by roles that have the LOGIN attribute.';
  end if;
end
$$;

-- The stack runs jobs in its own database only.
create or replace function cron._check_database(database_name text) returns void
language plpgsql stable set search_path = pg_catalog as $$
begin
  if not exists (select from pg_database where datname = database_name) then
    raise exception 'database "%" does not exist', database_name;
  end if;
  if database_name <> current_database() then
    raise exception using
      errcode = '0A000',
      message = format('the local stack runs jobs in database "%s" only', current_database());
  end if;
end
$$;

drop function if exists cron._schedule(text, text, text, text, text, boolean);
create or replace function cron._schedule(
  p_token uuid, p_job_name text, p_schedule text, p_command text, p_database text, p_username text, p_active boolean,
  p_in_database boolean
) returns bigint
language plpgsql security definer set search_path = pg_catalog as $$
declare
  caller text := cron._caller(p_token);
  owner_name text := caller;
  id bigint;
begin
  -- schedule_in_database is for the roles an admin granted it to
  if p_in_database and not has_function_privilege(
    caller, 'cron.schedule_in_database(text, text, text, text, text, boolean)', 'execute'
  ) then
    raise exception using errcode = '42501', message = 'permission denied for function schedule_in_database';
  end if;
  if p_schedule is null then
    raise exception 'schedule can not be NULL';
  end if;
  if p_command is null then
    raise exception 'command can not be NULL';
  end if;
  perform cron._check_schedule(p_schedule);
  if p_username is not null then
    if not cron._is_superuser(caller) then
      raise exception 'must be superuser to create a job for another role';
    end if;
    perform cron._check_job_role(p_username);
    owner_name := p_username;
  end if;
  if p_database is not null then
    perform cron._check_database(p_database);
  end if;
  insert into cron.job (schedule, command, database, username, active, jobname)
  values (p_schedule, p_command, coalesce(p_database, current_database()), owner_name, coalesce(p_active, true), p_job_name)
  on conflict on constraint jobname_username_uniq do update
    set schedule = excluded.schedule, command = excluded.command, database = excluded.database
  returning jobid into id;
  return id;
end
$$;

create or replace function cron.schedule(schedule text, command text) returns bigint
language sql strict security invoker set search_path = pg_catalog as $$
  select cron._schedule(cron._enter(), null, schedule, command, null, null, true, false)
$$;
comment on function cron.schedule(text, text) is 'schedule a pg_cron job';

create or replace function cron.schedule(job_name text, schedule text, command text) returns bigint
language plpgsql security invoker set search_path = pg_catalog as $$
begin
  if job_name is null then
    raise exception 'job_name can not be NULL';
  end if;
  return cron._schedule(cron._enter(), job_name, schedule, command, null, null, true, false);
end
$$;
comment on function cron.schedule(text, text, text) is 'schedule a pg_cron job';

create or replace function cron.schedule_in_database(
  job_name text, schedule text, command text, database text, username text default null, active boolean default true
) returns bigint
language plpgsql security invoker set search_path = pg_catalog as $$
begin
  if job_name is null then
    raise exception 'job_name can not be NULL';
  end if;
  return cron._schedule(cron._enter(), job_name, schedule, command, database, username, active, true);
end
$$;
revoke all on function cron.schedule_in_database(text, text, text, text, text, boolean) from public;

create or replace function cron._unschedule(p_token uuid, job_id bigint) returns boolean
language plpgsql strict security definer set search_path = pg_catalog as $$
declare
  caller text := cron._caller(p_token);
  owner_name text;
begin
  select username into owner_name from cron.job where jobid = job_id;
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
  if owner_name <> caller and not has_table_privilege(caller, 'cron.job', 'DELETE') then
    raise exception using errcode = '42501', message = 'permission denied for table job';
  end if;
  delete from cron.job where jobid = job_id;
  return true;
end
$$;
create or replace function cron.unschedule(job_id bigint) returns boolean
language sql strict security invoker set search_path = pg_catalog as $$
  select cron._unschedule(cron._enter(), job_id)
$$;
comment on function cron.unschedule(bigint) is 'unschedule a pg_cron job';

create or replace function cron._unschedule(p_token uuid, job_name text) returns boolean
language plpgsql strict security definer set search_path = pg_catalog as $$
declare
  caller text := cron._caller(p_token);
begin
  delete from cron.job j where j.jobname = _unschedule.job_name and j.username = caller;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end
$$;
create or replace function cron.unschedule(job_name text) returns boolean
language sql strict security invoker set search_path = pg_catalog as $$
  select cron._unschedule(cron._enter(), job_name)
$$;
comment on function cron.unschedule(text) is 'unschedule a pg_cron job';

create or replace function cron._alter_job(
  p_token uuid,
  job_id bigint,
  schedule text,
  command text,
  database text,
  username text,
  active boolean
) returns void
language plpgsql security definer set search_path = pg_catalog as $$
declare
  caller text := cron._caller(p_token);
  superuser boolean := cron._is_superuser(caller);
begin
  -- as pg_cron: an admin decides whether alter_job is safe by granting execute
  if not has_function_privilege(caller, 'cron.alter_job(bigint, text, text, text, text, boolean)', 'execute') then
    raise exception using errcode = '42501', message = 'permission denied for function alter_job';
  end if;
  if job_id is null then
    raise exception 'job_id can not be NULL';
  end if;
  if _alter_job.username is not null then
    if not superuser then
      raise exception 'must be superuser to alter username';
    end if;
    perform cron._check_job_role(_alter_job.username);
  end if;
  if _alter_job.database is not null then
    perform cron._check_database(_alter_job.database);
  end if;
  if _alter_job.schedule is not null then
    perform cron._check_schedule(_alter_job.schedule);
  end if;
  if num_nonnulls(_alter_job.schedule, _alter_job.command, _alter_job.database, _alter_job.username, _alter_job.active) = 0 then
    raise exception using
      message = 'no updates specified',
      hint = 'You must specify at least one job attribute to change when calling alter_job';
  end if;
  update cron.job j set
    schedule = coalesce(_alter_job.schedule, j.schedule),
    command = coalesce(_alter_job.command, j.command),
    database = coalesce(_alter_job.database, j.database),
    username = coalesce(_alter_job.username, j.username),
    active = coalesce(_alter_job.active, j.active)
  where j.jobid = job_id and (superuser or j.username = caller);
  if not found then
    raise exception 'Job % does not exist or you don''t own it', job_id;
  end if;
end
$$;
create or replace function cron.alter_job(
  job_id bigint,
  schedule text default null,
  command text default null,
  database text default null,
  username text default null,
  active boolean default null
) returns void
language sql security invoker set search_path = pg_catalog as $$
  select cron._alter_job(cron._enter(), job_id, schedule, command, database, username, active)
$$;
comment on function cron.alter_job(bigint, text, text, text, text, boolean)
  is 'Alter the job identified by job_id. Any option left as NULL will not be modified.';
-- as pg_cron: an admin decides whether alter_job is safe by granting execute
revoke all on function cron.alter_job(bigint, text, text, text, text, boolean) from public;

-- the functions behind the public ones take their caller from cron._callers; any role may call them
grant execute on function cron._schedule(uuid, text, text, text, text, text, boolean, boolean) to public;
