-- Two-factor sign-in (docs/decisions/0020-two-factor-sign-in.md).
--
-- The app decides on every page whether a session must step up to aal2, from
-- the access token's own claims: `aal` says where the session is, and
-- `app_metadata.mfa_enrolled` says whether the account has a verified factor.
-- The token is signed and app_metadata is only writable with the service role
-- (unlike user_metadata, which the signed-in person can change), so the flag
-- can be trusted, and no page needs a round trip to list factors. This
-- trigger keeps the flag true to auth.mfa_factors, however a factor is
-- enrolled, verified or removed (the app, a client, the admin API); a token
-- carries the new value from its next issue (sign-in, verify, refresh).
create function public.sync_mfa_enrolled() returns trigger
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
  return null;
end;
$$;

revoke execute on function public.sync_mfa_enrolled() from public, anon, authenticated;

create trigger on_mfa_factor_changed
after insert or update of status or delete on auth.mfa_factors
for each row execute function public.sync_mfa_enrolled();
