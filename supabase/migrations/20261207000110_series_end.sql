-- A series ends at the last date a task can have (issue 35 L1;
-- docs/decisions/0038-security-audit-three.md).
--
-- Completing a repeating task whose next date falls after 2100-12-31 (the end
-- of tasks_due_on_range: yearly every 99 years, a daily task due 2100-12-31)
-- failed: the successor broke the check, so the task could not be completed,
-- and one such task refused a whole all-or-nothing bulk status edit. Refusing
-- such rules when they are set cannot be complete — every rule's series
-- passes 2100 in the end, one completion at a time — so the series ends
-- there instead: the task is completed, no successor is made and its rule is
-- cleared (it no longer repeats; the activity reads "stopped … repeating",
-- recorded with the completion).
--
-- Restates public.tasks_repeat() from 20261126000530_recurring_tasks.sql; only
-- the end of the series is new.

create or replace function public.tasks_repeat() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  next_id uuid;
  next_due date;
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
  -- the series ends where its next date would fall after the last date a task can have
  next_due := public.next_due_date(new.recurrence, new.due_on);
  if next_due is null or next_due > date '2100-12-31' then
    new.recurrence := null;
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
         next_due, new.parent_id, new.recurrence,
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

