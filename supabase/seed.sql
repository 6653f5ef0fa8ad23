-- Demo data for a fresh local database (never run on a hosted project with real users).
--
-- Four confirmed users, all with the password  teamboard-demo-1
--   owner@teamboard.local   Olivia Owner   owner of Acme
--   admin@teamboard.local   Adam Admin     admin
--   member@teamboard.local  Mia Member     member
--   viewer@teamboard.local  Victor Viewer  viewer
-- One team "Acme" (/teams/acme) with projects WEB and OPS, 63 tasks, comments,
-- coloured labels; WEB has a "Review" column with a WIP limit, checklists,
-- sub-tasks, a blocked task, and (at the end) a task written in Markdown with a picture.
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

-- WEB's board has a "Review" column (after In progress) with a WIP limit of 2,
-- and In progress one of 4; every project got its five statuses when it was made.
insert into public.project_statuses (project_id, name, color, category, wip_limit)
values ('c1000000-0000-4000-8000-000000000001', 'Review', 'purple', 'started', 2);
update public.project_statuses s
set position = case s.name when 'Review' then 3 when 'Done' then 4 when 'Canceled' then 5 else s.position end,
    wip_limit = case s.name when 'In progress' then 4 else s.wip_limit end
where s.project_id = 'c1000000-0000-4000-8000-000000000001';

-- 60 tasks: numbers and column positions come from the tasks trigger ---------------
create temporary table seed_tasks on commit drop as
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
  ) as v (title, description, labels);

-- due dates around today: a few overdue, most in the weeks ahead
insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, due_on, created_by)
select
  p.id,
  t.title,
  t.description,
  s.id,
  (array['none', 'low', 'medium', 'high', 'urgent', 'medium', 'low'])[1 + t.n % 7]::public.task_priority,
  (array[
    'a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002',
    'a1000000-0000-4000-8000-000000000003', null, 'a1000000-0000-4000-8000-000000000003'
  ])[1 + t.n % 5]::uuid,
  case when t.n % 3 = 0 then null else current_date - 10 + t.n * 2 end,
  (array[
    'a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002',
    'a1000000-0000-4000-8000-000000000003'
  ])[1 + t.n % 3]::uuid
from seed_tasks t
join public.projects p on p.id = case when t.n <= 30 then 'c1000000-0000-4000-8000-000000000001'::uuid
                                      else 'c1000000-0000-4000-8000-000000000002'::uuid end
join public.project_statuses s on s.project_id = p.id and s.name = (
  case when t.n <= 30
    then array['Backlog', 'To do', 'In progress', 'Done', 'Canceled', 'To do', 'Backlog', 'Review', 'Done', 'To do']
    else array['Backlog', 'To do', 'In progress', 'Done', 'Canceled', 'To do', 'Backlog', 'In progress', 'Done', 'To do']
  end)[1 + t.n % 10]
order by t.n;

-- The team's labels, coloured, and the tasks carrying them ----------------------------
insert into public.labels (team_id, name, color, created_by)
select 'b1000000-0000-4000-8000-000000000001', l.name,
       coalesce(c.color, (array['blue', 'green', 'orange', 'purple', 'teal', 'indigo', 'pink', 'yellow'])[
         1 + ((row_number() over (order by l.name) - 1) % 8)::int])::public.palette_color,
       'a1000000-0000-4000-8000-000000000001'
from (select distinct unnest(labels) as name from seed_tasks) l
left join (values
  ('bug', 'red'), ('design', 'purple'), ('security', 'orange'), ('a11y', 'teal'),
  ('performance', 'yellow'), ('marketing', 'pink'), ('legal', 'gray'), ('docs', 'green')
) as c (name, color) on c.name = l.name;

insert into public.task_labels (task_id, label_id)
select tk.id, lb.id
from seed_tasks t
join public.projects p on p.id = case when t.n <= 30 then 'c1000000-0000-4000-8000-000000000001'::uuid
                                      else 'c1000000-0000-4000-8000-000000000002'::uuid end
join public.tasks tk on tk.project_id = p.id and tk.number = case when t.n <= 30 then t.n else t.n - 30 end
cross join unnest(t.labels) as x (name)
join public.labels lb on lb.team_id = p.team_id and lb.name = x.name;

