-- A team's address (its slug) can be changed later in its settings (issue 29):
-- a name made from the team's name may collide with another team's, and the
-- person who didn't choose it should be able to choose. Who may is what the
-- existing update policy says (admins and the owner); the unique and format
-- constraints on teams.slug still hold.
grant update (slug) on table public.teams to authenticated;
