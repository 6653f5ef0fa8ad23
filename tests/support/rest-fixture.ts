/**
 * The schema the REST integration tests (tests/integration/rest-*.test.ts)
 * and the benchmark run against: related tables, a join table, a self
 * reference, a view, an enum, array/jsonb/tsvector columns, functions of each
 * kind and row-level security for two users.
 */
export const ALICE = "00000000-0000-0000-0000-00000000000a";
export const BOB = "00000000-0000-0000-0000-00000000000b";

/** The schema the fixture lives in (exposed next to public). */
export const FIXTURE_SCHEMA = "rt";

export const FIXTURE_SQL = /* sql */ `
create schema rt;
grant usage on schema rt to anon, authenticated, service_role;
alter default privileges in schema rt grant all on tables to anon, authenticated, service_role;
alter default privileges in schema rt grant all on functions to anon, authenticated, service_role;
alter default privileges in schema rt grant all on sequences to anon, authenticated, service_role;
create type rt.task_status as enum ('todo', 'doing', 'done');

create table rt.teams (
  id serial primary key,
  name text not null unique,
  created_at timestamptz not null default '2024-01-01 00:00:00+00'
);

create table rt.members (
  id uuid primary key,
  team_id int references rt.teams (id) on delete cascade,
  email text not null unique,
  display_name text,
  manager_id uuid references rt.members (id)
);

create table rt.projects (
  id serial primary key,
  team_id int not null references rt.teams (id) on delete cascade,
  owner_id uuid not null references rt.members (id),
  name text not null,
  budget numeric(10, 2),
  big bigint,
  meta jsonb not null default '{}',
  tags text[] not null default '{}',
  search tsvector generated always as (to_tsvector('english', name)) stored
);

create table rt.tasks (
  id serial primary key,
  project_id int not null references rt.projects (id) on delete cascade,
  title text not null,
  status rt.task_status not null default 'todo',
  priority int,
  assignee_id uuid references rt.members (id),
  reviewer_id uuid references rt.members (id),
  estimate int4range,
  done_at timestamptz
);

create table rt.labels (
  id serial primary key,
  name text not null unique
);

create table rt.task_labels (
  task_id int not null references rt.tasks (id) on delete cascade,
  label_id int not null references rt.labels (id) on delete cascade,
  primary key (task_id, label_id)
);

create view rt.open_tasks as
  select id, project_id, title, status, priority from rt.tasks where status <> 'done';

create table rt.notes (
  id serial primary key,
  owner uuid not null default auth.uid(),
  body text not null check (length(body) < 200),
  private boolean not null default false
);
alter table rt.notes enable row level security;
create policy notes_read on rt.notes for select to authenticated using (owner = auth.uid() or not private);
create policy notes_insert on rt.notes for insert to authenticated with check (owner = auth.uid());
create policy notes_update on rt.notes for update to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
create policy notes_delete on rt.notes for delete to authenticated using (owner = auth.uid());
create policy notes_anon on rt.notes for select to anon using (not private);
revoke insert, update, delete on rt.notes from anon;

create table rt.secrets (id int primary key, value text);
revoke all on rt.secrets from anon, authenticated;

-- functions of each kind
create function rt.add(a int, b int) returns int language sql immutable as $$ select a + b $$;
create function rt.add(a int, b int, c int) returns int language sql immutable as $$ select a + b + c $$;
create function rt.hello(name text default 'world') returns text language sql stable as $$ select 'hello ' || name $$;
create function rt.touch_team(team int) returns void language sql volatile as $$ update rt.teams set name = name || '!' where id = team $$;
create function rt.next_title(p_id int) returns text language plpgsql volatile as $$
begin
  update rt.tasks set title = title || '+' where id = p_id;
  return (select title from rt.tasks where id = p_id);
end $$;
create function rt.tasks_by_status(s rt.task_status) returns setof rt.tasks language sql stable as $$
  select * from rt.tasks where status = s order by id $$;
create function rt.team_stats() returns table (team_id int, team_name text, project_count bigint) language sql stable as $$
  select t.id, t.name, count(p.id) from rt.teams t left join rt.projects p on p.team_id = t.id group by t.id order by t.id $$;
create function rt.echo(json) returns json language sql immutable as $$ select $1 $$;
create function rt.summarize(payload jsonb) returns jsonb language sql immutable as $$
  select jsonb_build_object('keys', (select jsonb_agg(k order by k) from jsonb_object_keys(payload) k)) $$;
create function rt.sum_all(vals int[]) returns int language sql immutable as $$ select coalesce(sum(v), 0)::int from unnest(vals) v $$;
create function rt.dup(x int) returns text language sql immutable as $$ select 'int' $$;
create function rt.dup(x text) returns text language sql immutable as $$ select 'text' $$;
create function rt.whoami() returns text language sql stable as $$ select coalesce(auth.uid()::text, 'anon') || ':' || current_user $$;
create function rt.fail_plain() returns int language plpgsql as $$
begin
  raise exception 'things went wrong' using detail = 'the detail', hint = 'the hint';
end $$;
create function rt.fail_payment() returns int language plpgsql as $$
begin
  raise sqlstate 'PT402' using message = 'payment required', detail = 'top up', hint = 'pay';
end $$;
create function rt.project_tags(p int) returns setof text language sql stable as $$
  select unnest(tags) from rt.projects where id = p $$;
create function rt.first_project() returns rt.projects language sql stable as $$
  select * from rt.projects order by id limit 1 $$;
`;

