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
-- "Completed" is entering a status of the `completed` category from one
-- that isn't (project_statuses, issue 24); the successor starts in the
-- project's first `unstarted` status (else its first not-closed one), with
-- the task's team labels and its checklist, unticked.

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
  if new.recurrence is null or new.successor_id is not null
     or new.status_id is not distinct from old.status_id then
    return new;
  end if;
  -- completed: entering a status of the completed category from one that isn't
  if not exists (select 1 from public.project_statuses s where s.id = new.status_id and s.category = 'completed')
     or exists (select 1 from public.project_statuses s where s.id = old.status_id and s.category = 'completed') then
    return new;
  end if;
  insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, due_on, parent_id,
                            recurrence, created_by)
  select new.project_id, new.title, new.description,
         -- the project's first unstarted status (a project keeps one), else its first open one
         (select s.id from public.project_statuses s
          where s.project_id = new.project_id and s.category in ('unstarted', 'backlog', 'started')
          order by s.category <> 'unstarted', s.position
          limit 1),
         new.priority,
         -- the assignee, while they are still in the team
         (select m.user_id from public.projects p
          join public.team_members m on m.team_id = p.team_id and m.user_id = new.assignee_id
          where p.id = new.project_id),
         public.next_due_date(new.recurrence, new.due_on), new.parent_id, new.recurrence,
         coalesce(auth.uid(), new.created_by)
  returning id into next_id;
  -- its team labels (task_labels keeps label_ids) and its checklist, unticked, in the same order
  insert into public.task_labels (task_id, label_id, project_id)
  select next_id, tl.label_id, new.project_id from public.task_labels tl where tl.task_id = new.id;
  insert into public.checklist_items (task_id, project_id, title, position)
  select next_id, new.project_id, c.title, c.position
  from public.checklist_items c where c.task_id = new.id
  order by c.position;
  new.successor_id := next_id;
  return new;
end;
$$;

revoke execute on function public.tasks_repeat() from public, anon, authenticated;

create trigger tasks_repeat
before update of status_id on public.tasks
for each row execute function public.tasks_repeat();
