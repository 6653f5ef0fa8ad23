/**
 * THE RLS MATRIX — who may do what, table by table, next to PRODUCT.md §6.
 *
 *   §6 action                                            viewer member admin owner
 *   see the team, its projects, tasks, comments, attachments  ✓    ✓     ✓     ✓
 *   create / edit / move tasks, comment, attach files              ✓     ✓     ✓
 *   edit or delete own comments                                    ✓     ✓     ✓
 *   delete any comment or task, create / archive projects                ✓     ✓
 *   invite, change roles (up to admin), remove members                   ✓     ✓
 *   rename team                                                          ✓     ✓
 *   transfer ownership, delete team                                            ✓
 *   A non-member sees nothing of a team; profiles are visible to people who
 *   share a team; anyone can leave a team except its owner.
 *
 * Every cell below runs against the database as that person, exactly as the
 * REST API runs a request (role `authenticated` or `anon`, the JWT claims in
 * `request.jwt.claims`), inside a transaction that is rolled back afterwards,
 * so each cell starts from the same fixture. Deferred checks are forced
 * before the rollback, so a change that would fail at commit counts as refused.
 * "✓" = the change took effect / the row is visible; "✗" = refused (an error
 * from privileges, row-level security or a rule) or nothing visible/affected.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../../stack/db/types.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const ACTORS = ["owner", "admin", "member", "viewer", "outsider", "anon"] as const;
type ActorName = (typeof ACTORS)[number];
type Actor = { name: ActorName; id: string | null; email: string | null };
type Fixture = Awaited<ReturnType<typeof buildFixture>>;
type Run = (tx: Queryable, actor: Actor, f: Fixture) => Promise<boolean>;

/** one row of the matrix: expected outcome for owner admin member viewer outsider anon */
type Row = [table: string, action: string, expected: string, run: Run];

// helpers that turn an attempt into "did it take effect?"
const sees = async (tx: Queryable, sql: string, params: unknown[]) => (await tx.query(sql, params)).rows.length > 0;
const changes = async (tx: Queryable, sql: string, params: unknown[]) => (await tx.query(sql, params)).rowCount > 0;
const succeeds = async (tx: Queryable, sql: string, params: unknown[]) => {
  await tx.query(sql, params);
  return true;
};
const other = (a: Actor, f: Fixture, preferred: ActorName, fallback: ActorName) =>
  f.users[a.name === preferred ? fallback : preferred];

const ALL = "✗ ✗ ✗ ✗ ✗ ✗";

