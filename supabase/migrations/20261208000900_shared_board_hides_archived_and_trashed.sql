-- Where this wave's branches meet (issues 39 and 41): public read-only links
-- (20261208000200) were written before archive and trash (20261208000350), and
-- shared_board reads tasks with the definer's rights, past the read policy
-- that hides the trash. A shared board shows what the board shows: neither
-- archived tasks nor those in the trash.

CREATE OR REPLACE FUNCTION public.shared_board(secret text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  link public.share_links;
  proj record;
  view_name text;
  view_query text;
  want_assignee text;
  want_label text;
  want_q text;
  wanted_person uuid;
  wanted_label uuid;
  tsq tsquery;
  title_like text;
begin
  -- 32 bytes in base64url; anything else is no link (and no lookup)
  if secret is null or secret !~ '^[A-Za-z0-9_-]{43}$' then
    return null;
  end if;
  select * into link from public.share_links l
  where l.secret_hash = encode(sha256(convert_to(secret, 'UTF8')), 'hex') and l.revoked_at is null;
  if not found then
    return null;
  end if;
  select p.id, p.key, p.name, p.team_id into proj from public.projects p where p.id = link.project_id;
  if link.view_id is not null then
    select v.name, v.query into view_name, view_query from public.saved_views v where v.id = link.view_id;
    want_assignee := private.query_param(view_query, 'assignee');
    want_label := private.query_param(view_query, 'label');
    want_q := private.query_param(view_query, 'q');
  end if;
  if want_assignee = 'me' then
    wanted_person := coalesce(link.created_by, '00000000-0000-0000-0000-000000000000'::uuid);
  elsif want_assignee ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    wanted_person := lower(want_assignee)::uuid;
  end if;
  if want_label is not null then
    select l.id into wanted_label from public.labels l
    where l.team_id = proj.team_id and lower(btrim(l.name)) = lower(want_label);
    -- an unknown label matches no task, as on the board
    wanted_label := coalesce(wanted_label, '00000000-0000-0000-0000-000000000000'::uuid);
  end if;
  if want_q is not null then
    tsq := websearch_to_tsquery('english'::regconfig, want_q);
    title_like := '%' || replace(replace(replace(replace(want_q, '*', ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  return jsonb_build_object(
    'project', jsonb_build_object('key', proj.key, 'name', proj.name),
    'view', view_name,
    'fields', coalesce((
      select jsonb_agg(f.name order by f.position, f.id)
      from public.fields f where f.project_id = proj.id and f.id = any (link.field_ids)
    ), '[]'::jsonb),
    'comments', link.show_comments,
    'statuses', coalesce((
      select jsonb_agg(jsonb_build_object(
        'name', s.name, 'color', s.color, 'category', s.category, 'tasks', coalesce(c.tasks, '[]'::jsonb),
        'total', coalesce(c.total, 0)
      ) order by s.position)
      from public.project_statuses s
      left join lateral (
        select jsonb_agg(jsonb_build_object(
          'number', t.number,
          'title', t.title,
          'labels', coalesce((
            select jsonb_agg(jsonb_build_object('name', l.name, 'color', l.color) order by lower(l.name), l.id)
            from public.labels l where l.id = any (t.label_ids)
          ), '[]'::jsonb),
          'fields', coalesce((
            select jsonb_agg(jsonb_build_object('name', f.name, 'value', public.field_value_words(f.id, v.value))
                             order by f.position, f.id)
            from public.fields f
            join public.field_values v on v.field_id = f.id and v.task_id = t.id
            where f.project_id = proj.id and f.id = any (link.field_ids)
          ), '[]'::jsonb),
          'comments', case when link.show_comments then coalesce((
            select jsonb_agg(jsonb_build_object(
              'author', coalesce(pr.display_name, 'A former member'), 'body', cm.body, 'created_at', cm.created_at
            ) order by cm.created_at, cm.id)
            from public.comments cm
            left join public.profiles pr on pr.id = cm.author_id
            where cm.task_id = t.id
          ), '[]'::jsonb) end
        ) order by t.position, t.id) as tasks,
        max(t.total) as total
        from (
          -- the column's first 500 (a page for anyone, not paged), and how many there are
          select t.*, count(*) over () as total
          from public.tasks t
          where t.project_id = proj.id
            and t.status_id = s.id
            and t.archived_at is null
            and t.deleted_at is null
            and (want_assignee is null
                 or (want_assignee = 'none' and t.assignee_ids = '{}')
                 or (wanted_person is not null and t.assignee_ids @> array[wanted_person]))
            and (wanted_label is null or t.label_ids @> array[wanted_label])
            and (title_like is null or t.search @@ tsq or t.title ilike title_like)
          order by t.position, t.id
          limit 500
        ) t
      ) c on true
      where s.project_id = proj.id
    ), '[]'::jsonb)
  );
end;
$function$;
