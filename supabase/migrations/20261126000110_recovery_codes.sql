-- Recovery codes for two-factor sign-in (docs/decisions/0020, issue 22 H3):
-- ten one-time codes shown once when the first authenticator app is turned
-- on, so a lost phone is not a lost account. Hosted Supabase Auth has no
-- recovery codes, so they live here, built on what a hosted project offers:
--
--   new_recovery_codes()        aal2 only: replaces the account's codes with ten
--                               new ones and returns them (the only time they
--                               exist in plain text); only their SHA-256 is kept
--                               (core sha256() and gen_random_uuid(): no extension)
--   recovery_codes_left()       how many are left (the security page)
--   redeem_recovery_code(code)  at aal1 (that is the point): is this one of the
--                               account's codes? The app server then removes the
--                               account's factors with the service role (GoTrue's
--                               admin API), refreshes the session, and asks the
--                               person to set up an app again.
--
-- A code is spent when it is redeemed (used_at). Once the account has no
-- verified factor left, every code goes with it (the trigger below): the
-- next app brings ten new ones. Until the factor is removed, a code spent in
-- the last 15 minutes still redeems, so a removal that failed halfway (the
-- backend down) can be retried with the same code.

create table public.mfa_recovery_codes (
  user_id uuid not null references auth.users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  primary key (user_id, code_hash),
  constraint mfa_recovery_codes_hash_format check (code_hash ~ '^[0-9a-f]{64}$')
);

comment on table public.mfa_recovery_codes is
  'SHA-256 of each account''s two-factor recovery codes (with the user id); read and written only by the functions below.';

-- nobody reads or writes the rows through the API, not even their owner
alter table public.mfa_recovery_codes enable row level security;
revoke all on table public.mfa_recovery_codes from anon, authenticated;
create policy "two-factor accounts need aal2" on public.mfa_recovery_codes
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

-- A code as typed ("ABCDE-fghij", spaces, dashes) → its stored hash.
create function public.recovery_code_hash(person uuid, code text) returns text
language sql
immutable
set search_path = ''
as $$
  select encode(
    sha256(convert_to(person::text || ':' || lower(regexp_replace(coalesce(code, ''), '[\s-]', '', 'g')), 'UTF8')),
    'hex'
  )
$$;

revoke execute on function public.recovery_code_hash(uuid, text) from public, anon, authenticated;

create function public.new_recovery_codes() returns text[]
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  -- 32 symbols, no 0/o, 1/l: 5 random bits each, 50 bits a code
  alphabet constant text := 'abcdefghijkmnpqrstuvwxyz23456789';
  codes text[] := '{}';
  bytes bytea;
  code text;
  j integer;
begin
  perform public.require_aal();
  if me is null or coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2' then
    raise exception 'Recovery codes are made by a session that has entered a code from the authenticator app.'
      using errcode = '42501';
  end if;
  if not exists (select 1 from auth.mfa_factors f where f.user_id = me and f.status = 'verified') then
    raise exception 'Recovery codes come with an authenticator app: set one up first.' using errcode = 'P0001';
  end if;
  delete from public.mfa_recovery_codes r where r.user_id = me;
  for i in 1 .. 10 loop
    -- a v4 uuid's bytes 0-5 and 10-15 are random (6 and 8 carry its version and variant)
    bytes := uuid_send(gen_random_uuid());
    code := '';
    foreach j in array array[0, 1, 2, 3, 4, 5, 10, 11, 12, 13] loop
      code := code || substr(alphabet, 1 + (get_byte(bytes, j) & 31), 1);
    end loop;
    code := substr(code, 1, 5) || '-' || substr(code, 6, 5);
    insert into public.mfa_recovery_codes (user_id, code_hash) values (me, public.recovery_code_hash(me, code));
    codes := codes || code;
  end loop;
  return codes;
end;
$$;

create function public.recovery_codes_left() returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform public.require_aal();
  return (select count(*)::integer from public.mfa_recovery_codes r where r.user_id = auth.uid() and r.used_at is null);
end;
$$;

-- Called at aal1 on purpose (it is the way past the authenticator app), so
-- it does not ask require_aal(). 50 random bits a code: guessing one of ten
-- takes ~10^14 tries on average, so no attempt counter.
create function public.redeem_recovery_code(code text) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  update public.mfa_recovery_codes r
  set used_at = coalesce(r.used_at, now())
  where r.user_id = me
    and r.code_hash = public.recovery_code_hash(me, $1)
    and (r.used_at is null or r.used_at > now() - interval '15 minutes');
  return found;
end;
$$;

revoke execute on function public.new_recovery_codes(), public.recovery_codes_left(), public.redeem_recovery_code(text)
  from public, anon;
grant execute on function public.new_recovery_codes(), public.recovery_codes_left(), public.redeem_recovery_code(text)
  to authenticated;

-- The claim trigger of 20251125000700, which now also drops the codes once
-- the account has no verified factor left (they belonged to that app).
create or replace function public.sync_mfa_enrolled() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid := coalesce(new.user_id, old.user_id);
  enrolled boolean;
begin
  select exists (select 1 from auth.mfa_factors f where f.user_id = person and f.status = 'verified') into enrolled;
  -- only when it changes (and not for a user being deleted: the row is gone by now)
  update auth.users
  set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('mfa_enrolled', enrolled)
  where id = person
    and (raw_app_meta_data -> 'mfa_enrolled') is distinct from to_jsonb(enrolled);
  if not enrolled then
    delete from public.mfa_recovery_codes r where r.user_id = person;
  end if;
  return null;
end;
$$;
