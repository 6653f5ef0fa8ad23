-- Storage: the `avatars` and `attachments` buckets and who may do what with
-- their objects (docs/product.md §3, §6, §7). Written for a hosted project's storage
-- schema: buckets are rows of storage.buckets, access is policies on
-- storage.objects. Nothing here creates or alters the storage schema itself.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
  ('attachments', 'attachments', false, 10485760, null)
on conflict (id) do nothing;

-- The task an attachment object belongs to: its first folder, `<task id>/…`
-- (as attachments.object_path is checked to be). Null for anything else, so
-- a malformed name is simply no one's.
create function public.attachment_task_id(object_name text) returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when split_part(object_name, '/', 1) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then split_part(object_name, '/', 1)::uuid
  end
$$;

grant execute on function public.attachment_task_id(text) to authenticated, service_role;

-- avatars: anyone reads (public bucket, through public URLs); a person
-- writes, replaces and removes only inside their own folder <user id>/.
create policy "people see their own avatar files"
on storage.objects for select
to authenticated
using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "people upload avatars into their own folder"
on storage.objects for insert
to authenticated
with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "people replace avatars in their own folder"
on storage.objects for update
to authenticated
using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text))
with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "people remove avatars from their own folder"
on storage.objects for delete
to authenticated
using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

-- attachments: the task's team members read (the app hands out 60-second
-- signed URLs); members and up upload into a task of an active project;
-- the uploader (while member+) or an admin / the owner removes.
create policy "members read their teams' attachment files"
on storage.objects for select
to authenticated
using (bucket_id = 'attachments' and public.has_task_role(public.attachment_task_id(name), 'viewer'));

create policy "members upload attachment files"
on storage.objects for insert
to authenticated
with check (bucket_id = 'attachments' and public.has_task_role(public.attachment_task_id(name), 'member', true));

create policy "uploaders and admins remove attachment files"
on storage.objects for delete
to authenticated
using (
  bucket_id = 'attachments'
  and public.has_task_role(public.attachment_task_id(name), 'member', true)
  and (owner_id = (select auth.uid()::text) or public.has_task_role(public.attachment_task_id(name), 'admin', true))
);

-- Files whose attachments row is gone (the row was deleted, or its task,
-- project or team was) wait here until the server removes them through the
-- Storage API: storage tables refuse plain DELETEs, so a cascade cannot take
-- the files with it. Only the service role reads this queue.
create table public.storage_cleanup (
  bucket_id text not null,
  object_path text not null,
  queued_at timestamptz not null default now(),
  primary key (bucket_id, object_path)
);

alter table public.storage_cleanup enable row level security;
revoke all on table public.storage_cleanup from anon, authenticated;

create function public.queue_attachment_file_removal() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.storage_cleanup (bucket_id, object_path)
  values ('attachments', old.object_path)
  on conflict do nothing;
  return old;
end;
$$;

revoke execute on function public.queue_attachment_file_removal() from public, anon, authenticated;

create trigger attachments_queue_file_removal
after delete on public.attachments
for each row execute function public.queue_attachment_file_removal();

-- A replaced or removed avatar's file goes the same way.
create function public.queue_avatar_file_removal() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and old.avatar_path is not null then
    insert into public.storage_cleanup (bucket_id, object_path) values ('avatars', old.avatar_path) on conflict do nothing;
  elsif tg_op = 'UPDATE' and old.avatar_path is not null and old.avatar_path is distinct from new.avatar_path then
    insert into public.storage_cleanup (bucket_id, object_path) values ('avatars', old.avatar_path) on conflict do nothing;
  end if;
  return null;
end;
$$;

revoke execute on function public.queue_avatar_file_removal() from public, anon, authenticated;

create trigger profiles_queue_avatar_file_removal
after update of avatar_path or delete on public.profiles
for each row execute function public.queue_avatar_file_removal();
