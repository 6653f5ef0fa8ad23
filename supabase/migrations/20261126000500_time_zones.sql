-- A time zone per person (PRODUCT.md §12; docs/decisions/0029-time.md).
--
-- profiles.time_zone is an IANA name (`Europe/Berlin`), UTC unless chosen.
-- It is written the way the display name is: the app puts it into the
-- account's metadata (auth.updateUser({ data: { time_zone } }), or the
-- sign-up's metadata), so every access token carries it and a page needs no
-- read to print dates in it; the triggers below copy it into the profile,
-- which the database's own jobs (reminders, digests) read. The API roles
-- cannot write the column directly, so the two never disagree.

-- Whether Postgres knows `name` as a zone: an IANA-style name (Area/City, or
-- UTC), never an abbreviation or a POSIX rule, that `at time zone` accepts.
-- (pg_timezone_names would say the same but reads the whole tz database: 47 ms
-- a call on PGlite, against well under 1 ms for this.)
create function public.is_time_zone(name text) returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  if name is null or char_length(name) > 64
     or (name <> 'UTC' and name !~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9][A-Za-z0-9_+-]*){1,2}$') then
    return false;
  end if;
  perform now() at time zone name;
  return true;
exception when invalid_parameter_value then
  return false;
end;
$$;

revoke execute on function public.is_time_zone(text) from public, anon, authenticated;

alter table public.profiles add column time_zone text not null default 'UTC';

-- Checked by a trigger rather than a check constraint: whether a name is a
-- zone depends on the server's tz database, which a constraint may not
-- consult. Message: PRODUCT.md §16.
create function public.profiles_check_time_zone() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not public.is_time_zone(new.time_zone) then
    raise exception 'Choose a time zone from the list.' using errcode = '22023', column = 'time_zone';
  end if;
  return new;
end;
$$;

revoke execute on function public.profiles_check_time_zone() from public, anon, authenticated;

create trigger profiles_check_time_zone
before insert or update of time_zone on public.profiles
for each row execute function public.profiles_check_time_zone();

-- The zone in an account's metadata, if it is one; else null.
create function public.metadata_time_zone(meta jsonb) returns text
language sql
stable
set search_path = ''
as $$
  select case when jsonb_typeof(meta) = 'object' and public.is_time_zone(meta ->> 'time_zone')
              then meta ->> 'time_zone' end
$$;

revoke execute on function public.metadata_time_zone(jsonb) from public, anon, authenticated;

-- A new account's profile takes the zone its sign-up sent (the browser's);
-- none, or one Postgres doesn't know, leaves UTC: a sign-up never fails over it.
create function public.handle_new_user_time_zone() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  zone text := public.metadata_time_zone(new.raw_user_meta_data);
begin
  if zone is not null then
    update public.profiles set time_zone = zone where id = new.id;
  end if;
  return new;
end;
$$;

revoke execute on function public.handle_new_user_time_zone() from public, anon, authenticated;

-- after on_auth_user_created (triggers of one event fire in name order), which made the profile
create trigger on_auth_user_created_time_zone
after insert on auth.users
for each row execute function public.handle_new_user_time_zone();

-- A changed zone in the metadata moves the profile's; one Postgres doesn't
-- know is refused, so the token can never carry a zone the profile lacks.
create function public.handle_user_time_zone_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  sent text := case when jsonb_typeof(new.raw_user_meta_data) = 'object' then new.raw_user_meta_data ->> 'time_zone' end;
  before text := case when jsonb_typeof(old.raw_user_meta_data) = 'object' then old.raw_user_meta_data ->> 'time_zone' end;
begin
  if sent is distinct from before and sent is not null then
    if not public.is_time_zone(sent) then
      raise exception 'Choose a time zone from the list.' using errcode = '22023';
    end if;
    update public.profiles set time_zone = sent where id = new.id;
  end if;
  return new;
end;
$$;

revoke execute on function public.handle_user_time_zone_change() from public, anon, authenticated;

create trigger on_auth_user_time_zone_updated
after update of raw_user_meta_data on auth.users
for each row execute function public.handle_user_time_zone_change();
