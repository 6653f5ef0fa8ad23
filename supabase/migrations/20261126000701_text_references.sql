-- text_references: what a description or comment of a team refers to, as far
-- as the caller may see it (security invoker: row-level security decides),
-- so the app can link `KEY-12`, `@username` and attachment images and leave
-- everything else as the plain text it was (docs/product.md §14).
--   task_keys       'WEB-12' …: tasks of the team's projects
--   usernames       lower-case: members of the team
--   attachment_ids  attachments of the team's tasks
create function public.text_references(
  team_slug text,
  task_keys text[] default '{}',
  usernames text[] default '{}',
  attachment_ids uuid[] default '{}'
) returns json
language sql
stable
security invoker
set search_path = ''
as $$
  select json_build_object(
    'tasks', coalesce((
      select json_agg(json_build_object('key', p.key || '-' || t.number, 'number', t.number,
                                        'project_key', p.key, 'title', t.title))
      from public.tasks t
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      where tm.slug = $1 and (p.key || '-' || t.number) = any(coalesce($2, '{}'))
    ), '[]'::json),
    'people', coalesce((
      select json_agg(json_build_object('username', pr.username::text, 'display_name', pr.display_name))
      from public.profiles pr
      join public.team_members m on m.user_id = pr.id
      join public.teams tm on tm.id = m.team_id
      where tm.slug = $1 and lower(pr.username::text) = any(coalesce($3, '{}'))
    ), '[]'::json),
    'attachments', coalesce((
      select json_agg(json_build_object('id', f.id, 'file_name', f.file_name, 'content_type', f.content_type))
      from public.attachments f
      join public.tasks t on t.id = f.task_id
      join public.projects p on p.id = t.project_id
      join public.teams tm on tm.id = p.team_id
      where tm.slug = $1 and f.id = any(coalesce($4, '{}'))
    ), '[]'::json)
  )
  where cardinality($2) + cardinality($3) + cardinality($4) <= 1000;
$$;

revoke execute on function public.text_references(text, text[], text[], uuid[]) from public, anon;
grant execute on function public.text_references(text, text[], text[], uuid[]) to authenticated;
