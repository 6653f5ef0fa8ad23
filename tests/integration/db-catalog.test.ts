/**
 * The catalog's rules (issue 37; docs/decisions/0034-scale.md): what the
 * Supabase dashboard's Security and Performance Advisors would flag, written
 * as queries on the catalog so that a migration added later cannot forget one.
 * Each rule is a query that lists what breaks it; each test expects an empty
 * list, and a second test breaks the rule on purpose inside a transaction that
 * is rolled back (a table, function or foreign key made for the occasion), to
 * show that the query does find it. Runs on PGlite and on native PostgreSQL
 * (TEST_DATABASE_URL).
 *
 * The API exposes the schema `public` (PostgREST's db-schemas, as on a hosted
 * project and the local stack's default); `private` holds the helpers the
 * policies use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../../stack/db/types.ts";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

const ROLLBACK = new Error("rolled back on purpose");

/** Runs `breakIt` then `rule` in one transaction that is rolled back; returns what the rule found. */
async function whenBroken(breakIt: string, rule: (tx: Queryable) => Promise<string[]>): Promise<string[]> {
  let found: string[] = [];
  await stack.db
    .transaction(async (tx) => {
      await tx.exec(breakIt);
      found = await rule(tx);
      throw ROLLBACK;
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error;
    });
  return found;
}

async function names(db: Queryable, sql: string): Promise<string[]> {
  return (await db.query<{ name: string }>(sql)).rows.map((r) => r.name);
}

// ---------------------------------------------------------------------------------------------
// Rule 1: a table in an exposed schema has row-level security and the project's revoke/grant
// pattern (`revoke all … from anon, authenticated`, then grant what the app needs): anon has no
// privilege on it, and authenticated never has TRUNCATE, REFERENCES or TRIGGER (which RLS does not
// guard). A view there must be security_invoker (or else it reads as its owner, past RLS).
const tablesBreakingTheGrantRule = (db: Queryable) =>
  names(
    db,
    `select c.oid::regclass::text || ': ' || concat_ws(', ',
              case when c.relkind in ('r', 'p') and not c.relrowsecurity then 'no row-level security' end,
              case when c.relkind in ('v', 'm') and not coalesce(c.reloptions @> '{security_invoker=true}', false)
                        and has_table_privilege('authenticated', c.oid, 'select') then 'a view read as its owner' end,
              case when has_table_privilege('anon', c.oid, 'select, insert, update, delete, truncate, references, trigger')
                        or has_any_column_privilege('anon', c.oid, 'select, insert, update, references')
                   then 'anon has privileges' end,
              case when has_table_privilege('authenticated', c.oid, 'truncate, references, trigger')
                   then 'authenticated may truncate, reference or add triggers' end) as name
     from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
       and ((c.relkind in ('r', 'p') and not c.relrowsecurity)
            or (c.relkind in ('v', 'm') and not coalesce(c.reloptions @> '{security_invoker=true}', false)
                and has_table_privilege('authenticated', c.oid, 'select'))
            or has_table_privilege('anon', c.oid, 'select, insert, update, delete, truncate, references, trigger')
            or has_any_column_privilege('anon', c.oid, 'select, insert, update, references')
            or has_table_privilege('authenticated', c.oid, 'truncate, references, trigger'))
     order by 1`,
  );

// Rule 2: a security definer function sets its search_path (else a caller's schema can shadow
// what it calls). Our schemas only: the stack's own (auth, storage, …) are Supabase's.
const definersWithoutSearchPath = (db: Queryable) =>
  names(
    db,
    `select p.oid::regprocedure::text as name
     from pg_proc p
     where p.prosecdef and p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
       and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')
     order by 1`,
  );

