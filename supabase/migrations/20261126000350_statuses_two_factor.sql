-- Two-factor at the API (20261126000100_aal2_everywhere.sql) on the tables
-- of project statuses, team labels, checklists and relations: the same
-- restrictive policy, ANDed with every permissive one, for every command.
create policy "two-factor accounts need aal2" on public.project_statuses
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.labels
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.task_labels
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.checklist_items
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
create policy "two-factor accounts need aal2" on public.task_relations
  as restrictive for all to authenticated
  using ((select public.has_required_aal())) with check ((select public.has_required_aal()));
