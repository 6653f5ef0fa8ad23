-- my_invitations(): the pending invitations sent to the signed-in person's
-- address, with the team's name and who invited them, for /teams. The rows
-- themselves are readable by the invited person, but the team isn't (they are
-- not a member yet), hence a function that shows just these two names.
create function public.my_invitations()
returns table (
  id uuid,
  team_name text,
  inviter_name text,
  role public.team_role,
  created_at timestamptz,
  expires_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, t.name, p.display_name, i.role, i.created_at, i.expires_at
  from public.invitations i
  join public.teams t on t.id = i.team_id
  left join public.profiles p on p.id = i.invited_by
  where i.accepted_at is null and i.revoked_at is null and i.expires_at > now()
    and lower(i.email::text) = lower(coalesce((select auth.jwt()) ->> 'email', ''))
    and auth.uid() is not null
  order by i.created_at desc
  limit 20
$$;

revoke execute on function public.my_invitations() from public, anon, authenticated;
grant execute on function public.my_invitations() to authenticated;