// prettier-ignore
const MATRIX: Row[] = [
  //  table            action                                            owner admin member viewer outsider anon
  ["profiles",     "see own profile",                                    "✓ ✓ ✓ ✓ ✓ ✗", (tx, a) => sees(tx, "select 1 from profiles where id = $1", [a.id])],
  ["profiles",     "see a teammate's profile",                           "✓ ✓ ✓ ✓ ✗ ✗", (tx, a, f) => sees(tx, "select 1 from profiles where id = $1", [other(a, f, "admin", "owner")])],
  ["profiles",     "update own display name",                            "✓ ✓ ✓ ✓ ✓ ✗", (tx, a) => changes(tx, "update profiles set display_name = 'Renamed' where id = $1", [a.id])],
  ["profiles",     "update a teammate's profile",                        ALL,           (tx, a, f) => changes(tx, "update profiles set display_name = 'Hacked' where id = $1", [other(a, f, "admin", "owner")])],
  ["profiles",     "insert a profile",                                   ALL,           (tx) => succeeds(tx, "insert into profiles (id, username, display_name) values (gen_random_uuid(), 'someone_new', 'Someone')", [])],
  ["profiles",     "delete own profile",                                 ALL,           (tx, a) => changes(tx, "delete from profiles where id = $1", [a.id])],

  ["teams",        "see the team",                                       "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from teams where id = $1", [f.team])],
  ["teams",        "insert a team directly (create_team() only)",        ALL,           (tx) => succeeds(tx, "insert into teams (name, slug) values ('Direct', 'direct-team')", [])],
  ["teams",        "rename the team",                                    "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "update teams set name = 'Acme Corp' where id = $1", [f.team])],
  ["teams",        "change the team's slug",                             ALL,           (tx, _a, f) => changes(tx, "update teams set slug = 'acme-corp' where id = $1", [f.team])],
  ["teams",        "delete the team",                                    "✓ ✗ ✗ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "delete from teams where id = $1", [f.team])],

  ["team_members", "see the team's members",                             "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from team_members where team_id = $1 and user_id = $2", [f.team, f.users.viewer])],
  ["team_members", "add a member directly (invitations only)",           ALL,           (tx, _a, f) => succeeds(tx, "insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [f.team, f.users.outsider])],
  ["team_members", "change a member's role (viewer → admin)",            "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "update team_members set role = 'admin' where team_id = $1 and user_id = $2", [f.team, f.users.viewer])],
  ["team_members", "make someone owner by update",                       ALL,           (tx, _a, f) => changes(tx, "update team_members set role = 'owner' where team_id = $1 and user_id = $2", [f.team, f.users.member])],
  ["team_members", "change the owner's role",                            ALL,           (tx, _a, f) => changes(tx, "update team_members set role = 'admin' where team_id = $1 and user_id = $2", [f.team, f.users.owner])],
  ["team_members", "remove another member",                              "✓ ✓ ✗ ✗ ✗ ✗", (tx, a, f) => changes(tx, "delete from team_members where team_id = $1 and user_id = $2", [f.team, other(a, f, "viewer", "member")])],
  ["team_members", "remove the owner",                                   ALL,           (tx, _a, f) => changes(tx, "delete from team_members where team_id = $1 and user_id = $2", [f.team, f.users.owner])],
  ["team_members", "leave by deleting own membership",                   "✗ ✓ ✓ ✓ ✗ ✗", (tx, a, f) => changes(tx, "delete from team_members where team_id = $1 and user_id = $2", [f.team, a.id])],

  ["invitations",  "see the team's invitations",                         "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from invitations where id = $1", [f.invitation])],
  ["invitations",  "invite someone",                                     "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => succeeds(tx, "insert into invitations (team_id, email, role, token_hash) values ($1, 'new@example.com', 'member', $2)", [f.team, sha256("fresh")])],
  ["invitations",  "invite someone as owner",                            ALL,           (tx, _a, f) => succeeds(tx, "insert into invitations (team_id, email, role, token_hash) values ($1, 'boss@example.com', 'owner', $2)", [f.team, sha256("boss")])],
  ["invitations",  "revoke an invitation",                               "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "update invitations set revoked_at = now() where id = $1", [f.invitation])],
  ["invitations",  "delete an invitation",                               ALL,           (tx, _a, f) => changes(tx, "delete from invitations where id = $1", [f.invitation])],

  ["projects",     "see the team's projects",                            "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from projects where id = $1", [f.project])],
  ["projects",     "create a project",                                   "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => succeeds(tx, "insert into projects (team_id, key, name) values ($1, 'NEW', 'New project')", [f.team])],
  ["projects",     "archive a project",                                  "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "update projects set archived_at = now() where id = $1", [f.project])],
  ["projects",     "change a project's key",                             ALL,           (tx, _a, f) => changes(tx, "update projects set key = 'WWW' where id = $1", [f.project])],
  ["projects",     "delete a project",                                   ALL,           (tx, _a, f) => changes(tx, "delete from projects where id = $1", [f.project])],

  ["tasks",        "see tasks",                                          "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from tasks where id = $1", [f.task])],
  ["tasks",        "see tasks of an archived project",                   "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from tasks where id = $1", [f.archivedTask])],
  ["tasks",        "create a task",                                      "✓ ✓ ✓ ✗ ✗ ✗", (tx, _a, f) => succeeds(tx, "insert into tasks (project_id, title) values ($1, 'A new task')", [f.project])],
  ["tasks",        "edit a task",                                        "✓ ✓ ✓ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "update tasks set title = 'Edited', labels = '{edited}' where id = $1", [f.task])],
  ["tasks",        "set status directly (move_task() only)",             ALL,           (tx, _a, f) => changes(tx, "update tasks set status = 'in_progress' where id = $1", [f.task])],
  ["tasks",        "delete a task",                                      "✓ ✓ ✗ ✗ ✗ ✗", (tx, _a, f) => changes(tx, "delete from tasks where id = $1", [f.task])],
  ["tasks",        "create a task in an archived project",               ALL,           (tx, _a, f) => succeeds(tx, "insert into tasks (project_id, title) values ($1, 'Too late')", [f.archivedProject])],
  ["tasks",        "edit a task in an archived project",                 ALL,           (tx, _a, f) => changes(tx, "update tasks set title = 'Too late' where id = $1", [f.archivedTask])],

  ["comments",     "see comments",                                       "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from comments where id = $1", [f.comments.member])],
  ["comments",     "comment as oneself",                                 "✓ ✓ ✓ ✗ ✗ ✗", (tx, _a, f) => succeeds(tx, "insert into comments (task_id, body) values ($1, 'Looks good')", [f.task])],
  ["comments",     "comment in someone else's name",                     ALL,           (tx, _a, f) => succeeds(tx, "insert into comments (task_id, author_id, body) values ($1, $2, 'Forged')", [f.task, f.users.owner])],
  ["comments",     "edit own comment",                                   "✓ ✓ ✓ ✗ ✗ ✗", (tx, a, f) => changes(tx, "update comments set body = 'Edited' where id = $1", [f.comments[a.name]])],
  ["comments",     "edit someone else's comment",                        ALL,           (tx, a, f) => changes(tx, "update comments set body = 'Edited' where id = $1", [f.comments[a.name === "member" ? "admin" : "member"]])],
  ["comments",     "delete own comment",                                 "✓ ✓ ✓ ✗ ✗ ✗", (tx, a, f) => changes(tx, "delete from comments where id = $1", [f.comments[a.name]])],
  ["comments",     "delete someone else's comment",                      "✓ ✓ ✗ ✗ ✗ ✗", (tx, a, f) => changes(tx, "delete from comments where id = $1", [f.comments[a.name === "member" ? "admin" : "member"]])],
  ["comments",     "delete a comment in an archived project",            ALL,           (tx, _a, f) => changes(tx, "delete from comments where id = $1", [f.archivedComment])],

  ["attachments",  "see attachments",                                    "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from attachments where id = $1", [f.attachments.member])],
  ["attachments",  "attach a file",                                      "✓ ✓ ✓ ✗ ✗ ✗", (tx, _a, f) => succeeds(tx, "insert into attachments (task_id, object_path, file_name, size_bytes, content_type) values ($1::uuid, $1::text || '/new.txt', 'new.txt', 10, 'text/plain')", [f.task])],
  ["attachments",  "delete own attachment",                              "✓ ✓ ✓ ✗ ✗ ✗", (tx, a, f) => changes(tx, "delete from attachments where id = $1", [f.attachments[a.name]])],
  ["attachments",  "delete someone else's attachment",                   "✓ ✓ ✗ ✗ ✗ ✗", (tx, a, f) => changes(tx, "delete from attachments where id = $1", [f.attachments[a.name === "member" ? "admin" : "member"]])],
  ["attachments",  "edit an attachment record",                          ALL,           (tx, a, f) => changes(tx, "update attachments set file_name = 'renamed.txt' where id = $1", [f.attachments[a.name]])],

  ["rpc",          "create_team(name, slug)",                            "✓ ✓ ✓ ✓ ✓ ✗", (tx) => sees(tx, "select * from create_team('Fresh', 'fresh-team')", [])],
  ["rpc",          "move_task (todo → in_progress)",                     "✓ ✓ ✓ ✗ ✗ ✗", (tx, _a, f) => sees(tx, "select * from move_task($1, 'in_progress', 0)", [f.task])],
  ["rpc",          "move_task in an archived project",                   ALL,           (tx, _a, f) => sees(tx, "select * from move_task($1, 'in_progress', 0)", [f.archivedTask])],
  ["rpc",          "search_tasks finds the team's task",                 "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select 1 from search_tasks('quarterly rotation') where id = $1", [f.task])],
  ["rpc",          "team_overview(team)",                                "✓ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => sees(tx, "select team_overview($1)", [f.team])],
  ["rpc",          "accept_invitation(token)",                           "✓ ✓ ✓ ✓ ✓ ✗", (tx) => sees(tx, "select * from accept_invitation('matrix-token')", [])],
  ["rpc",          "transfer_ownership(team, member)",                   "✓ ✗ ✗ ✗ ✗ ✗", (tx, _a, f) => succeeds(tx, "select transfer_ownership($1, $2)", [f.team, f.users.member])],
  ["rpc",          "leave_team(team)",                                   "✗ ✓ ✓ ✓ ✗ ✗", (tx, _a, f) => succeeds(tx, "select leave_team($1)", [f.team])],
];

/** errors that mean "refused": privileges / RLS, not found, a rule of ours, a check */
const REFUSED = new Set(["42501", "P0002", "P0001", "23514"]);

function sha256(text: string) {
  return crypto.createHash("sha256").update(text).digest("hex");
}

async function buildFixture(stack: TestStack) {
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => stack.db.query<T>(sql, params);
  const users = {} as Record<Exclude<ActorName, "anon">, string>;
  for (const name of ["owner", "admin", "member", "viewer", "outsider"] as const) {
    const { rows } = await q<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now())
       returning id`,
      [`${name}@matrix.test`, `${name[0].toUpperCase()}${name.slice(1)} Person`],
    );
    users[name] = rows[0].id;
  }
  const asUser = <T>(id: string, fn: (tx: Queryable) => Promise<T>) =>
    stack.db.asRequest({ role: "authenticated", claims: { sub: id, role: "authenticated" } }, fn);

  const team = await asUser(users.owner, async (tx) =>
    (await tx.query<{ id: string }>("select id from create_team('Acme', 'acme')")).rows[0].id,
  );
  // the outsider has a team of their own: signed in, active, just not in Acme
  await asUser(users.outsider, (tx) => tx.query("select create_team('Globex', 'globex')"));
  for (const [name, role] of [["admin", "admin"], ["member", "member"], ["viewer", "viewer"]] as const) {
    await q("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [team, users[name], role]);
  }
  const project = (
    await q<{ id: string }>("insert into projects (team_id, key, name) values ($1, 'WEB', 'Website') returning id", [team])
  ).rows[0].id;
  const archivedProject = (
    await q<{ id: string }>(
      "insert into projects (team_id, key, name) values ($1, 'OLD', 'Old site') returning id",
      [team],
    )
  ).rows[0].id;
  const task = (
    await q<{ id: string }>(
      `insert into tasks (project_id, title, description, status, assignee_id, created_by)
       values ($1, 'Rotate the credentials', 'Quarterly rotation of the database password', 'todo', $2, $3) returning id`,
      [project, users.member, users.owner],
    )
  ).rows[0].id;
  const archivedTask = (
    await q<{ id: string }>(
      "insert into tasks (project_id, title, status, created_by) values ($1, 'Old work', 'todo', $2) returning id",
      [archivedProject, users.owner],
    )
  ).rows[0].id;
  // authors and uploaders include the viewer and the outsider (as if they had
  // been members once): having written something gives no right to change it
  const comments = {} as Record<ActorName, string | null>;
  const attachments = {} as Record<ActorName, string | null>;
  for (const name of ["owner", "admin", "member", "viewer", "outsider"] as const) {
    comments[name] = (
      await q<{ id: string }>("insert into comments (task_id, author_id, body) values ($1, $2, $3) returning id", [
        task,
        users[name],
        `Comment by ${name}`,
      ])
    ).rows[0].id;
    attachments[name] = (
      await q<{ id: string }>(
        `insert into attachments (task_id, object_path, file_name, size_bytes, content_type, uploaded_by)
         values ($1::uuid, $1::text || '/' || $2::text || '.txt', $2::text || '.txt', 100, 'text/plain', $3) returning id`,
        [task, name, users[name]],
      )
    ).rows[0].id;
  }
  comments.anon = null;
  attachments.anon = null;
  const archivedComment = (
    await q<{ id: string }>("insert into comments (task_id, author_id, body) values ($1, $2, 'Old news') returning id", [
      archivedTask,
      users.member,
    ])
  ).rows[0].id;
  await q("update projects set archived_at = now() where id = $1", [archivedProject]);
  const invitation = (
    await q<{ id: string }>(
      "insert into invitations (team_id, email, role, token_hash, invited_by) values ($1, 'invitee@example.com', 'member', $2, $3) returning id",
      [team, sha256("pending-token"), users.owner],
    )
  ).rows[0].id;
  await q("insert into invitations (team_id, email, role, token_hash, invited_by) values ($1, 'anyone@example.com', 'viewer', $2, $3)", [
    team,
    sha256("matrix-token"),
    users.admin,
  ]);
  return { users, team, project, archivedProject, task, archivedTask, comments, attachments, archivedComment, invitation };
}

class Rollback {
  constructor(readonly tookEffect: boolean) {}
}

describe("RLS matrix (PRODUCT.md §6), each cell run as that person", () => {
  let stack: TestStack;
  let fixture: Fixture;
  const actors = {} as Record<ActorName, Actor>;

  beforeAll(async () => {
    stack = await startTestStack();
    fixture = await buildFixture(stack);
    for (const name of ACTORS) {
      actors[name] =
        name === "anon"
          ? { name, id: null, email: null }
          : { name, id: fixture.users[name], email: `${name}@matrix.test` };
    }
  });
  afterAll(() => stack?.close());

  /** Runs one attempt as the actor and rolls it back; true if it took effect. */
  async function attempt(actor: Actor, run: Run): Promise<boolean> {
    const ctx = actor.id
      ? {
          role: "authenticated",
          claims: { sub: actor.id, role: "authenticated", aud: "authenticated", email: actor.email },
        }
      : { role: "anon", claims: { role: "anon" } };
    try {
      await stack.db.asRequest(ctx, async (tx) => {
        const tookEffect = await run(tx, actor, fixture);
        await tx.query("set constraints all immediate");
        throw new Rollback(tookEffect);
      });
    } catch (error) {
      if (error instanceof Rollback) return error.tookEffect;
      const code = (error as { code?: string }).code;
      if (code && REFUSED.has(code)) return false;
      throw error;
    }
    throw new Error("unreachable: the attempt always rolls back");
  }

  for (const [table, action, expected, run] of MATRIX) {
    const marks = expected.split(" ");
    describe(`${table}: ${action}`, () => {
      ACTORS.forEach((name, i) => {
        const allowed = marks[i] === "✓";
        it(`${allowed ? "✓" : "✗"} ${name} ${allowed ? "may" : "may not"}`, async () => {
          expect(await attempt(actors[name], run)).toBe(allowed);
        });
      });
    });
  }

  it("has a verdict for all six people in every row", () => {
    for (const [, action, expected] of MATRIX) expect(expected.split(" "), action).toHaveLength(ACTORS.length);
  });
});
