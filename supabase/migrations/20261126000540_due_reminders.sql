-- Due-date reminders (PRODUCT.md §12; docs/decisions/0029-time.md).
--
-- The assignee of an open task with a due date is reminded at 08:00 in their
-- time zone on the day before and on the due date. A scheduled job (Supabase
-- Cron, every 15 minutes: zones sit on whole, half and quarter hours) calls
-- remind_due_tasks(), which records each reminder in due_reminders once: the
-- key is (task, person, due date, which day), so a job that runs twice, or
-- late, or after a restart, adds nothing twice, and a moved due date gets its
-- own reminders. A late run still reminds on the same local day (a run at
-- 11:00 makes the 08:00 reminders it missed), never for a day gone by.
--
-- Not for the person's own change: when the assignee set the due date
-- themselves after that day's 08:00, they are not reminded of it that day.
--
-- Watchers who chose due-date emails (notification_settings kind 'due_date'
-- not 'never') are reminded too, at 08:00 in their own zone.
--
-- Delivery: due_reminders is the record (RLS: each person reads their own);
-- each new reminder is also a notification of kind 'due_date' (the bell,
-- /notifications), emailed by send-notifications unless the person's
-- due-date setting is 'never' (the default for that kind).

create table public.due_reminders (
  task_id uuid not null references public.tasks (id) on delete cascade,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  due_on date not null,
  day text not null,
  created_at timestamptz not null default now(),
  primary key (task_id, recipient_id, due_on, day),
  constraint due_reminders_day check (day in ('before', 'due'))
);

comment on table public.due_reminders is
  'One row per reminder made by remind_due_tasks(); each person reads their own; nobody else writes.';

create index due_reminders_recipient_idx on public.due_reminders (recipient_id, created_at desc);

alter table public.due_reminders enable row level security;
grant select on table public.due_reminders to authenticated;

create policy "people read their own reminders"
on public.due_reminders for select
to authenticated
using (recipient_id = (select auth.uid()));

-- two-factor at the API (20261126000100_aal2_everywhere.sql): ANDed with the above
create policy "two-factor accounts need aal2" on public.due_reminders
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));

-- Who set the due date last, and when (for "not for the person's own change").
alter table public.tasks add column due_on_set_by uuid references public.profiles (id) on delete set null;
alter table public.tasks add column due_on_set_at timestamptz;

create function public.tasks_note_due_on() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.due_on is distinct from old.due_on then
    new.due_on_set_by := auth.uid();
    new.due_on_set_at := now();
  else
    new.due_on_set_by := old.due_on_set_by;
    new.due_on_set_at := old.due_on_set_at;
  end if;
  return new;
end;
$$;

revoke execute on function public.tasks_note_due_on() from public, anon, authenticated;

create trigger tasks_note_due_on
before insert or update on public.tasks
for each row execute function public.tasks_note_due_on();

-- The job reads only the tasks due in a four-day window around today (UTC), through
-- tasks_assignee_due_idx (assignee, due_on; made by 20261126000603_task_list.sql): bench:time's plan.

-- The reminders due at `run_at` (by default now), made once each; returns how many it made.
-- A person's local day is `at` in their zone; any zone's day is the UTC day ± 1,
-- so the due dates read lie between the UTC day - 1 and the UTC day + 2.
create function public.remind_due_tasks(run_at timestamptz default now()) returns integer
language sql
security definer
set search_path = ''
as $$
  with candidate as (
    -- the assignees of open tasks due in the window ...
    select t.id as task_id, t.project_id, t.assignee_id as person, t.due_on, t.due_on_set_by, t.due_on_set_at
    from public.tasks t
    where t.assignee_id is not null
      and t.completed_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
    union
    -- ... and their watchers who asked for due-date emails
    select t.id, t.project_id, w.user_id, t.due_on, t.due_on_set_by, t.due_on_set_at
    from public.task_watchers w
    join public.tasks t on t.id = w.task_id
    where t.completed_at is null
      and t.due_on between ($1 at time zone 'UTC')::date - 1 and ($1 at time zone 'UTC')::date + 2
      and public.email_setting(w.user_id, 'due_date') <> 'never'
  ), due as (
    select c.task_id, c.project_id, c.person, c.due_on,
           case when c.due_on = l.day then 'due' else 'before' end as day
    from candidate c
    join public.profiles p on p.id = c.person
    cross join lateral (select ($1 at time zone p.time_zone)::date as day,
                               ($1 at time zone p.time_zone)::time as clock) l
    where c.due_on - l.day in (0, 1)
      and l.clock >= time '08:00'
      -- not for the person's own change made after this reminder's 08:00
      and not (c.due_on_set_by is not distinct from c.person
               and c.due_on_set_at > (l.day + time '08:00') at time zone p.time_zone)
  ), made as (
    insert into public.due_reminders (task_id, recipient_id, due_on, day, created_at)
    select task_id, person, due_on, day, $1 from due
    on conflict do nothing
    returning task_id, recipient_id
  ), notified as (
    -- each new reminder in the bell, and by email unless the person turned due-date emails off
    insert into public.notifications (recipient_id, team_id, task_id, kind, email, created_at)
    select m.recipient_id, pr.team_id, m.task_id, 'due_date',
           case when public.email_setting(m.recipient_id, 'due_date') = 'never' then 'none' else 'pending' end,
           $1
    from made m
    join public.tasks t on t.id = m.task_id
    join public.projects pr on pr.id = t.project_id
    returning 1
  )
  select count(*)::integer from made
$$;

revoke execute on function public.remind_due_tasks(timestamptz) from public, anon, authenticated;

-- The job. It passes the time its run started: pg_cron's own record of the
-- run (one run of a job at a time), which is now() on hosted and the
-- scheduler's clock in the local stack's tests; now() if there is none.
create extension if not exists pg_cron with schema pg_catalog;

select cron.schedule(
  'due-reminders',
  '*/15 * * * *',
  $$
  select public.remind_due_tasks(coalesce(
    (select max(d.start_time) from cron.job_run_details d join cron.job j on j.jobid = d.jobid
     where j.jobname = 'due-reminders' and d.status = 'running'),
    now()))
  $$
);
