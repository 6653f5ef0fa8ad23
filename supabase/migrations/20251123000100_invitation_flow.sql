-- What the invitation flow needs beyond the table and accept_invitation():
--   invitation_preview(token)   the /invitations/<token> page: team, inviter, role, state,
--                               for anyone holding the link (signed in or not)
--   decline_invitation(token)   the invited person says no (the invitation ends, as if withdrawn)
--   team_has_member_email(team, email)  send-invitation refuses people already in the team;
--                               admins and the owner only
-- Errors follow 20251122000005_rpc.sql: PT404 → 404, P0001 → 400, 42501 → 403.

create function public.invitation_preview(token text)
returns table (
  team_name text,
  team_slug text,
  inviter_name text,
  role public.team_role,
  email text,
  status text,
  expires_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select
    t.name,
    t.slug,
    p.display_name,
    i.role,
    i.email::text,
    case
      when i.accepted_at is not null then 'accepted'
      when i.revoked_at is not null then 'revoked'
      when i.expires_at <= now() then 'expired'
      else 'pending'
    end,
    i.expires_at
  from public.invitations i
  join public.teams t on t.id = i.team_id
  left join public.profiles p on p.id = i.invited_by
  where i.token_hash = encode(extensions.digest(coalesce($1, ''), 'sha256'), 'hex')
$$;

create function public.decline_invitation(token text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  invitation public.invitations;
begin
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
  update public.invitations i set revoked_at = now() where i.id = invitation.id;
end;
$$;

create function public.team_has_member_email(team_id uuid, email text) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.has_role($1, 'admin') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  return exists (
    select 1
    from public.team_members m
    join auth.users u on u.id = m.user_id
    where m.team_id = $1 and lower(u.email) = lower(btrim(coalesce($2, '')))
  );
end;
$$;

revoke execute on function
  public.invitation_preview(text),
  public.decline_invitation(text),
  public.team_has_member_email(uuid, text)
from public, anon, authenticated;

-- The link is the credential: whoever holds it may see what it invites to.
grant execute on function public.invitation_preview(text) to anon, authenticated;
grant execute on function public.decline_invitation(text), public.team_has_member_email(uuid, text) to authenticated;
