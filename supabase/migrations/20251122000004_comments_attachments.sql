-- Comments and attachment records on tasks, and what realtime publishes.

-- comments ----------------------------------------------------------------------------
create table public.comments (
  id uuid primary key default gen_random_uuid(),
  task_id uuid not null references public.tasks (id) on delete cascade,
  author_id uuid references public.profiles (id) on delete set null default auth.uid(),
  body text not null,
  created_at timestamptz not null default now(),
  edited_at timestamptz,
  constraint comments_body_length check (btrim(body) <> '' and char_length(body) <= 5000)
);

create index comments_task_id_idx on public.comments (task_id, created_at);
create index comments_author_id_idx on public.comments (author_id);

create function public.comments_mark_edited() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.body is distinct from old.body then
    new.edited_at := now();
  end if;
  return new;
end;
$$;

revoke execute on function public.comments_mark_edited() from public, anon, authenticated;

create trigger comments_mark_edited
before update on public.comments
for each row execute function public.comments_mark_edited();

-- attachments -------------------------------------------------------------------------
-- The object lives in bucket `attachments` under the task's folder:
-- <task id>/<file>. Tying the path to the task means a row can never point a
-- team at another team's file.
create table public.attachments (
  id uuid primary key default gen_random_uuid(),
  task_id uuid not null references public.tasks (id) on delete cascade,
  object_path text not null,
  file_name text not null,
  size_bytes bigint not null,
  content_type text not null default 'application/octet-stream',
  uploaded_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint attachments_object_path_key unique (object_path),
  constraint attachments_object_path_in_task_folder check (
    object_path like task_id::text || '/_%' and char_length(object_path) <= 1024
  ),
  constraint attachments_file_name_length check (btrim(file_name) <> '' and char_length(file_name) <= 255),
  constraint attachments_size_limit check (size_bytes between 0 and 10485760),
  constraint attachments_content_type_length check (content_type <> '' and char_length(content_type) <= 255)
);

create index attachments_task_id_idx on public.attachments (task_id, created_at);
create index attachments_uploaded_by_idx on public.attachments (uploaded_by);

-- At most 20 per task; the task row lock serialises concurrent uploads.
create function public.attachments_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.tasks t where t.id = new.task_id for update;
  if (select count(*) from public.attachments a where a.task_id = new.task_id) >= 20 then
    raise exception 'A task can have at most 20 attachments.' using errcode = '23514';
  end if;
  return new;
end;
$$;

revoke execute on function public.attachments_before_insert() from public, anon, authenticated;

create trigger attachments_before_insert
before insert on public.attachments
for each row execute function public.attachments_before_insert();

-- Row-level security ------------------------------------------------------------------
alter table public.comments enable row level security;
alter table public.attachments enable row level security;

revoke all on table public.comments, public.attachments from anon, authenticated;

-- comments: members see; member+ write as themselves and edit / delete their
-- own; admins delete any. Nothing changes in an archived project.
grant select, delete on table public.comments to authenticated;
grant insert (task_id, body) on table public.comments to authenticated;
grant update (body) on table public.comments to authenticated;

create policy "members see comments"
on public.comments for select
to authenticated
using (public.has_task_role(task_id, 'viewer'));

create policy "members comment as themselves"
on public.comments for insert
to authenticated
with check (author_id = (select auth.uid()) and public.has_task_role(task_id, 'member', true));

create policy "authors edit their comments"
on public.comments for update
to authenticated
using (author_id = (select auth.uid()) and public.has_task_role(task_id, 'member', true))
with check (author_id = (select auth.uid()) and public.has_task_role(task_id, 'member', true));

create policy "authors and admins delete comments"
on public.comments for delete
to authenticated
using (
  public.has_task_role(task_id, 'member', true)
  and (author_id = (select auth.uid()) or public.has_task_role(task_id, 'admin', true))
);

-- attachments: members see; member+ attach as themselves; the uploader (while
-- member+) or an admin deletes. Records are never edited.
grant select, delete on table public.attachments to authenticated;
grant insert (task_id, object_path, file_name, size_bytes, content_type) on table public.attachments to authenticated;

create policy "members see attachments"
on public.attachments for select
to authenticated
using (public.has_task_role(task_id, 'viewer'));

create policy "members attach files as themselves"
on public.attachments for insert
to authenticated
with check (uploaded_by = (select auth.uid()) and public.has_task_role(task_id, 'member', true));

create policy "uploaders and admins delete attachments"
on public.attachments for delete
to authenticated
using (
  public.has_task_role(task_id, 'member', true)
  and (uploaded_by = (select auth.uid()) or public.has_task_role(task_id, 'admin', true))
);

-- Realtime ----------------------------------------------------------------------------
-- Replica identity stays the primary key: with row-level security on, Supabase
-- Realtime sends only the primary key of old rows anyway, and on PostgreSQL 18
-- a full identity would make tasks (its generated `search` column is not
-- published) refuse every update and delete.
alter publication supabase_realtime add table public.tasks, public.comments, public.attachments;