-- WEB-23 (the accessibility audit): a checklist and two sub-tasks; WEB-1 a
-- checklist too; WEB-11 is blocked by WEB-12 (open), and WEB-26 relates to OPS-22.
insert into public.checklist_items (task_id, title, done, created_by)
select tk.id, c.title, c.done, 'a1000000-0000-4000-8000-000000000003'
from (values
  (23, 1, 'Contrast of muted text', true),
  (23, 2, 'Focus rings on every control', true),
  (23, 3, 'Skip link to the main content', true),
  (23, 4, 'Form errors announced', false),
  (23, 5, 'Headings in order on every page', false),
  (1, 1, 'Draft two headlines', true),
  (1, 2, 'Pick one with the team', false),
  (1, 3, 'Hand over to design', false)
) as c (number, ord, title, done)
join public.tasks tk on tk.project_id = 'c1000000-0000-4000-8000-000000000001' and tk.number = c.number
order by c.number, c.ord;

insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, parent_id, created_by)
select 'c1000000-0000-4000-8000-000000000001', c.title, '', s.id, 'medium', 'a1000000-0000-4000-8000-000000000003',
       parent.id, 'a1000000-0000-4000-8000-000000000001'
from (values (1, 'Fix focus order in the sign-up form', 'Done'), (2, 'Label the icon buttons', 'In progress')) as c (ord, title, status)
join public.tasks parent on parent.project_id = 'c1000000-0000-4000-8000-000000000001' and parent.number = 23
join public.project_statuses s on s.project_id = parent.project_id and s.name = c.status
order by c.ord;

insert into public.task_relations (from_task_id, to_task_id, kind, created_by)
select f.id, t.id, r.kind::public.relation_kind, 'a1000000-0000-4000-8000-000000000002'
from (values ('WEB', 12, 'WEB', 11, 'blocks'), ('WEB', 26, 'OPS', 22, 'relates')) as r (from_key, from_number, to_key, to_number, kind)
join public.projects fp on fp.key = r.from_key and fp.team_id = 'b1000000-0000-4000-8000-000000000001'
join public.tasks f on f.project_id = fp.id and f.number = r.from_number
join public.projects tp on tp.key = r.to_key and tp.team_id = 'b1000000-0000-4000-8000-000000000001'
join public.tasks t on t.project_id = tp.id and t.number = r.to_number;

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

-- Time (docs/product.md §12) ---------------------------------------------------------------
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
  ('WEB', 5, 0, 'a1000000-0000-4000-8000-000000000001'),
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
-- Seeing the work (docs/product.md §13) ---------------------------------------------
-- Mia chose the dark theme: the account's choice (profiles.theme) and the copy her
-- access token carries, so logging in as member@teamboard.local shows it at once.
update auth.users set raw_user_meta_data = raw_user_meta_data || '{"theme": "dark"}'::jsonb
where id = 'a1000000-0000-4000-8000-000000000003';
update public.profiles set theme = 'dark' where id = 'a1000000-0000-4000-8000-000000000003';

-- My work for Mia: three of her open tasks fall due around today (one overdue)
update public.tasks t
set due_on = current_date + d.days
from (values ('WEB', 3, -1), ('WEB', 8, 2), ('OPS', 3, 5)) as d (project_key, nth, days),
     public.projects p
where p.id = t.project_id and p.key = d.project_key
  and t.id = (
    select x.id from public.tasks x
    where x.project_id = p.id and x.assignee_id = 'a1000000-0000-4000-8000-000000000003'
      and x.completed_at is null
    order by x.number offset d.nth - 1 limit 1
  );

-- Saved views beside WEB's tabs: Mia's own, and one Adam (an admin) shares with the team
insert into public.saved_views (project_id, owner_id, name, kind, query, shared) values
  ('c1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000003', 'My open work', 'list',
   'assignee=me&sort=due&group=status', false),
  ('c1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002', 'Bugs by priority', 'list',
   'label=bug&sort=-priority&group=priority', true);

-- Text and pictures (docs/product.md §14) ------------------------------------------
-- A task written in Markdown with a picture attached and shown in the text. The
-- picture's file is supabase/seed/storage/attachments/<task id>/board-sketch.png,
-- which the stack uploads into the `attachments` bucket on a fresh database
-- (supabase/config.toml, [storage.buckets.attachments] objects_path).
insert into public.tasks (id, project_id, title, description, status_id, priority, assignee_id, due_on, created_by)
select
  'd1000000-0000-4000-8000-000000000001', 'c1000000-0000-4000-8000-000000000001',
  'Launch the new board layout',
  $md$## What changes

The board gets **wider columns** and _calmer_ cards. Sketch below; the old layout stays until WEB-20 is fixed.

![Board sketch](/attachments/e1000000-0000-4000-8000-000000000001)

## Steps

