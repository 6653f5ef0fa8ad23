-- Positions stay dense after multi-row writes (issue 35, "bulk delete of two
-- tasks in the same column"; docs/decisions/0038-security-audit-three.md).
--
-- A column's tasks are numbered 0..n-1 (tasks_column_position_key, checked at
-- commit), and so are a task's checklist items. Until now a row-level AFTER
-- DELETE trigger closed the gap for each deleted row with that row's old
-- position: after a DELETE of two rows of one column, the second shift used a
-- position the first had already moved, two tasks ended on one place, and the
-- commit failed (23505) — bulk_edit_tasks(…, 'delete') and any REST delete of
-- several rows. Now the gaps are closed once per statement, from the
-- statement's transition tables: every column a statement took tasks out of
-- (a delete, or an update that changed status_id) or put tasks into is
-- renumbered 0..n-1 in its existing order (position, then id), so the result
-- does not depend on how many rows one statement wrote or in what order.
--
-- move_task (one task: shift, make room, place) and remove_status (a column's
-- tasks after the target's own) already leave their columns dense, so for them
-- the renumbering changes nothing; a future multi-row write that moves tasks
-- between columns is numbered by it without code of its own.

-- The columns (statuses) given: their tasks renumbered 0..n-1, in order. The
-- projects are locked first (in one order), as move_task and inserts lock
-- them, so a concurrent move or new task in the same project waits.
create function public.renumber_task_columns(statuses uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality($1), 0) = 0 then
    return;
  end if;
  perform 1 from public.projects p
  where p.id in (select s.project_id from public.project_statuses s where s.id = any ($1))
  order by p.id
  for update;
  update public.tasks t
  set position = o.n - 1
  from (
    select x.id, row_number() over (partition by x.status_id order by x.position, x.id) as n
    from public.tasks x
    where x.status_id = any ($1)
  ) o
  where t.id = o.id and t.position <> o.n - 1;
end;
$$;

create function public.tasks_close_gaps_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.renumber_task_columns(array(select distinct g.status_id from gone g));
  return null;
end;
$$;

-- Only statements that changed a task's column renumber anything: edits of
-- other fields (and the renumbering itself, which writes positions only) pass.
create function public.tasks_close_gaps_after_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.renumber_task_columns(array(
    select distinct c.status_id
    from before_rows b
    join after_rows a on a.id = b.id
    cross join lateral (values (b.status_id), (a.status_id)) c (status_id)
    where a.status_id is distinct from b.status_id
  ));
  return null;
end;
$$;

revoke execute on function
  public.renumber_task_columns(uuid[]),
  public.tasks_close_gaps_after_delete(),
  public.tasks_close_gaps_after_update()
from public, anon, authenticated;

drop trigger tasks_after_delete on public.tasks;
drop function public.tasks_after_delete();

create trigger tasks_close_gaps_after_delete
after delete on public.tasks
referencing old table as gone
for each statement execute function public.tasks_close_gaps_after_delete();

create trigger tasks_close_gaps_after_update
after update on public.tasks
referencing old table as before_rows new table as after_rows
for each statement execute function public.tasks_close_gaps_after_update();

-- A task's checklist: the same per-row shift failed for a REST delete of two
-- items of one task. Renumbered once per statement, for each task that lost items.
create function public.checklist_items_close_gaps() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.checklist_items c
  set position = o.n - 1
  from (
    select x.id, row_number() over (partition by x.task_id order by x.position, x.id) as n
    from public.checklist_items x
    where x.task_id in (select distinct g.task_id from gone g)
  ) o
  where c.id = o.id and c.position <> o.n - 1;
  return null;
end;
$$;

revoke execute on function public.checklist_items_close_gaps() from public, anon, authenticated;

drop trigger checklist_items_after_delete on public.checklist_items;
drop function public.checklist_items_after_delete();

create trigger checklist_items_close_gaps
after delete on public.checklist_items
referencing old table as gone
for each statement execute function public.checklist_items_close_gaps();
