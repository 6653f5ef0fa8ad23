-- The calls the app makes through /rest/v1/rpc. Errors carry a SQLSTATE that
-- PostgREST maps to a status, and a message a person can read:
--   22023 (bad argument), P0001 (a rule: illegal transition, owner leaving…) → 400
--   23505 (slug taken) → 409;  42501 (role too low) → 403
--   PT404 → 404, for teams, tasks and invitations the caller may not know exist
--   (PostgREST turns SQLSTATE PTxyz into HTTP status xyz).

-- create_team: the team and its owner membership, together or not at all ---------
create function public.create_team(name text, slug text) returns public.teams
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  clean_name text := btrim(coalesce($1, ''));
  clean_slug text := btrim(coalesce($2, ''));
  team public.teams;
begin
  if me is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  if clean_name = '' or char_length(clean_name) > 60 then
    raise exception 'A team name is 1–60 characters.' using errcode = '22023';
  end if;
  if clean_slug !~ '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$' then
    raise exception 'A slug is 3–40 characters of a–z, 0–9 and "-", not starting or ending with "-".'
      using errcode = '22023';
  end if;
  if clean_slug = 'new' then
    raise exception 'That slug is reserved.' using errcode = '22023';
  end if;

  begin
    insert into public.teams (name, slug, created_by)
    values (clean_name, clean_slug, me)
    returning * into team;
  exception when unique_violation then
    raise exception 'That slug is taken.' using errcode = '23505';
  end;
  insert into public.team_members (team_id, user_id, role) values (team.id, me, 'owner');
  return team;
end;
$$;

-- move_task: the board's drag and drop and the panel's status menu ----------------
-- Transitions: backlog → todo → in_progress → done; backlog / todo /
-- in_progress → canceled; done / canceled → todo; any move within a column.
-- position: 0-based place in the target column (clamped to its end; null =
-- the end). Positions stay dense 0..n-1 per (project, status): the project
-- row is locked first, so concurrent moves in one project run one at a time.
create function public.move_task(task_id uuid, status text, "position" integer default null)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid;
  task public.tasks;
  target public.task_status;
  others integer;
  place integer;
begin
  select t.project_id into project from public.tasks t where t.id = $1;
  if project is null or not public.has_project_role(project, 'viewer') then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not public.has_project_role(project, 'member') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;

  perform 1 from public.projects p where p.id = project for update;
  select * into task from public.tasks t where t.id = $1 for update;
  if not found then
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if (select p.archived_at from public.projects p where p.id = project) is not null then
    raise exception 'This project is archived; its tasks are read-only.' using errcode = 'P0001';
  end if;

  if $2 is null or not ($2 = any (enum_range(null::public.task_status)::text[])) then
    raise exception 'Unknown status "%". Use backlog, todo, in_progress, done or canceled.', $2
      using errcode = '22023';
  end if;
  target := $2::public.task_status;
  if $3 is not null and $3 < 0 then
    raise exception 'A position is 0 or more.' using errcode = '22023';
  end if;

  if not (
    target = task.status
    or (task.status, target) in (
      ('backlog'::public.task_status, 'todo'::public.task_status),
      ('todo', 'in_progress'),
      ('in_progress', 'done')
    )
    or (target = 'canceled' and task.status in ('backlog', 'todo', 'in_progress'))
    or (target = 'todo' and task.status in ('done', 'canceled'))
  ) then
    raise exception 'A task can''t move from % to %.', task.status, target
      using errcode = 'P0001',
            hint = 'backlog → todo → in_progress → done; open tasks can be canceled; done or canceled tasks reopen to todo.';
  end if;

  -- take it out of its column, then make room at its new place
  update public.tasks t
  set position = t.position - 1
  where t.project_id = project and t.status = task.status and t.position > task.position;

  select count(*) into others
  from public.tasks t
  where t.project_id = project and t.status = target and t.id <> task.id;
  place := least(coalesce($3, others), others);

  update public.tasks t
  set position = t.position + 1
  where t.project_id = project and t.status = target and t.id <> task.id and t.position >= place;

  update public.tasks t
  set status = target, position = place
  where t.id = task.id
  returning * into task;
  return task;
end;
$$;