// Rule 3: a foreign key with an ON DELETE action (cascade, set null, set default) has an index
// whose leading columns are the key's (in any order): deleting the referenced row finds the
// referencing ones by those columns, else it reads the whole referencing table per deleted row.
// A partial index counts: the action's lookup (`= $1`) is never on null.
const foreignKeysWithoutIndex = (db: Queryable) =>
  names(
    db,
    `select c.conrelid::regclass::text || ' (' ||
            (select string_agg(a.attname, ', ' order by k.i)
             from unnest(c.conkey) with ordinality k (attnum, i)
             join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum) || ')' as name
     from pg_constraint c
     where c.contype = 'f' and c.confdeltype in ('c', 'n', 'd')
       and c.connamespace in ('public'::regnamespace, 'private'::regnamespace)
       and not exists (
         select 1 from pg_index i
         where i.indrelid = c.conrelid
           and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
           and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
     order by 1`,
  );

// Rule 4: a read policy decides with lists made once per query (`project_id in (select
// private.my_project_ids())`), never by calling a helper that reads other tables with the row's
// own columns (has_task_role(task_id, …)): that is a lookup of the parent, per row (25,000
// comments counted in 1.7–4.3 s). Read policies: permissive, for select or all, on the exposed
// schema's tables and the files (storage.objects). A helper called as `(select private.f())` runs
// once (an initplan); immutable helpers read no table.
const perRowReadPolicies = (db: Queryable) =>
  names(
    db,
    `select pol.polrelid::regclass::text || ': ' || pol.polname || ' calls ' || f.proname as name
     from pg_policy pol
     cross join lateral (select replace(pg_get_expr(pol.polqual, pol.polrelid), 'SELECT private.', 'SELECT once.') as qual) q
     join pg_proc f on f.pronamespace = 'private'::regnamespace and f.pronargs > 0 and f.provolatile <> 'i'
                   and q.qual ~ ('private\\.' || f.proname || '\\(')
     join pg_class c on c.oid = pol.polrelid
     where pol.polpermissive and pol.polcmd in ('r', '*')
       and (c.relnamespace = 'public'::regnamespace or c.oid = 'storage.objects'::regclass)
     order by 1`,
  );

// Rule 5: a function in an exposed schema that anon or authenticated may execute is an RPC the
// app (or a link's holder) calls: listed here with who calls it. A helper belongs in `private`.
const API_FUNCTIONS: Record<string, string> = {
  accept_invitation: "the invitation page",
  board_view: "the board",
  bulk_edit_tasks: "the list's bulk edit",
  calendar_feed: "a calendar app holding the feed's secret address (anon)",
  create_team: "the new-team form",
  decline_invitation: "the invitation page",
  invitation_preview: "an invitation link's holder, signed in or not",
  leave_team: "team settings",
  list_view: "the list page",
  mention_candidates: "the comment form's mentions",
  move_checklist_item: "the task panel's checklist",
  move_status: "project settings",
  move_task: "the board",
  my_invitations: "the teams page",
  my_work: "My work",
  new_recovery_codes: "two-factor settings",
  open_notification: "the notifications page",
  recovery_codes_left: "two-factor settings",
  redeem_recovery_code: "the two-factor sign-in page",
  remove_status: "project settings",
  reset_calendar_feed: "account settings",
  search_tasks: "search",
  set_task_labels: "the task form",
  task_panel: "the task panel",
  task_table: "the export and list",
  task_timeline: "the task panel's activity",
  team_has_member_email: "the invite form",
  team_activity: "the team's activity page",
  team_overview: "the team page",
  text_references: "Markdown references (#123, @name)",
  transfer_ownership: "team settings",
  unread_notification_count: "the bell",
  unsubscribe_from_emails: "an email's unsubscribe link (anon)",
  unsubscribe_link_status: "an email's unsubscribe link (anon)",
  // archive and trash (issue 39)
  archive_task: "the task page's Archive / Unarchive",
  trash_tasks: "the task page's Delete and the list's bulk delete",
  restore_task: "the project's trash",
  purge_task: "the project's trash (Delete forever)",
  project_trash: "the project's trash",
  // tokens and webhooks (issue 40)
  create_api_token: "account tokens",
  revoke_api_token: "account tokens",
  create_webhook: "project settings' webhooks",
  update_webhook: "project settings' webhooks",
  delete_webhook: "project settings' webhooks",
  resend_webhook_delivery: "project settings' webhooks (Send again)",
  // fields and several assignees (issue 38)
  create_task: "the new-task form (task, labels, assignees and fields in one call)",
  save_task: "the task form (task, labels, assignees and fields in one call)",
  set_task_assignees: "the task panel's assignees",
  set_task_field_values: "the task panel's fields",
  // issue 42
  invitation_has_account: "an invitation link's holder (anon too): Sign up or Log in first",
  // public read-only links (issue 41)
  shared_board: "a public link's holder (anon): the shared board's page",
  // move and duplicate (issue 39)
  move_task_to_project: "the task's Move page",
  duplicate_task: "the task's Duplicate form",
  moved_task_address: "a moved task's old address (a redirect)",
  // pure functions a check constraint or column default runs as the person writing
  day_of_month: "tasks' recurrence check (pure)",
  default_email_setting: "notification settings' default (pure)",
  is_recurrence: "tasks' recurrence check (pure)",
  next_due_date: "tasks' recurrence (pure)",
  notification_kinds: "notification settings' check (pure)",
};

