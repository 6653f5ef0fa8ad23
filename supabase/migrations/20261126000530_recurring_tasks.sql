-- Recurring tasks (PRODUCT.md §12; the rules in docs/decisions/0029-time.md).
--
-- tasks.recurrence holds the rule (public.is_recurrence: a canonical RRULE
-- subset) and needs a due date. Completing a repeating task makes the next
-- task of the series in the same statement, by the database, so a completion
-- through any client repeats: a BEFORE trigger on the status change inserts
-- the successor and writes its id on the completed task. A task that already
-- has a successor makes none, so completing, reopening and completing again
-- makes one successor; concurrent completions wait on the row's lock and the
-- second sees the task already done. "Stop repeating" clears recurrence.
--
-- Status knowledge sits in one place, tasks_repeat(): "completed" is the
-- status `done` and the project's first unstarted status is `todo` while the
-- fixed task_status enum stands (issue 24's statuses table replaces both with
-- categories: that trigger's first lines are the seam).

alter table public.tasks add column recurrence text;
alter table public.tasks add column successor_id uuid references public.tasks (id) on delete set null;

alter table public.tasks
  add constraint tasks_recurrence_valid check (recurrence is null or public.is_recurrence(recurrence)),
  add constraint tasks_recurrence_needs_due_on check (recurrence is null or due_on is not null);

comment on column public.tasks.recurrence is
  'The repeat rule (RRULE subset, public.is_recurrence); completing the task makes its successor (tasks_repeat).';
comment on column public.tasks.successor_id is
  'The next task of the series, made when this one was completed; set by the database only.';

create index tasks_successor_id_idx on public.tasks (successor_id) where successor_id is not null;

-- People set and clear the rule with the task's other fields; successor_id has no grant: the database's alone.
grant insert (recurrence) on table public.tasks to authenticated;
grant update (recurrence) on table public.tasks to authenticated;

create function public.tasks_repeat() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  next_id uuid;
begin
  -- completed: entering `done` (a statuses table: a status of the completed category)
  if new.status <> 'done' or old.status = 'done' or new.recurrence is null or new.successor_id is not null then
    return new;
  end if;
  insert into public.tasks (project_id, title, description, status, priority, assignee_id, due_on, labels, recurrence, created_by)
  select new.project_id, new.title, new.description,
         'todo', -- the project's first unstarted status
         new.priority,
         -- the assignee, while they are still in the team
         (select m.user_id from public.projects p
          join public.team_members m on m.team_id = p.team_id and m.user_id = new.assignee_id
          where p.id = new.project_id),
         public.next_due_date(new.recurrence, new.due_on), new.labels, new.recurrence,
         coalesce(auth.uid(), new.created_by)
  returning id into next_id;
  new.successor_id := next_id;
  return new;
end;
$$;

revoke execute on function public.tasks_repeat() from public, anon, authenticated;

create trigger tasks_repeat
before update of status on public.tasks
for each row execute function public.tasks_repeat();
