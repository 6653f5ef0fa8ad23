-- Presence on a task ("also viewing"): a private Realtime channel per task,
-- topic 'task:<task id>'. Only people who can read the task may join it, see
-- who is there and be seen. Realtime authorizes private channels with these
-- policies on realtime.messages (select = read, insert = write).

create policy "task presence: readers of the task"
  on realtime.messages for select to authenticated
  using (
    realtime.messages.extension = 'presence'
    and exists (
      select 1 from public.tasks t
      where t.id = (case when realtime.topic() ~ '^task:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                         then substr(realtime.topic(), 6)::uuid end)
    )
  );

create policy "task presence: readers of the task are seen"
  on realtime.messages for insert to authenticated
  with check (
    realtime.messages.extension = 'presence'
    and exists (
      select 1 from public.tasks t
      where t.id = (case when realtime.topic() ~ '^task:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                         then substr(realtime.topic(), 6)::uuid end)
    )
  );
