-- Demo data for a fresh local database (never run on a hosted project with real users).
--
-- Four confirmed users, all with the password  teamboard-demo-1
--   owner@teamboard.local   Olivia Owner   owner of Acme
--   admin@teamboard.local   Adam Admin     admin
--   member@teamboard.local  Mia Member     member
--   viewer@teamboard.local  Victor Viewer  viewer
-- One team "Acme" (/teams/acme) with projects WEB and OPS, 60 tasks, comments.
--
-- Users go into auth.users the way Supabase Auth writes them (empty strings,
-- not NULL, in the token columns: GoTrue cannot scan NULL there); their
-- profiles come from the on_auth_user_created trigger.

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token
)
select
  '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt('teamboard-demo-1', extensions.gen_salt('bf', 10)), now(),
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('display_name', u.display_name),
  now(), now(), null,
  '', '', '', '', '', '', '', ''
from (values
  ('a1000000-0000-4000-8000-000000000001'::uuid, 'owner@teamboard.local', 'Olivia Owner'),
  ('a1000000-0000-4000-8000-000000000002'::uuid, 'admin@teamboard.local', 'Adam Admin'),
  ('a1000000-0000-4000-8000-000000000003'::uuid, 'member@teamboard.local', 'Mia Member'),
  ('a1000000-0000-4000-8000-000000000004'::uuid, 'viewer@teamboard.local', 'Victor Viewer')
) as u (id, email, display_name);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', now(), now(), now()
from auth.users u
where u.email like '%@teamboard.local';

-- The team, with one person in each role ---------------------------------------------
insert into public.teams (id, name, slug, created_by)
values ('b1000000-0000-4000-8000-000000000001', 'Acme', 'acme', 'a1000000-0000-4000-8000-000000000001');

insert into public.team_members (team_id, user_id, role) values
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001', 'owner'),
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002', 'admin'),
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000003', 'member'),
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000004', 'viewer');

insert into public.projects (id, team_id, key, name, description) values
  ('c1000000-0000-4000-8000-000000000001', 'b1000000-0000-4000-8000-000000000001', 'WEB', 'Website',
   'The public website and the customer portal.'),
  ('c1000000-0000-4000-8000-000000000002', 'b1000000-0000-4000-8000-000000000001', 'OPS', 'Operations',
   'Servers, deploys, backups and on-call.');

-- 60 tasks: numbers and column positions come from the tasks trigger ---------------
insert into public.tasks (project_id, title, description, status, priority, assignee_id, due_on, labels, created_by)
select
  case when t.n <= 30 then 'c1000000-0000-4000-8000-000000000001'::uuid else 'c1000000-0000-4000-8000-000000000002'::uuid end,
  t.title,
  t.description,
  (array['backlog', 'todo', 'in_progress', 'done', 'canceled', 'todo', 'backlog', 'in_progress', 'done', 'todo'])[1 + t.n % 10]::public.task_status,
  (array['none', 'low', 'medium', 'high', 'urgent', 'medium', 'low'])[1 + t.n % 7]::public.task_priority,
  (array[
    'a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002',
    'a1000000-0000-4000-8000-000000000003', null, 'a1000000-0000-4000-8000-000000000003'
  ])[1 + t.n % 5]::uuid,
  case when t.n % 3 = 0 then null else date '2025-12-01' + (t.n * 3)::int end,
  t.labels,
  (array[
    'a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002',
    'a1000000-0000-4000-8000-000000000003'
  ])[1 + t.n % 3]::uuid