-- search_tasks: full text over the tasks the caller can see (row-level security
-- applies: the function runs as the caller) -----------------------------------------
create function public.search_tasks(query text, "limit" integer default 50)
returns table (
  id uuid,
  project_id uuid,
  number integer,
  title text,
  status public.task_status,
  priority public.task_priority,
  assignee_id uuid,
  due_on date,
  labels text[],
  updated_at timestamptz,
  project_key text,
  project_name text,
  project_archived boolean,
  team_id uuid,
  team_slug text,
  team_name text,
  rank real
)
language sql
stable
security invoker
set search_path = ''
as $$
  with q as (
    select websearch_to_tsquery('english'::regconfig, coalesce($1, '')) as tsq
  )
  select t.id, t.project_id, t.number, t.title, t.status, t.priority, t.assignee_id, t.due_on, t.labels,
         t.updated_at, p.key, p.name, p.archived_at is not null, tm.id, tm.slug, tm.name,
         ts_rank(t.search, q.tsq) as rank
  from q
  join public.tasks t on t.search @@ q.tsq
  join public.projects p on p.id = t.project_id
  join public.teams tm on tm.id = p.team_id
  where numnode(q.tsq) > 0
  order by rank desc, t.updated_at desc, t.id
  limit least(greatest(coalesce($2, 50), 1), 50)
$$;

-- team_overview: counts per status and the caller's open tasks, in active
-- projects; members only --------------------------------------------------------------
create function public.team_overview(team_id uuid) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  result json;
begin
  if auth.uid() is null or not public.is_member($1) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  select json_build_object(
    'counts', (
      select json_object_agg(s.status, coalesce(c.n, 0) order by s.status)
      from unnest(enum_range(null::public.task_status)) as s(status)
      left join (
        select t.status, count(*) as n
        from public.tasks t
        join public.projects p on p.id = t.project_id
        where p.team_id = $1 and p.archived_at is null
        group by t.status
      ) c on c.status = s.status
    ),
    'my_open_tasks', coalesce((
      select json_agg(x order by x.due_on nulls last, x.priority desc, x.updated_at desc)
      from (
        select t.id, t.number, t.title, t.status, t.priority, t.due_on, t.labels, t.updated_at,
               t.project_id, p.key as project_key, p.name as project_name
        from public.tasks t
        join public.projects p on p.id = t.project_id
        where p.team_id = $1 and p.archived_at is null
          and t.assignee_id = auth.uid()
          and t.status in ('backlog', 'todo', 'in_progress')
        order by t.due_on nulls last, t.priority desc, t.updated_at desc
        limit 50
      ) x
    ), '[]'::json)
  ) into result;
  return result;
end;
$$;

-- accept_invitation: the link's token, once, while pending; adds the caller with
-- the invited role (someone already in the team keeps their role). The token
-- is the credential: it is accepted by whoever is signed in when opening it.
create function public.accept_invitation(token text) returns public.teams
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  invitation public.invitations;
  team public.teams;
begin
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

  insert into public.team_members (team_id, user_id, role)
  values (invitation.team_id, me, invitation.role)
  on conflict on constraint team_members_pkey do nothing;
  update public.invitations i set accepted_at = now() where i.id = invitation.id;
  select * into team from public.teams t where t.id = invitation.team_id;
  return team;
end;
$$;

-- transfer_ownership: the owner hands over to another member and becomes admin ----
create function public.transfer_ownership(team_id uuid, new_owner_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  if me is null or not public.is_member($1) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  if not public.has_role($1, 'owner') then
    raise exception 'Your role in this team doesn''t allow that.' using errcode = '42501';
  end if;
  if $2 is null or $2 = me then
    raise exception 'Choose another member of the team as the new owner.' using errcode = '22023';
  end if;
  perform 1 from public.team_members m where m.team_id = $1 and m.user_id = $2 for update;
  if not found then
    raise exception 'The new owner must already be a member of the team.' using errcode = '22023';
  end if;
  update public.team_members m set role = 'admin' where m.team_id = $1 and m.user_id = me;
  update public.team_members m set role = 'owner' where m.team_id = $1 and m.user_id = $2;
end;
$$;

-- leave_team: anyone but the owner ----------------------------------------------------
create function public.leave_team(team_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  if me is null or not public.is_member($1) then
    raise exception 'Team not found.' using errcode = 'PT404';
  end if;
  if public.has_role($1, 'owner') then
    raise exception 'The owner can''t leave the team. Transfer ownership first.' using errcode = 'P0001';
  end if;
  delete from public.team_members m where m.team_id = $1 and m.user_id = me;
end;
$$;

-- Only signed-in people call these.
revoke execute on function
  public.create_team(text, text),
  public.move_task(uuid, text, integer),
  public.search_tasks(text, integer),
  public.team_overview(uuid),
  public.accept_invitation(text),
  public.transfer_ownership(uuid, uuid),
  public.leave_team(uuid)
from public, anon;

grant execute on function
  public.create_team(text, text),
  public.move_task(uuid, text, integer),
  public.search_tasks(text, integer),
  public.team_overview(uuid),
  public.accept_invitation(text),
  public.transfer_ownership(uuid, uuid),
  public.leave_team(uuid)
to authenticated;