const callableHelpers = async (db: Queryable) =>
  (
    await names(
      db,
      `select p.proname as name
       from pg_proc p
       where p.pronamespace = 'public'::regnamespace
         and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
         and (has_function_privilege('anon', p.oid, 'execute')
              or has_function_privilege('authenticated', p.oid, 'execute'))
       order by 1`,
    )
  ).filter((name) => !(name in API_FUNCTIONS));

// What the policies and RPCs call in `private`: a body that still names one in `public` fails
// when it runs (it moved: 20261207000200_private_helpers.sql).
const bodiesNamingMovedHelpers = (db: Queryable) =>
  names(
    db,
    `select p.oid::regprocedure::text || ' calls public.' || h.proname as name
     from pg_proc p
     cross join (select proname from pg_proc where pronamespace = 'private'::regnamespace) h
     where p.pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
       and p.prosrc ~ ('public\\.' || h.proname || '\\s*\\(')
     order by 1`,
  );

describe("the catalog", () => {
  it("every table in the exposed schema has row-level security and the revoke/grant pattern", async () => {
    expect(await tablesBreakingTheGrantRule(stack.db)).toEqual([]);
  });

  it("… and the rule finds a table without either", async () => {
    const found = await whenBroken(
      // the revoke/grant pattern without RLS; RLS with the default privileges (as a new table
      // gets them on a Supabase project); a view with the pattern but read as its owner
      `create table public.catalog_probe (id int primary key);
       revoke all on public.catalog_probe from anon, authenticated;
       grant select on public.catalog_probe to authenticated;
       create table public.catalog_probe_granted (id int primary key);
       alter table public.catalog_probe_granted enable row level security;
       grant all on public.catalog_probe_granted to anon, authenticated;
       create view public.catalog_probe_view as select 1 as one;
       revoke all on public.catalog_probe_view from anon, authenticated;
       grant select on public.catalog_probe_view to authenticated;`,
      tablesBreakingTheGrantRule,
    );
    expect(found).toEqual([
      "catalog_probe: no row-level security",
      "catalog_probe_granted: anon has privileges, authenticated may truncate, reference or add triggers",
      "catalog_probe_view: a view read as its owner",
    ]);
  });

  it("every security definer function sets its search_path", async () => {
    expect(await definersWithoutSearchPath(stack.db)).toEqual([]);
  });

  it("… and the rule finds one that does not", async () => {
    const found = await whenBroken(
      `create function private.catalog_probe() returns int language sql security definer as 'select 1';`,
      definersWithoutSearchPath,
    );
    expect(found).toEqual(["private.catalog_probe()"]);
  });

  it("every foreign key with an ON DELETE action has an index leading with its columns", async () => {
    expect(await foreignKeysWithoutIndex(stack.db)).toEqual([]);
  });

  it("… and the rule finds one without", async () => {
    const found = await whenBroken(
      `create table public.catalog_probe (id int primary key,
         comment_id uuid references public.comments (id) on delete set null,
         task_id uuid references public.tasks (id) on delete cascade,
         team_id uuid references public.teams (id));
       create index on public.catalog_probe (task_id, id);
       drop index public.notifications_comment_idx;`,
      foreignKeysWithoutIndex,
    );
    expect(found).toEqual(["catalog_probe (comment_id)", "notifications (comment_id)"]);
  });

  it("no read policy looks up a parent row per row", async () => {
    expect(await perRowReadPolicies(stack.db)).toEqual([]);
  });

  it("… and the rule finds one that does", async () => {
    const found = await whenBroken(
      `create table public.catalog_probe (id int primary key, task_id uuid, project_id uuid);
       alter table public.catalog_probe enable row level security;
       create policy "per row" on public.catalog_probe for select to authenticated
         using (private.has_task_role(task_id, 'viewer'));
       create policy "once" on public.catalog_probe for select to authenticated
         using (project_id in (select private.my_project_ids()));
       drop policy "members see comments" on public.comments;
       create policy "members see comments" on public.comments for select to authenticated
         using (private.has_task_role(task_id, 'viewer'));`,
      perRowReadPolicies,
    );
    expect(found).toEqual([
      "catalog_probe: per row calls has_task_role",
      "comments: members see comments calls has_task_role",
    ]);
  });

  it("no helper is callable through the API: what anon or authenticated may run in public is an RPC", async () => {
    expect(await callableHelpers(stack.db)).toEqual([]);
    expect(await bodiesNamingMovedHelpers(stack.db)).toEqual([]);
  });

  it("… and the rules find a helper left in public and a body calling a moved one there", async () => {
    const found = await whenBroken(
      `create function public.catalog_probe(uuid) returns boolean language sql stable
         set search_path = '' as 'select true';
       grant execute on function public.catalog_probe(uuid) to authenticated;
       create function public.catalog_probe_caller() returns boolean language plpgsql
         set search_path = '' as 'begin return public.is_member(null); end';`,
      async (tx) => [...(await callableHelpers(tx)), ...(await bodiesNamingMovedHelpers(tx))],
    );
    expect(found).toEqual(["catalog_probe", "catalog_probe_caller", "catalog_probe_caller() calls public.is_member"]);
  });

  it("the policy helpers are not found at /rest/v1/rpc, signed in or not", async () => {
    const email = uniqueEmail("catalog");
    const created = await stack
      .adminClient()
      .auth.admin.createUser({ email, password: "catalog-pass-1", email_confirm: true });
    expect(created.error).toBeNull();
    const person = serverClient(stack.url, stack.anonKey);
    expect((await person.auth.signInWithPassword({ email, password: "catalog-pass-1" })).error).toBeNull();
    const helpers = await names(
      stack.db,
      "select proname as name from pg_proc where pronamespace = 'private'::regnamespace order by 1",
    );
    expect(helpers).toEqual(
      expect.arrayContaining([
        "has_required_aal",
        "has_role",
        "has_task_role",
        "is_member",
        "my_project_ids",
        "my_team_ids",
      ]),
    );
    for (const client of [person, stack.anonClient()]) {
      for (const name of helpers) {
        const { error, status } = await client.rpc(name);
        expect([name, status, error?.code]).toEqual([name, 404, "PGRST202"]);
      }
    }
  });

  it("due_reminders: each person reads their own; nobody may write or truncate it through the API", async () => {
    const { rows } = await stack.db.query<{ role: string; privileges: string[] }>(
      `select r.role, array(select p from unnest(array['select','insert','update','delete','truncate']) p
                            where has_table_privilege(r.role, 'public.due_reminders', p)) as privileges
       from unnest(array['anon', 'authenticated']) as r (role) order by 1`,
    );
    expect(rows).toEqual([
      { role: "anon", privileges: [] },
      { role: "authenticated", privileges: ["select"] },
    ]);
  });
});