- [x] Sketch the columns
- [x] Agree on card contents with @mia_member
- [ ] Ship behind a flag
- [ ] Remove the flag after a week

| Screen | Columns | Cards per column |
|--------|--------:|-----------------:|
| Phone  |       1 |               20 |
| Laptop |       4 |               50 |

```css
.board { display: grid; grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); gap: 1rem; }
```

Background: [the design notes](https://example.com/design-notes) and ~~the old mock-ups~~.$md$,
  s.id, 'high', 'a1000000-0000-4000-8000-000000000003', current_date + 5, 'a1000000-0000-4000-8000-000000000001'
from public.project_statuses s
where s.project_id = 'c1000000-0000-4000-8000-000000000001' and s.name = 'To do';

insert into public.task_labels (task_id, label_id)
select 'd1000000-0000-4000-8000-000000000001', l.id
from public.labels l
where l.team_id = 'b1000000-0000-4000-8000-000000000001' and l.name = 'design';

insert into public.attachments (id, task_id, object_path, file_name, size_bytes, content_type, uploaded_by, created_at)
values (
  'e1000000-0000-4000-8000-000000000001', 'd1000000-0000-4000-8000-000000000001',
  'd1000000-0000-4000-8000-000000000001/board-sketch.png', 'board-sketch.png', 10817, 'image/png',
  'a1000000-0000-4000-8000-000000000001', now() - interval '3 hours'
);

insert into public.comments (task_id, author_id, body, created_at) values
  ('d1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000003',
   'Looks good. Cards need the **due date** on phones too, see WEB-4.', now() - interval '2 hours'),
  ('d1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002',
   $md$Flag name: `board_v2`. I'll add it to the config:

```
BOARD_V2=on
```$md$, now() - interval '1 hour');
-- Activity, watching and notifications (docs/product.md §10) ------------------------------
-- The triggers recorded everything above as it went in, with no actor (the seed
-- runs as the database's owner, like a script) and at this moment. Name each
-- creator and author, and spread the tasks' beginnings over the last two weeks.
alter table public.tasks disable trigger tasks_set_updated_at;
update public.tasks t
set created_at = now() - interval '1 day' * (2 + (t.number * 7) % 12) - interval '1 hour' * (t.number % 9),
    updated_at = now() - interval '1 day' * (2 + (t.number * 7) % 12) - interval '1 hour' * (t.number % 9)
from public.projects p
where p.id = t.project_id and p.team_id = 'b1000000-0000-4000-8000-000000000001';
alter table public.tasks enable trigger tasks_set_updated_at;

update public.task_events e
set actor_id = t.created_by, created_at = t.created_at
from public.tasks t
where t.id = e.task_id and e.kind = 'task_created';

update public.task_events e
set actor_id = c.author_id, created_at = c.created_at
from public.comments c
where c.id = (e.data ->> 'comment_id')::uuid and e.kind = 'comment_posted';

update public.task_events e
set actor_id = a.uploaded_by, created_at = a.created_at
from public.attachments a
where a.id = (e.data ->> 'attachment_id')::uuid and e.kind = 'attachment_added';

-- labels, checklists, sub-tasks and relations: by whoever made them, soon after the task
update public.task_events e
set actor_id = t.created_by, created_at = t.created_at + interval '2 minutes'
from public.tasks t
where t.id = e.task_id and e.kind = 'task_updated' and e.actor_id is null;

update public.task_events e
set actor_id = ci.created_by, created_at = t.created_at + interval '1 hour'
from public.checklist_items ci, public.tasks t
where ci.id = (e.data ->> 'item_id')::uuid and t.id = ci.task_id and e.kind = 'checklist_item_added';

update public.task_events e
set actor_id = st.created_by, created_at = st.created_at
from public.tasks st
where st.id = (e.data ->> 'subtask_id')::uuid and e.kind = 'subtask_added';

update public.task_events e
set actor_id = r.created_by, created_at = greatest(f.created_at, t.created_at) + interval '3 hours'
from public.task_relations r, public.tasks f, public.tasks t
where e.kind = 'relation_added' and f.id = r.from_task_id and t.id = r.to_task_id
  and e.task_id in (r.from_task_id, r.to_task_id)
  and (e.data ->> 'other_task_id')::uuid in (r.from_task_id, r.to_task_id);

-- What a script's inserts notified (assignments by "someone") is not the demo's story
delete from public.notifications;

-- Mia gets comments on her tasks by email right away too (so a comment from
-- Olivia reaches her inbox within two minutes on a fresh `npm run dev`)
insert into public.notification_settings (user_id, kind, email)
values ('a1000000-0000-4000-8000-000000000003', 'comment', 'instant');

-- A few changes made as the people themselves (their claims, as a request
-- through the API carries them), so the demo has events by name and
-- notifications for Mia, Olivia and Adam.
select set_config('request.jwt.claims', '{"sub":"a1000000-0000-4000-8000-000000000001","role":"authenticated"}', true);
select public.move_task(t.id, s.id)
from public.tasks t join public.project_statuses s on s.project_id = t.project_id and s.name = 'In progress'
where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 9;
insert into public.comments (task_id, author_id, body)
select t.id, 'a1000000-0000-4000-8000-000000000001',
       '@mia_member could you pair with @adam_admin on the focus rings? The `@media (prefers-reduced-motion)` part is done.'
from public.tasks t where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 23;

select set_config('request.jwt.claims', '{"sub":"a1000000-0000-4000-8000-000000000002","role":"authenticated"}', true);
update public.tasks t set assignee_id = 'a1000000-0000-4000-8000-000000000003', priority = 'high'
where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 5;

select set_config('request.jwt.claims', '{"sub":"a1000000-0000-4000-8000-000000000003","role":"authenticated"}', true);
insert into public.comments (task_id, author_id, body)
select t.id, 'a1000000-0000-4000-8000-000000000003', 'The plain hero is live on staging. @olivia_owner, have a look?'
from public.tasks t where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 1;
insert into public.task_labels (task_id, label_id)
select t.id, l.id
from public.tasks t join public.labels l on l.team_id = 'b1000000-0000-4000-8000-000000000001' and l.name = 'performance'
where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 2;
update public.tasks t set due_on = current_date + 5
where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 2;
update public.checklist_items ci set done = true
from public.tasks t
where t.id = ci.task_id and t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 23
  and ci.title = 'Form errors announced';
select set_config('request.jwt.claims', '', true);

-- ... spread over the last hours, the oldest of Mia's already read; nothing of the demo is emailed
update public.task_events e
set created_at = now() - x.ago
from public.tasks t, (values
  (9, 'task_updated', interval '3 hours'),
  (23, 'comment_posted', interval '95 minutes'),
  (5, 'task_updated', interval '50 minutes'),
  (1, 'comment_posted', interval '20 minutes'),
  (2, 'task_updated', interval '10 minutes'),
  (23, 'checklist_item_ticked', interval '5 minutes')
) as x (number, kind, ago)
where t.id = e.task_id and t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = x.number
  and e.kind = x.kind and e.created_at = now();
update public.comments c set created_at = e.created_at
from public.task_events e
where e.kind = 'comment_posted' and (e.data ->> 'comment_id')::uuid = c.id and c.created_at = now();
update public.notifications n
set created_at = e.created_at, email = 'none',
    read_at = case when n.kind = 'status' then e.created_at + interval '10 minutes' end
from public.task_events e
where e.id = n.event_id;

-- Fields the team defines and several assignees (docs/product.md §17) ------------------------
-- WEB has "Customer" (a select, on cards) and "Points" (a number 0–100, on cards,
-- summed in the column headers), "Launch date" and "Design link"; a dozen tasks
-- hold values. WEB-1, WEB-5 and WEB-23 have two assignees. Set as the demo's
-- past, not as edits: no timeline events, no notifications.
insert into public.fields (id, project_id, name, kind, on_card, sum, number_min, number_max, number_decimals, created_by) values
  ('f1000000-0000-4000-8000-000000000001', 'c1000000-0000-4000-8000-000000000001', 'Customer', 'select', true, false, null, null, null, 'a1000000-0000-4000-8000-000000000001'),
  ('f1000000-0000-4000-8000-000000000002', 'c1000000-0000-4000-8000-000000000001', 'Points', 'number', true, true, 0, 100, 0, 'a1000000-0000-4000-8000-000000000001'),
  ('f1000000-0000-4000-8000-000000000003', 'c1000000-0000-4000-8000-000000000001', 'Launch date', 'date', false, false, null, null, null, 'a1000000-0000-4000-8000-000000000001'),
  ('f1000000-0000-4000-8000-000000000004', 'c1000000-0000-4000-8000-000000000001', 'Design link', 'link', false, false, null, null, null, 'a1000000-0000-4000-8000-000000000001');
insert into public.field_options (field_id, name, color) values
  ('f1000000-0000-4000-8000-000000000001', 'Acme', 'blue'),
  ('f1000000-0000-4000-8000-000000000001', 'Globex', 'green'),
  ('f1000000-0000-4000-8000-000000000001', 'Initech', 'orange');
insert into public.field_values (task_id, field_id, value)
select t.id, v.field_id::uuid, v.value::jsonb
from (values
  (1, 'f1000000-0000-4000-8000-000000000001', '"Acme"'), (1, 'f1000000-0000-4000-8000-000000000002', '5'),
  (2, 'f1000000-0000-4000-8000-000000000001', '"Globex"'), (2, 'f1000000-0000-4000-8000-000000000002', '3'),
  (3, 'f1000000-0000-4000-8000-000000000002', '8'), (4, 'f1000000-0000-4000-8000-000000000002', '2'),
  (5, 'f1000000-0000-4000-8000-000000000001', '"Acme"'), (5, 'f1000000-0000-4000-8000-000000000002', '13'),
  (8, 'f1000000-0000-4000-8000-000000000002', '1'), (10, 'f1000000-0000-4000-8000-000000000001', '"Initech"'),
  (11, 'f1000000-0000-4000-8000-000000000002', '5'), (12, 'f1000000-0000-4000-8000-000000000002', '3'),
  (23, 'f1000000-0000-4000-8000-000000000001', '"Globex"'), (23, 'f1000000-0000-4000-8000-000000000002', '8'),
  (1, 'f1000000-0000-4000-8000-000000000004', '"https://example.com/designs/hero"')
) as v (number, field_id, value)
join public.tasks t on t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = v.number;
-- a launch date relative to the day the database is made
insert into public.field_values (task_id, field_id, value)
select t.id, 'f1000000-0000-4000-8000-000000000003', to_jsonb(to_char(current_date + 21, 'YYYY-MM-DD'))
from public.tasks t where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number = 23;
-- two assignees on WEB-1, WEB-5 and WEB-23: the first of Mia, Adam, Olivia not on it yet, twice if need be
-- (each task's first stays first; the seed's assignees vary, so this doesn't name one)
insert into public.task_assignees (task_id, person_id)
select t.id, (
  select p.person::uuid
  from (values (1, 'a1000000-0000-4000-8000-000000000003'), (2, 'a1000000-0000-4000-8000-000000000002'),
               (3, 'a1000000-0000-4000-8000-000000000001')) as p (rank, person)
  where not (p.person::uuid = any (t.assignee_ids))
  order by p.rank
  limit 1
)
from public.tasks t
where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number in (1, 5, 23) and cardinality(t.assignee_ids) < 2;
insert into public.task_assignees (task_id, person_id)
select t.id, (
  select p.person::uuid
  from (values (1, 'a1000000-0000-4000-8000-000000000003'), (2, 'a1000000-0000-4000-8000-000000000002'),
               (3, 'a1000000-0000-4000-8000-000000000001')) as p (rank, person)
  where not (p.person::uuid = any (t.assignee_ids))
  order by p.rank
  limit 1
)
from public.tasks t
where t.project_id = 'c1000000-0000-4000-8000-000000000001' and t.number in (1, 5, 23) and cardinality(t.assignee_ids) < 2;
delete from public.notifications n
using public.task_events e
where n.event_id = e.id and n.kind = 'assigned' and e.kind = 'task_updated' and e.created_at = now()
  and e.data -> 'changes' ? 'assignees';
-- (an event of this transaction may hold other seeded changes too: only these keys go)
update public.task_events e
set data = jsonb_set(e.data, '{changes}', (
  select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from jsonb_each(e.data -> 'changes') c (k, v)
  where k not like 'field:%' and k <> 'assignees'
))
where e.kind = 'task_updated' and e.created_at = now()
  and exists (select 1 from jsonb_object_keys(e.data -> 'changes') k where k like 'field:%' or k = 'assignees');
delete from public.task_events e
where e.kind = 'task_updated' and e.created_at = now() and e.data -> 'changes' = '{}'::jsonb;

-- Start dates and due times (docs/product.md §17): WEB-5 (due today) started three days
-- ago, so the calendar draws it across those days; WEB-6 (due tomorrow, repeating) is due
-- at 15:00 in its assignee's zone (Olivia, Berlin): reminded an hour before, and its next
-- task keeps the time.
update public.tasks t
set start_on = case t.number when 5 then current_date - 3 else t.start_on end,
    due_time = case t.number when 6 then time '15:00' else t.due_time end
from public.projects p
where p.key = 'WEB' and p.team_id = 'b1000000-0000-4000-8000-000000000001'
  and t.project_id = p.id and t.number in (5, 6);