export const SEED_SQL = /* sql */ `
insert into rt.teams (name) values ('Core'), ('Growth'), ('Ops');
insert into rt.members (id, team_id, email, display_name, manager_id) values
  ('${ALICE}', 1, 'alice@example.com', 'Alice', null),
  ('${BOB}', 1, 'bob@example.com', 'Bob', '${ALICE}'),
  ('00000000-0000-0000-0000-00000000000c', 2, 'carol@example.com', 'Carol', '${ALICE}'),
  ('00000000-0000-0000-0000-00000000000d', 3, 'dan@example.com', null, '00000000-0000-0000-0000-00000000000c');
insert into rt.projects (team_id, owner_id, name, budget, big, meta, tags) values
  (1, '${ALICE}', 'Website relaunch', 1200.50, 9007199254740993, '{"color": "red", "size": {"w": 3}}', '{web,design}'),
  (1, '${BOB}', 'Mobile app', 5000, 1, '{"color": "blue"}', '{mobile}'),
  (2, '00000000-0000-0000-0000-00000000000c', 'Growth experiments', null, null, '{}', '{}');
insert into rt.tasks (project_id, title, status, priority, assignee_id, reviewer_id, estimate, done_at) values
  (1, 'Draft copy', 'done', 2, '${ALICE}', '${BOB}', '[1,3)', '2024-02-01 10:00:00+00'),
  (1, 'Design hero', 'doing', 1, '${BOB}', '${ALICE}', '[2,5)', null),
  (1, 'Ship it', 'todo', 3, null, null, '[5,8)', null),
  (2, 'Login screen', 'todo', 1, '${BOB}', null, '[1,2)', null),
  (2, 'Push "notifications", maybe', 'doing', null, '00000000-0000-0000-0000-00000000000c', null, null, null),
  (3, 'A/B test pricing', 'todo', 2, '00000000-0000-0000-0000-00000000000c', '${ALICE}', '[3,4)', null);
insert into rt.labels (name) values ('bug'), ('feature'), ('urgent');
insert into rt.task_labels values (1, 2), (2, 2), (2, 3), (4, 1), (4, 3), (5, 2);
insert into rt.notes (owner, body, private) values
  ('${ALICE}', 'alice public', false), ('${ALICE}', 'alice private', true), ('${BOB}', 'bob private', true);
insert into rt.secrets values (1, 'sssh');
`;

/** A test stack exposing the fixture schema, seeded, with clients for each kind of caller. */
export async function startRestFixture() {
  const [{ startTestStack }, { createClient }, ws, { reloadSchemaCache }] = await Promise.all([
    import("./stack.ts"),
    import("@supabase/supabase-js"),
    import("ws"),
    import("../../stack/rest/index.ts"),
  ]);
  const stack = await startTestStack({ rest: { schemas: ["public", FIXTURE_SCHEMA] } });
  await stack.db.exec(FIXTURE_SQL + SEED_SQL);
  await reloadSchemaCache(stack.db);
  const client = (key: string, token?: string) =>
    createClient(stack.url, key, {
      db: { schema: FIXTURE_SCHEMA },
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws.default as never },
      global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    });
  const userToken = async (sub: string, email: string) =>
    stack.keys.sign({ sub, role: "authenticated", aud: "authenticated", email }, { expiresIn: 3600 });
  const aliceToken = await userToken(ALICE, "alice@example.com");
  const bobToken = await userToken(BOB, "bob@example.com");
  return {
    stack,
    url: `${stack.url}/rest/v1`,
    admin: client(stack.serviceRoleKey),
    anon: client(stack.anonKey),
    alice: client(stack.anonKey, aliceToken),
    bob: client(stack.anonKey, bobToken),
    aliceToken,
    bobToken,
    client,
    reload: () => reloadSchemaCache(stack.db),
    /** A raw HTTP call to /rest/v1 in the test schema with the service key, for when the wire format is the point. */
    raw: (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
      fetch(`${stack.url}/rest/v1${path}`, {
        ...init,
        headers: {
          apikey: stack.serviceRoleKey,
          "Accept-Profile": "rt",
          "Content-Profile": "rt",
          ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...(init.headers ?? {}),
        },
      }),
  };
}
export type RestFixture = Awaited<ReturnType<typeof startRestFixture>>;