from (
  select (row_number() over ())::int as n, v.title, v.description, v.labels
  from (values
    ('Redesign the landing page hero', 'The hero should say what Teamboard does in one sentence.', array['design', 'marketing']),
    ('Fix signup form focus order', 'Tab order jumps from email to the footer.', array['bug', 'a11y']),
    ('Add dark mode', 'Respect prefers-color-scheme; keep contrast AA.', array['design']),
    ('Pricing page copy', 'Three plans; the team plan is the default.', array['marketing']),
    ('Compress hero images', 'Serve AVIF and WebP with a JPEG fallback.', array['performance']),
    ('Cookie banner only where required', '', array['legal']),
    ('Blog: how we plan a sprint', 'Draft, then review with the team.', array['content']),
    ('404 page illustration', '', array['design']),
    ('Lazy-load the customer logos', '', array['performance']),
    ('Broken link in the footer', 'The "Careers" link points to the old domain.', array['bug']),
    ('Portal: invoice download', 'PDF invoices for the last 24 months.', array['portal']),
    ('Portal: change billing email', '', array['portal']),
    ('Search box on the docs', 'Full text over the docs pages.', array['docs', 'search']),
    ('Keyboard shortcuts help dialog', 'Press ? to open.', array['a11y']),
    ('Update the favicon', '', array['design']),
    ('Structured data for articles', 'JSON-LD for blog posts.', array['seo']),
    ('Sitemap generation', 'Regenerate on deploy.', array['seo']),
    ('Newsletter signup double opt-in', '', array['marketing', 'legal']),
    ('Portal: team seats overview', 'Show used and free seats.', array['portal']),
    ('Fix layout shift on the pricing table', 'CLS is 0.2 on mobile.', array['bug', 'performance']),
    ('Translate the homepage to German', '', array['i18n']),
    ('Contact form spam protection', 'Honeypot field first; no captcha.', array['security']),
    ('Accessibility audit follow-ups', 'Twelve findings from the audit, see the report.', array['a11y']),
    ('Status page link in the header', '', array[]::text[]),
    ('Case study: Globex', 'Interview notes are in the shared drive.', array['content']),
    ('Portal: export tasks as CSV', '', array['portal']),
    ('Remove the old jQuery carousel', '', array['cleanup']),
    ('Print stylesheet for invoices', '', array['portal']),
    ('Open Graph images per page', '', array['seo', 'design']),
    ('Consent-free analytics', 'Count page views without cookies.', array['legal', 'analytics']),
    ('Rotate the database credentials', 'Quarterly rotation; update the secrets store.', array['security']),
    ('Nightly backup restore test', 'Restore last night''s backup into staging and compare counts.', array['backups']),
    ('Upgrade Postgres to 17', 'Read the release notes; test the extensions.', array['database']),
    ('Alert on disk usage above 80%', '', array['monitoring']),
    ('On-call rotation for December', '', array['on-call']),
    ('Move logs to the new bucket', '', array['logging']),
    ('TLS certificate renewal check', 'Alert 21 days before expiry.', array['security', 'monitoring']),
    ('Deploy previews for pull requests', '', array['ci']),
    ('Cut the Docker image size', 'Multi-stage build; drop the dev dependencies.', array['ci', 'performance']),
    ('Document the incident process', 'Who declares, who communicates, where we write it down.', array['docs', 'on-call']),
    ('Runbook: database failover', '', array['docs', 'database']),
    ('Rate limits on the public API', '', array['security']),
    ('Clean up unused DNS records', '', array['cleanup']),
    ('Staging data refresh', 'Anonymise emails on the way.', array['database']),
    ('Dashboards for queue latency', '', array['monitoring']),
    ('Renew the domain names', 'Auto-renew is off for two of them.', array['admin']),
    ('Post-mortem: 12 November outage', 'Timeline, causes, actions.', array['on-call']),
    ('Patch the kernel on the workers', '', array['security']),
    ('Move cron jobs to the scheduler', '', array['ci']),
    ('Budget alerts for the cloud account', '', array['admin', 'monitoring']),
    ('Archive old S3 buckets', '', array['cleanup']),
    ('Load test the search endpoint', 'Target: 200 requests per second at p95 < 300 ms.', array['performance', 'search']),
    ('Error budget policy', '', array['docs']),
    ('Secrets scanning in CI', '', array['security', 'ci']),
    ('Uptime checks from three regions', '', array['monitoring']),
    ('Vacuum settings for the tasks table', 'Autovacuum falls behind during imports.', array['database']),
    ('Replace the VPN appliance', '', array['security']),
    ('Log retention to 30 days', '', array['logging', 'legal']),
    ('SLO review with the web team', '', array['monitoring']),
    ('Disaster recovery drill', 'Full region loss, once a year.', array['backups'])
  ) as v (title, description, labels)
) as t;

