-- No loops of blocking tasks (issue 35 L6; docs/decisions/0038-security-audit-three.md).
--
-- Two tasks could not block each other, but three or more could
-- (a blocks b, b blocks c, c blocks a): all of them "Blocked" for ever, none
-- able to start first. A new "blocks" relation is refused (23514, DETAIL
-- task_relations_block_cycle, words in app/lib/db-messages.ts) when the task
-- it would block already blocks the other, directly or through any chain of
-- blocks. Inserts of blocks in one team take a transaction-level advisory
-- lock, so two relations added at once (b→c and c→a beside a→b) can't each
-- pass the check before the other commits.
--
-- Restates public.task_relations_before_insert() from
-- 20261126000320_checklists_subtasks_relations.sql; only the loop check is new.

create or replace function public.task_relations_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  from_team uuid;
  to_team uuid;
begin
  if new.from_task_id = new.to_task_id then
    raise exception 'A task can''t be related to itself.' using errcode = '23514', detail = 'task_relations_not_self';
  end if;
  -- one new block at a time per team (taken before the rows, always in this order), so two
  -- blocks added at once can't each miss the loop the other closes
  if new.kind = 'blocks' then
    perform pg_advisory_xact_lock(hashtextextended('task_relations_blocks:' || coalesce((
      select p.team_id::text from public.tasks t join public.projects p on p.id = t.project_id
      where t.id = new.from_task_id), ''), 0));
  end if;
  perform 1 from public.tasks t where t.id in (new.from_task_id, new.to_task_id) order by t.id for update;
  select p.team_id into from_team from public.tasks t join public.projects p on p.id = t.project_id where t.id = new.from_task_id;
  select p.team_id into to_team from public.tasks t join public.projects p on p.id = t.project_id where t.id = new.to_task_id;
  if from_team is null or to_team is null then
    raise exception 'Task not found.' using errcode = '23503';
  end if;
  if from_team <> to_team then
    raise exception 'Both tasks must be in the same team.' using errcode = '23514', detail = 'task_relations_same_team';
  end if;
  new.team_id := from_team;
  if new.kind = 'blocks' and exists (
    select 1 from public.task_relations r
    where r.kind = 'blocks' and r.from_task_id = new.to_task_id and r.to_task_id = new.from_task_id
  ) then
    raise exception 'A task can''t block a task that blocks it.' using errcode = '23514', detail = 'task_relations_mutual_block';
  end if;
  -- no longer loops either: the new task it blocks must not already block it, through any others
  if new.kind = 'blocks' then
    if exists (
      with recursive waits_on (task_id) as (
        select r.to_task_id from public.task_relations r
        where r.kind = 'blocks' and r.from_task_id = new.to_task_id
        union
        select r.to_task_id from public.task_relations r
        join waits_on w on r.from_task_id = w.task_id
        where r.kind = 'blocks'
      )
      select 1 from waits_on w where w.task_id = new.from_task_id
    ) then
      raise exception 'Those tasks would block each other in a loop.'
        using errcode = '23514', detail = 'task_relations_block_cycle';
    end if;
  end if;
  if exists (
    select 1 from public.task_relations r
    where r.kind = new.kind
      and least(r.from_task_id, r.to_task_id) = least(new.from_task_id, new.to_task_id)
      and greatest(r.from_task_id, r.to_task_id) = greatest(new.from_task_id, new.to_task_id)
  ) then
    raise exception 'Those tasks are already related that way.' using errcode = '23514', detail = 'task_relations_duplicate';
  end if;
  return new;
end;
$$;

