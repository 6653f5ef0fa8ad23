-- Saved views (docs/product.md §13, §15): a project's filters, sort, grouping
-- and view kind under a name, for its owner alone or, saved by an admin or
-- the owner of the team, shared with everyone in it. At most 20 per person
-- per project. docs/decisions/0030-views-and-theme.md.

create table public.saved_views (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  name text not null,
  -- which of the project's pages it opens: …/projects/:key, …/list, …/calendar
  kind text not null,
  -- that page's search string as the app writes it (assignee, q, label, sort, group; no paging)
  query text not null default '',
  shared boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint saved_views_name_length check (btrim(name) = name and name <> '' and char_length(name) <= 40),
  constraint saved_views_kind_known check (kind in ('board', 'list', 'calendar')),
  constraint saved_views_query_length check (char_length(query) <= 1000)
);

-- one name per person and project (compared case-insensitively), so the links beside the tabs can be told apart
create unique index saved_views_owner_name_key on public.saved_views (project_id, owner_id, lower(name));
create index saved_views_owner_id_idx on public.saved_views (owner_id);

create trigger saved_views_set_updated_at
before update on public.saved_views
for each row execute function public.set_updated_at();

-- At most 20 views per person per project (shared ones they saved included).
-- The person's profile row is locked first, so two saves at once count one
-- after the other.
create function public.saved_views_limit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.profiles p where p.id = new.owner_id for update;
  if (select count(*) from public.saved_views v where v.project_id = new.project_id and v.owner_id = new.owner_id) >= 20 then
    raise exception 'You can keep at most 20 views in a project.'
      using errcode = '23514', detail = 'saved_views_limit';
  end if;
  return new;
end;
$$;

revoke execute on function public.saved_views_limit() from public, anon, authenticated;

create trigger saved_views_limit
before insert on public.saved_views
for each row execute function public.saved_views_limit();

-- Row-level security ----------------------------------------------------------------
-- See: your own views in projects of your teams, and the shared views of
-- those projects. Save: your own, in a project of your team; shared only as
-- admin+. Rename and delete: your own personal views; shared views, admins+.
alter table public.saved_views enable row level security;

revoke all on table public.saved_views from anon, authenticated;
grant select, delete on table public.saved_views to authenticated;
grant insert (project_id, name, kind, query, shared) on table public.saved_views to authenticated;
grant update (name) on table public.saved_views to authenticated;

-- as every table of the app (20261126000100_aal2_everywhere.sql): a two-factor account's password-only token reaches nothing
create policy "two-factor accounts need aal2" on public.saved_views
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

create policy "people see their own and their teams' shared views"
on public.saved_views for select
to authenticated
using (
  project_id in (select public.my_project_ids())
  and (owner_id = (select auth.uid()) or shared)
);

create policy "people save views in their teams' projects, admins share them"
on public.saved_views for insert
to authenticated
with check (
  owner_id = (select auth.uid())
  and public.has_project_role(project_id, case when shared then 'admin' else 'viewer' end)
);

create policy "people rename their own views, admins the shared ones"
on public.saved_views for update
to authenticated
using (
  case when shared then public.has_project_role(project_id, 'admin')
       else owner_id = (select auth.uid()) and public.has_project_role(project_id, 'viewer') end
)
with check (
  case when shared then public.has_project_role(project_id, 'admin')
       else owner_id = (select auth.uid()) and public.has_project_role(project_id, 'viewer') end
);

create policy "people delete their own views, admins the shared ones"
on public.saved_views for delete
to authenticated
using (
  case when shared then public.has_project_role(project_id, 'admin')
       else owner_id = (select auth.uid()) and public.has_project_role(project_id, 'viewer') end
);