-- A conversation on a few tasks ---------------------------------------------------
insert into public.comments (task_id, author_id, body, created_at)
select t.id, c.author_id::uuid, c.body, now() - (c.age_minutes || ' minutes')::interval
from (values
  ('WEB', 1, 'a1000000-0000-4000-8000-000000000001', 'Can we try a version without the illustration?', 300),
  ('WEB', 1, 'a1000000-0000-4000-8000-000000000003', 'Sure, I''ll put both side by side.', 240),
  ('WEB', 1, 'a1000000-0000-4000-8000-000000000002', 'The plain one reads faster. Let''s ship that.', 60),
  ('WEB', 2, 'a1000000-0000-4000-8000-000000000003', 'Reproduced in Firefox and Safari.', 200),
  ('WEB', 10, 'a1000000-0000-4000-8000-000000000002', 'Fixed in the footer component, needs a deploy.', 90),
  ('WEB', 23, 'a1000000-0000-4000-8000-000000000001', 'Let''s do the contrast findings first.', 500),
  ('WEB', 23, 'a1000000-0000-4000-8000-000000000003', 'Contrast is done; working on the focus rings.', 30),
  ('OPS', 2, 'a1000000-0000-4000-8000-000000000002', 'Restore took 14 minutes; counts match.', 120),
  ('OPS', 3, 'a1000000-0000-4000-8000-000000000001', 'pg_trgm and citext are fine on 17.', 400),
  ('OPS', 3, 'a1000000-0000-4000-8000-000000000003', 'Staging upgraded, watching it for a week.', 45),
  ('OPS', 17, 'a1000000-0000-4000-8000-000000000002', 'Draft is in the docs folder.', 75)
) as c (project_key, task_number, author_id, body, age_minutes)
join public.projects p on p.key = c.project_key and p.team_id = 'b1000000-0000-4000-8000-000000000001'
join public.tasks t on t.project_id = p.id and t.number = c.task_number;

-- Time (PRODUCT.md §12) ---------------------------------------------------------------
-- People in three time zones (the account's metadata; a trigger copies it to the profile),
-- and tasks due today and tomorrow on Olivia's and Mia's calendars, one of them overdue.
update auth.users u set raw_user_meta_data = u.raw_user_meta_data || jsonb_build_object('time_zone', z.zone)
from (values
  ('a1000000-0000-4000-8000-000000000001'::uuid, 'Europe/Berlin'),
  ('a1000000-0000-4000-8000-000000000002'::uuid, 'America/New_York'),
  ('a1000000-0000-4000-8000-000000000003'::uuid, 'Asia/Calcutta')
) as z (id, zone)
where u.id = z.id;

update public.tasks t set due_on = current_date + d.days, assignee_id = d.assignee::uuid
from (values
  ('WEB', 2, 0, 'a1000000-0000-4000-8000-000000000001'),
  ('WEB', 6, 1, 'a1000000-0000-4000-8000-000000000001'),
  ('WEB', 9, -3, 'a1000000-0000-4000-8000-000000000001'),
  ('OPS', 2, 0, 'a1000000-0000-4000-8000-000000000003'),
  ('OPS', 5, 1, 'a1000000-0000-4000-8000-000000000003')
) as d (project_key, task_number, days, assignee)
join public.projects p on p.key = d.project_key and p.team_id = 'b1000000-0000-4000-8000-000000000001'
where t.project_id = p.id and t.number = d.task_number;

-- WEB-6 (due tomorrow) repeats every week on its due date's weekday: completing it makes the next one.
update public.tasks t
set recurrence = 'FREQ=WEEKLY;INTERVAL=1;BYDAY=' || (array['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'])[extract(isodow from t.due_on)::int]
from public.projects p
where p.key = 'WEB' and p.team_id = 'b1000000-0000-4000-8000-000000000001'
  and t.project_id = p.id and t.number = 6;
