-- Invitations answer only to the address they were sent to, and stay ended
-- once they end (issue 22 L9).
--
-- accept_invitation() took whoever held the link ("the token is the
-- credential", 0003): anyone the email was forwarded to, or who saw the link,
-- joined with the invited role. The app's page compared addresses; the RPC
-- did not, so a direct call did. Now accepting and declining both compare the
-- caller's account address (auth.users, not the token's copy) with the
-- invited one, ignoring case, after the link's own state (used, withdrawn,
-- expired: those the link's holder may already see in its preview). Both
-- ask require_aal() first, as every definer RPC (…_aal2_everywhere.sql).
--
-- Admins could also PATCH revoked_at back to null and reopen a withdrawn or
-- declined invitation. Accepted and withdrawn are final now: the revoke
-- policy reaches pending invitations only and can only set revoked_at, and a
-- trigger refuses any change to an ended invitation from anyone (the service
-- role and our own functions included). An expired invitation may still be
-- withdrawn (it stays ended either way); nothing reopens one.

create function public.require_invited_address(invited extensions.citext) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  mine text;
begin
  select u.email into mine from auth.users u where u.id = auth.uid();
  if mine is null or lower(mine) <> lower(invited::text) then
    raise exception 'This invitation is for %. Sign in with that address to answer it.', invited
      using errcode = '42501';
  end if;
end;
$$;

revoke execute on function public.require_invited_address(extensions.citext) from public, anon, authenticated;

create or replace function public.accept_invitation(token text) returns public.teams
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  invitation public.invitations;
  team public.teams;
begin
  perform public.require_aal();
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  select * into invitation
  from public.invitations i
  where i.token_hash = encode(extensions.digest(coalesce($1, ''), 'sha256'), 'hex')
  for update;
  if not found then
    raise exception 'This invitation link is not valid.' using errcode = 'PT404';
  end if;
  if invitation.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = 'P0001';
  end if;
  if invitation.revoked_at is not null then
    raise exception 'This invitation was withdrawn.' using errcode = 'P0001';
  end if;
  if invitation.expires_at <= now() then
    raise exception 'This invitation has expired. Ask for a new one.' using errcode = 'P0001';
  end if;
  perform public.require_invited_address(invitation.email);

  insert into public.team_members (team_id, user_id, role)
  values (invitation.team_id, me, invitation.role)
  on conflict on constraint team_members_pkey do nothing;
  update public.invitations i set accepted_at = now() where i.id = invitation.id;
  select * into team from public.teams t where t.id = invitation.team_id;
  return team;
end;
$$;

create or replace function public.decline_invitation(token text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  invitation public.invitations;
begin
  perform public.require_aal();
  if auth.uid() is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  select * into invitation
  from public.invitations i
  where i.token_hash = encode(extensions.digest(coalesce($1, ''), 'sha256'), 'hex')
  for update;
  if not found then
    raise exception 'This invitation link is not valid.' using errcode = 'PT404';
  end if;
  if invitation.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = 'P0001';
  end if;
  if invitation.revoked_at is not null then
    raise exception 'This invitation was withdrawn.' using errcode = 'P0001';
  end if;
  perform public.require_invited_address(invitation.email);
  update public.invitations i set revoked_at = now() where i.id = invitation.id;
end;
$$;

create function public.invitations_stay_ended() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (old.accepted_at is not null or old.revoked_at is not null) and new is distinct from old then
    raise exception 'This invitation has ended (%); send a new one instead.',
      case when old.accepted_at is not null then 'accepted' else 'withdrawn' end
      using errcode = '23514';
  end if;
  return new;
end;
$$;

revoke execute on function public.invitations_stay_ended() from public, anon, authenticated;

create trigger invitations_stay_ended
before update on public.invitations
for each row execute function public.invitations_stay_ended();

drop policy "admins revoke pending invitations" on public.invitations;

create policy "admins revoke pending invitations"
on public.invitations for update
to authenticated
using (public.has_role(team_id, 'admin') and accepted_at is null and revoked_at is null)
with check (public.has_role(team_id, 'admin') and revoked_at is not null);
