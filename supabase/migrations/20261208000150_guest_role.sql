-- Guests (issue 41; docs/product.md §20; docs/decisions/0041-guests.md): a team role below viewer.
-- Its own migration: a new enum value can't be used in the transaction that adds it
-- (20261208000160 uses it).
alter type public.team_role add value if not exists 'guest' before 'viewer';
