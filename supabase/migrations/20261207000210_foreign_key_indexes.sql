-- An index for every foreign key with an ON DELETE action (issue 37; docs/decisions/0034-scale.md).
--
-- Deleting the referenced row makes Postgres find the referencing rows by the
-- key's columns; without an index whose leading columns are those, that is a
-- sequential scan of the whole referencing table, once per deleted row (one
-- comment deleted with 252,000 notifications: 206–258 ms; with the index 2–5 ms).
-- tests/integration/db-catalog.test.ts fails on a foreign key with an ON DELETE
-- action and no such index. Partial indexes (`where … is not null`) where most
-- rows have no reference: the action's lookup (`= $1`) implies not null.

create index notifications_comment_idx on public.notifications (comment_id) where comment_id is not null;
create index notifications_actor_idx on public.notifications (actor_id) where actor_id is not null;
create index notifications_team_idx on public.notifications (team_id);
create index task_events_project_idx on public.task_events (project_id);
create index tasks_due_on_set_by_idx on public.tasks (due_on_set_by) where due_on_set_by is not null;
create index teams_created_by_idx on public.teams (created_by) where created_by is not null;

-- tasks (project_id, parent_id) → tasks (project_id, id) on delete set null (parent_id): the
-- index on parent_id alone served the lookup, but did not have the key's columns; this one leads
-- with both and still serves "the sub-tasks of a task" (parent_id = …).
create index tasks_parent_idx on public.tasks (parent_id, project_id) where parent_id is not null;
drop index public.tasks_parent_id_idx;
