-- Files uploaded straight into a folder (issue 22 L3). The 20-attachment cap
-- and the cleanup queue held only for `attachments` rows: anyone who may
-- attach could upload any number of objects into a task's folder with the
-- Storage API and never write a row, and those files were never removed
-- (not with their task either). The same held for one's avatar folder.
--
-- A trigger on storage.objects (hosted projects allow triggers and policies
-- on storage.objects; no function is created in the storage schema) keeps
-- each folder within its cap, counting every object in it, with or without
-- a row:
--   attachments/<task id>/   20 (the task's attachment cap)
--   avatars/<user id>/       10 (the avatar, its replacement on the way in,
--                               the replaced one until it is removed, and room
--                               to spare: 20 MB at most)
-- An object that is older than ten minutes and described by no row (no
-- attachments.object_path, not the profile's avatar_path) was left behind
-- (an upload whose row never came): it is queued in storage_cleanup, which
-- the app server empties, and no longer counted. Objects already queued
-- don't count either. A write that would pass the cap is refused with 42501
-- (Storage answers 403, as for a policy). The task's (or profile's) row is
-- locked first, so two uploads at once can't both take the last place.
--
-- Deleting a task or a profile now queues every object of its folder, not
-- only those its rows named.

create function public.storage_folder_is_full() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  folder text := split_part(new.name, '/', 1);
  cap integer;
  kept integer;
begin
  if folder !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return new; -- not a task's or a person's folder: the policies refuse it to signed-in people
  end if;
  if tg_op = 'UPDATE' and new.bucket_id is not distinct from old.bucket_id and new.name is not distinct from old.name then
    return new; -- the same object written again
  end if;
  if exists (select 1 from storage.objects o where o.bucket_id = new.bucket_id and o.name = new.name and o.id <> new.id) then
    return new; -- an upsert replacing an object: not one more
  end if;
  if new.bucket_id = 'attachments' then
    cap := 20;
    perform 1 from public.tasks t where t.id = folder::uuid for update;
  elsif new.bucket_id = 'avatars' then
    cap := 10;
    perform 1 from public.profiles p where p.id = folder::uuid for update;
  else
    return new;
  end if;

  insert into public.storage_cleanup (bucket_id, object_path)
  select o.bucket_id, o.name
  from storage.objects o
  where o.bucket_id = new.bucket_id
    and o.name like folder || '/%'
    and o.created_at < now() - interval '10 minutes'
    and not exists (select 1 from public.attachments a where o.bucket_id = 'attachments' and a.object_path = o.name)
    and not exists (select 1 from public.profiles p where o.bucket_id = 'avatars' and p.avatar_path = o.name)
  on conflict do nothing;

  select count(*) into kept
  from storage.objects o
  where o.bucket_id = new.bucket_id
    and o.name like folder || '/%'
    and o.id <> new.id
    and not exists (select 1 from public.storage_cleanup c where c.bucket_id = o.bucket_id and c.object_path = o.name);
  if kept >= cap then
    raise exception '%',
      case when new.bucket_id = 'attachments' then 'A task can have at most 20 attachments.'
           else 'Your avatar folder is full: save your profile, then try again.' end
      using errcode = '42501';
  end if;
  return new;
end;
$$;

revoke execute on function public.storage_folder_is_full() from public, anon, authenticated;

create trigger storage_folder_limits
before insert or update of bucket_id, name on storage.objects
for each row execute function public.storage_folder_is_full();

-- A deleted task (or its project or team) or profile takes its whole folder.
create function public.queue_folder_removal() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  bucket text := case when tg_table_name = 'tasks' then 'attachments' else 'avatars' end;
begin
  insert into public.storage_cleanup (bucket_id, object_path)
  select o.bucket_id, o.name
  from storage.objects o
  where o.bucket_id = bucket and o.name like old.id::text || '/%'
  on conflict do nothing;
  return null;
end;
$$;

revoke execute on function public.queue_folder_removal() from public, anon, authenticated;

create trigger tasks_queue_folder_removal
after delete on public.tasks
for each row execute function public.queue_folder_removal();

create trigger profiles_queue_folder_removal
after delete on public.profiles
for each row execute function public.queue_folder_removal();
