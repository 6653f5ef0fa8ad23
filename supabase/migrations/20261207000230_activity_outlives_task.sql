-- Activity outlives its task (issue 37; docs/decisions/0034-scale.md; docs/product.md "Activity").
--
-- Deleting a task used to delete its events (task_events.task_id cascaded), so
-- nothing recorded that it had existed. Now:
--   - before a task goes, a `task_deleted` event is recorded (who, when, its
--     number and title), and every event of the task is stamped with the
--     task's number and title (task_number, task_title: null while it exists);
--   - the events' task_id becomes null with the task (on delete set null), so
--     the team's activity page still shows them, named by the stamp.
-- When the whole project (or team) goes, its events go with it, as before
-- (project_id and team_id still cascade): no tombstones are written then.
--
-- Retention: events are kept two years (a deleted task's too), notifications
-- 90 days (prune-notifications, 20261126000410). The daily `prune-activity`
-- job deletes older events, in batches so that a first run on a large table
-- stays short; a BRIN index on created_at (task_events is append-only, so
-- its rows lie in created_at order) finds them without reading the table.

alter table public.task_events add column task_number integer;
alter table public.task_events add column task_title text;

alter table public.task_events alter column task_id drop not null;
alter table public.task_events drop constraint task_events_task_id_fkey;
alter table public.task_events add constraint task_events_task_id_fkey
  foreign key (task_id) references public.tasks (id) on delete set null;

alter table public.task_events drop constraint task_events_kind;
alter table public.task_events add constraint task_events_kind check (kind in (
  'task_created', 'task_updated', 'task_deleted',
  'comment_posted', 'comment_edited', 'comment_deleted',
  'attachment_added', 'attachment_removed',
  'checklist_item_added', 'checklist_item_ticked', 'checklist_item_unticked',
  'checklist_item_removed', 'checklist_item_renamed',
  'subtask_added', 'subtask_removed', 'relation_added', 'relation_removed'
));

create function private.tasks_record_removal() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- the project is going too (its events go with it)
  if not exists (select 1 from public.projects p where p.id = old.project_id) then
    return old;
  end if;
  perform public.record_task_event(old.id, 'task_deleted',
    jsonb_build_object('number', old.number, 'title', old.title));
  update public.task_events e
  set task_number = old.number, task_title = old.title
  where e.task_id = old.id;
  return old;
end;
$$;

revoke execute on function private.tasks_record_removal() from public, anon, authenticated;

create trigger tasks_record_removal
before delete on public.tasks
for each row execute function private.tasks_record_removal();

-- retention
create index task_events_created_brin on public.task_events using brin (created_at);

create function private.prune_activity(older_than interval default interval '2 years', batch integer default 50000)
returns integer
language sql
security definer
set search_path = ''
as $$
  with gone as (
    delete from public.task_events e
    where e.id in (select x.id from public.task_events x where x.created_at < now() - $1 limit $2)
    returning 1
  )
  select count(*)::integer from gone
$$;

revoke execute on function private.prune_activity(interval, integer) from public, anon, authenticated;

create extension if not exists pg_cron with schema pg_catalog;

select cron.schedule(
  'prune-activity',
  '41 3 * * *',
  $$ select private.prune_activity() $$
);
