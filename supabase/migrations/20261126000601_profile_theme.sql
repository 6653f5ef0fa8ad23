-- The theme a person chose on /account (docs/product.md §13): light, dark, or
-- as their system says. The page is drawn from a cookie (so the first HTML
-- already has it, signed in or not); this column is the account's record,
-- and the user's metadata carries a copy in the access token, so a browser
-- without the cookie (a new device) takes the account's choice from the
-- token it signs in with, without a read. docs/decisions/0030-views-and-theme.md.

alter table public.profiles
  add column theme text not null default 'system',
  add constraint profiles_theme_known check (theme in ('light', 'dark', 'system'));

grant update (theme) on table public.profiles to authenticated;
