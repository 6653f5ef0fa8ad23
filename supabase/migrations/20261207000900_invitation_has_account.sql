-- Issue 42: an invitation for an address that has no account yet leads with
-- "Sign up" (and one that has, with "Log in").
--
-- invitation_has_account(token): whether the invited address already has an
-- account. Only for a pending invitation's link, which was sent to that very
-- address, so its holder learns nothing the address's owner doesn't know; an
-- unknown, used, withdrawn or expired link answers false. Open to anon, as
-- invitation_preview() is (20261126000100_aal2_everywhere.sql: left open on
-- purpose): the page is read before signing in.
create function public.invitation_has_account(token text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.invitations i
    join auth.users u on lower(u.email) = lower(i.email::text)
    where i.token_hash = encode(extensions.digest(coalesce($1, ''), 'sha256'), 'hex')
      and i.accepted_at is null
      and i.revoked_at is null
      and i.expires_at > now()
  )
$$;

revoke execute on function public.invitation_has_account(text) from public;
grant execute on function public.invitation_has_account(text) to anon, authenticated;
