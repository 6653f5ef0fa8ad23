-- Profiles: one per auth user, made by a trigger when the user is created.
-- Conventions for every migration of ours (docs/decisions/0003):
--   * functions pin `set search_path = ''` and qualify every name;
--   * the API roles get only the privileges the product needs (anon: none),
--     row-level security decides which rows;
--   * trigger functions are not callable through the API.

-- Shared: keep updated_at current ------------------------------------------------
create function public.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

revoke execute on function public.set_updated_at() from public, anon, authenticated;

-- profiles ------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username extensions.citext not null,
  display_name text not null,
  avatar_path text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_username_key unique (username),
  -- citext's own ~ is case-insensitive, so the format is checked on the text
  constraint profiles_username_format check (username::text ~ '^[a-z0-9_]{3,30}$'),
  constraint profiles_display_name_length check (btrim(display_name) <> '' and char_length(display_name) <= 60),
  -- avatars live in bucket `avatars` under the owner's own folder: <user id>/<file>
  constraint profiles_avatar_path_own_folder check (
    avatar_path is null or (avatar_path like id::text || '/_%' and char_length(avatar_path) <= 1024)
  )
);

comment on table public.profiles is 'One per auth user (created by trigger on auth.users). Visible to the user and to people sharing a team.';

create trigger profiles_set_updated_at
before update on public.profiles
for each row execute function public.set_updated_at();

-- A profile for every new auth user ------------------------------------------------
-- display_name: metadata display_name (or an OAuth provider's full_name / name),
-- else the email's local part, else "Teammate". username: derived from it,
-- lowercased, everything outside [a-z0-9_] replaced by _, padded to 3, cut to
-- 30, and made unique with a numeric suffix. Must never fail a sign-up: users
-- come with no metadata, odd metadata (not an object), odd emails or none.
create function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := case when jsonb_typeof(new.raw_user_meta_data) = 'object' then new.raw_user_meta_data else '{}'::jsonb end;
  local_part text := nullif(btrim(split_part(coalesce(new.email, ''), '@', 1)), '');
  name text;
  base text;
  candidate text;
  suffix int := 1;
begin
  name := coalesce(
    nullif(btrim(meta ->> 'display_name'), ''),
    nullif(btrim(meta ->> 'full_name'), ''),
    nullif(btrim(meta ->> 'name'), ''),
    local_part,
    'Teammate'
  );
  name := btrim(left(name, 60));

  base := regexp_replace(lower(name), '[^a-z0-9_]', '_', 'g');
  if base !~ '[a-z0-9]' then
    -- a name with no latin letters or digits: try the email, then a neutral word
    base := regexp_replace(lower(coalesce(local_part, '')), '[^a-z0-9_]', '_', 'g');
    if base !~ '[a-z0-9]' then
      base := 'user';
    end if;
  end if;
  -- rpad would also cut a longer name to 3
  base := left(case when char_length(base) < 3 then rpad(base, 3, '_') else base end, 30);

  loop
    candidate := case when suffix = 1 then base else left(base, 30 - length(suffix::text)) || suffix::text end;
    begin
      insert into public.profiles (id, username, display_name) values (new.id, candidate, name);
      return new;
    exception when unique_violation then
      if exists (select 1 from public.profiles p where p.id = new.id) then
        raise;
      end if;
      -- jump past the names already taken instead of trying them one by one
      suffix := greatest(
        suffix + 1,
        (select count(*)::int + 1 from public.profiles p where starts_with(p.username::text, left(base, 24)))
      );
    end;
  end loop;
end;
$$;

revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
after insert on auth.users
for each row execute function public.handle_new_user();

-- When the display name in the user's metadata changes (auth.updateUser({ data })),
-- the profile follows. Editing the profile directly does not write back to
-- the metadata: profiles.display_name is what the app shows.
create function public.handle_user_metadata_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  name text;
begin
  if jsonb_typeof(new.raw_user_meta_data) = 'object'
     and (new.raw_user_meta_data ->> 'display_name') is distinct from
         (case when jsonb_typeof(old.raw_user_meta_data) = 'object' then old.raw_user_meta_data ->> 'display_name' end)
  then
    name := btrim(left(btrim(new.raw_user_meta_data ->> 'display_name'), 60));
    if name <> '' then
      update public.profiles set display_name = name where id = new.id;
    end if;
  end if;
  return new;
end;
$$;

revoke execute on function public.handle_user_metadata_change() from public, anon, authenticated;

create trigger on_auth_user_metadata_updated
after update of raw_user_meta_data on auth.users
for each row execute function public.handle_user_metadata_change();

-- Privileges (row-level security and the read policy come with team_members) -----
alter table public.profiles enable row level security;

revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (username, display_name, avatar_path) on table public.profiles to authenticated;

create policy "people update their own profile"
on public.profiles for update
to authenticated
using (id = (select auth.uid()))
with check (id = (select auth.uid()));
