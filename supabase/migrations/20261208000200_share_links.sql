-- Public read-only links (issue 41; docs/product.md §20; docs/decisions/0042-public-links.md).
--
-- Admins+ share a project's board, or one of its shared saved views, by a
-- secret address: /shared/<secret>. The secret (32 random bytes, base64url:
-- 43 characters, 256 bits) is made by the app, shown once, and only its
-- SHA-256 (hex) is kept here. The sharer chooses which of the project's fields
-- show and whether comments do; emails and attachments never do.
--
-- Nobody without the secret reads anything: the table is for the project's
-- admins+ (never its hash column), and the page reads through
-- public.shared_board(secret), a security definer function granted to anon
-- that hashes the secret, finds a live link and answers exactly what the
-- sharer chose, in one round trip. An unknown or revoked secret gives null.
-- A link is revoked by setting revoked_at (once; it never comes back); a link
-- dies with its project or view.

create table public.share_links (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  -- null: the project's whole board; else a shared saved view of that project
  view_id uuid references public.saved_views (id) on delete cascade,
  secret_hash text not null,
  -- the project's fields the page shows (ids of other projects' fields show nothing)
  field_ids uuid[] not null default '{}',
  show_comments boolean not null default false,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint share_links_hash_key unique (secret_hash),
  constraint share_links_hash_form check (secret_hash ~ '^[0-9a-f]{64}$'),
  constraint share_links_fields_count check (cardinality(field_ids) <= 30)
);

create index share_links_project_idx on public.share_links (project_id, created_at desc);
create index share_links_view_idx on public.share_links (view_id);
create index share_links_created_by_idx on public.share_links (created_by);

comment on table public.share_links is
  'Public read-only links to a project''s board or a shared saved view: only the secret''s SHA-256 is kept.';

alter table public.share_links enable row level security;
revoke all on table public.share_links from anon, authenticated;
-- never the hash
grant select (id, project_id, view_id, field_ids, show_comments, created_by, created_at, revoked_at)
  on table public.share_links to authenticated;
grant insert (project_id, view_id, secret_hash, field_ids, show_comments) on table public.share_links to authenticated;
grant update (revoked_at) on table public.share_links to authenticated;

create policy "two-factor accounts need aal2" on public.share_links
  as restrictive for all to authenticated
  using ((select private.has_required_aal())) with check ((select private.has_required_aal()));

-- set-based, as the webhooks' (admins+ see every project of their team, private ones too)
create policy "admins see the project's links" on public.share_links
  for select to authenticated
  using (project_id in (
    select p.id from public.projects p where p.team_id in (select private.my_admin_team_ids())
  ));

create policy "admins share the board or a shared view" on public.share_links
  for insert to authenticated
  with check (
    created_by = (select auth.uid())
    and private.has_project_role(project_id, 'admin')
    and (view_id is null or exists (
      select 1 from public.saved_views v where v.id = view_id and v.project_id = share_links.project_id and v.shared
    ))
  );

-- only from live to revoked: a revoked link never answers again
create policy "admins revoke the project's links" on public.share_links
  for update to authenticated
  using (revoked_at is null and private.has_project_role(project_id, 'admin'))
  with check (revoked_at is not null and private.has_project_role(project_id, 'admin'));

-- One value of a saved view's query string (`assignee=me&label=Bug+fix`), URL-decoded; null when absent or malformed.
create function private.query_param(query text, name text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  part text;
  raw text;
  bytes bytea := '';
  i integer := 1;
begin
  foreach part in array string_to_array(coalesce(query, ''), '&') loop
    if split_part(part, '=', 1) = name then
      raw := replace(substr(part, char_length(name) + 2), '+', ' ');
      while i <= char_length(raw) loop
        if substr(raw, i, 1) = '%' and substr(raw, i + 1, 2) ~ '^[0-9A-Fa-f]{2}$' then
          bytes := bytes || decode(substr(raw, i + 1, 2), 'hex');
          i := i + 3;
        else
          bytes := bytes || convert_to(substr(raw, i, 1), 'UTF8');
          i := i + 1;
        end if;
      end loop;
      return nullif(btrim(convert_from(bytes, 'UTF8')), '');
    end if;
  end loop;
  return null;
exception when others then
  return null;
end;
$$;

revoke all on function private.query_param(text, text) from public;
grant execute on function private.query_param(text, text) to service_role;

-- The page's one read -----------------------------------------------------------------------
-- What a link shows: the project's name and key, the view's name, the statuses
-- (columns) in order with their first 500 tasks and how many there are (number, title, labels, the chosen
-- fields' values in words, and the comments when chosen: author's display
-- name, text, time). A view's filters (assignee, label, q) apply as on the
-- board; its `assignee=me` means the person who made the link. Nothing else:
-- no ids, no emails, no attachments, no people list.
create function public.shared_board(secret text) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
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
$$;

revoke all on function public.shared_board(text) from public;
grant execute on function public.shared_board(text) to anon, authenticated, service_role;
