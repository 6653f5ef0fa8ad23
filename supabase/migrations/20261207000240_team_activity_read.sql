-- The team's activity page in one request that walks the team's events newest first
-- (issue 37; docs/decisions/0034-scale.md).
--
-- The page read task_events through the REST API, naming the team by its slug in an embed
-- (`team:teams!inner(slug)`): the database could not walk task_events_team_idx
-- (team_id, created_at desc, id desc) for a team it only met through the join, and sorted every
-- event of the team for each page (10,000 tasks and 200,000 events: 1.3 s, 10× the demo team's).
-- team_activity() names the team's id first, so a page is the index's first 51 entries (before a
-- cursor: from the cursor on). Security invoker: row-level security decides as before (the
-- person's teams' events, the tasks and profiles they can see).

create function public.team_activity(
  team_slug text,
  project_key text default null,
  person text default null,
  before_at timestamptz default null,
  before_id uuid default null,
  max_rows integer default 51
) returns json
language sql
stable
set search_path = ''
as $$
  select coalesce(json_agg(x order by x.created_at desc, x.id desc), '[]'::json)
  from (
    select e.id, e.kind, e.data, e.created_at, e.actor_id, e.task_number, e.task_title,
           (select json_build_object('display_name', a.display_name, 'username', a.username)
            from public.profiles a where a.id = e.actor_id) as actor,
           (select json_build_object('number', t.number, 'title', t.title)
            from public.tasks t where t.id = e.task_id) as task,
           json_build_object('key', p.key) as project
    from public.task_events e
    join public.projects p on p.id = e.project_id
    where e.team_id = (select m.id from public.teams m where m.slug = $1)
      and ($2 is null or p.key = $2)
      and ($3 is null or e.actor_id = (select a.id from public.profiles a where a.username = $3))
      and ($4 is null or (e.created_at <= $4 and (e.created_at < $4 or e.id < $5)))
    order by e.created_at desc, e.id desc
    limit least(greatest($6, 1), 101)
  ) x
$$;

revoke execute on function public.team_activity(text, text, text, timestamptz, uuid, integer) from public, anon;
grant execute on function public.team_activity(text, text, text, timestamptz, uuid, integer) to authenticated;
