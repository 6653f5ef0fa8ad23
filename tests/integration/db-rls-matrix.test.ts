/**
 * THE RLS MATRIX — who may do what, table by table, next to docs/product.md §6.
 *
 *   §6 action                                            viewer member admin owner
 *   see the team, its projects, tasks, comments, attachments  ✓    ✓     ✓     ✓
 *   create / edit / move tasks, comment, attach files              ✓     ✓     ✓
 *   edit or delete own comments                                    ✓     ✓     ✓
 *   delete any comment or task, create / archive projects                ✓     ✓
 *   invite, change roles (up to admin), remove members                   ✓     ✓
 *   rename team                                                          ✓     ✓
 *   transfer ownership, delete team                                            ✓
 *   §11 (issue 24): see statuses, labels, checklists, relations    ✓    ✓     ✓     ✓
 *   tick / edit checklists, relate tasks, make sub-tasks,
 *   create labels and put them on tasks                                 ✓     ✓     ✓
 *   manage statuses (add, rename, reorder, WIP, remove),
 *   rename / recolour / delete labels                                         ✓     ✓
 *   A non-member sees nothing of a team; profiles are visible to people who
 *   share a team; anyone can leave a team except its owner.
 *
 * Every cell is a call to the REST API (/rest/v1, with supabase-js) made with
 * that person's own access token (anon: the anon key alone), exactly as the
 * app or anyone holding the token could make it. Whether it took effect is
 * then checked in the database itself. A fresh team is built after every call
 * that went through, so each cell starts from the same state.
 * "✓" = the row is visible / the change is in the database; "✗" = refused
 * (privileges, row-level security or one of our rules) and nothing changed.
 * Any other failure (a 5xx, an unexpected error code) fails the test.
 */
import crypto from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

const ACTORS = ["owner", "admin", "member", "viewer", "outsider", "anon"] as const;
type ActorName = (typeof ACTORS)[number];
type Person = Exclude<ActorName, "anon">;
type Actor = { name: ActorName; id: string | null; client: SupabaseClient };
type World = Awaited<ReturnType<typeof buildWorld>>;
type Result = { data: unknown; error: { code?: string; message: string } | null; status: number };
type Act = (c: SupabaseClient, a: Actor, w: World) => PromiseLike<Result>;
/** did it take effect? `rows`: the call returned data; otherwise a SQL check (true/false) with its params */
type Effect = "rows" | ((a: Actor, w: World) => [sql: string, params: unknown[]]);
type Row = [table: string, action: string, expected: string, act: Act, effect: Effect];

const ALL = "✗ ✗ ✗ ✗ ✗ ✗";
/** "own" things of the anonymous caller are the owner's: what could anon do to them? */
const own = (a: Actor, w: World) => a.id ?? w.users.owner;
/** someone else of the team: `preferred`, or `fallback` when the actor is `preferred` */
const other = (a: Actor, w: World, preferred: Person, fallback: Person) =>
  w.users[a.name === preferred ? fallback : preferred];
const ownOf = <T>(a: Actor, map: Record<Person, T>) => map[a.name === "anon" ? "owner" : (a.name as Person)];
const othersOf = <T>(a: Actor, map: Record<Person, T>) => map[a.name === "member" ? "admin" : "member"];

// prettier-ignore
const MATRIX: Row[] = [
  //  table            action                                        owner admin member viewer outsider anon
  ["profiles",     "see own profile",                                "✓ ✓ ✓ ✓ ✓ ✗", (c, a, w) => c.from("profiles").select("id").eq("id", own(a, w)), "rows"],
  ["profiles",     "see a teammate's profile",                       "✓ ✓ ✓ ✓ ✗ ✗", (c, a, w) => c.from("profiles").select("id").eq("id", other(a, w, "admin", "owner")), "rows"],
  ["profiles",     "update own display name",                        "✓ ✓ ✓ ✓ ✓ ✗", (c, a, w) => c.from("profiles").update({ display_name: `Renamed ${w.n}` }).eq("id", own(a, w)),
                                                                                    (a, w) => ["select display_name = $2 from profiles where id = $1", [own(a, w), `Renamed ${w.n}`]]],
  ["profiles",     "update a teammate's profile",                    ALL,           (c, a, w) => c.from("profiles").update({ display_name: "Hacked" }).eq("id", other(a, w, "admin", "owner")),
                                                                                    (a, w) => ["select display_name = 'Hacked' from profiles where id = $1", [other(a, w, "admin", "owner")]]],
  ["profiles",     "insert a profile",                               ALL,           (c, _a, w) => c.from("profiles").insert({ id: w.spareUser, username: "someone_new", display_name: "Someone" }),
                                                                                    () => ["select exists (select 1 from profiles where username = 'someone_new')", []]],
  ["profiles",     "delete own profile",                             ALL,           (c, a, w) => c.from("profiles").delete().eq("id", own(a, w)),
                                                                                    (a, w) => ["select not exists (select 1 from profiles where id = $1)", [own(a, w)]]],

  ["teams",        "see the team",                                   "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("teams").select("id").eq("id", w.team), "rows"],
  ["teams",        "insert a team directly (create_team() only)",    ALL,           (c, _a, w) => c.from("teams").insert({ name: "Direct", slug: `direct-${w.n}` }),
                                                                                    (_a, w) => ["select exists (select 1 from teams where slug = $1)", [`direct-${w.n}`]]],
  ["teams",        "rename the team",                                "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("teams").update({ name: "Acme Corp" }).eq("id", w.team),
                                                                                    (_a, w) => ["select name = 'Acme Corp' from teams where id = $1", [w.team]]],
  ["teams",        "change the team's address (slug)",               "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("teams").update({ slug: `moved-${w.n}` }).eq("id", w.team),
                                                                                    (_a, w) => ["select slug = $2 from teams where id = $1", [w.team, `moved-${w.n}`]]],
  ["teams",        "delete the team",                                "✓ ✗ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("teams").delete().eq("id", w.team),
                                                                                    (_a, w) => ["select not exists (select 1 from teams where id = $1)", [w.team]]],

  ["team_members", "see the team's members",                         "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("team_members").select("user_id").eq("team_id", w.team).eq("user_id", w.users.viewer), "rows"],
  ["team_members", "add a member directly (invitations only)",       ALL,           (c, _a, w) => c.from("team_members").insert({ team_id: w.team, user_id: w.users.outsider, role: "member" }),
                                                                                    (_a, w) => ["select exists (select 1 from team_members where team_id = $1 and user_id = $2)", [w.team, w.users.outsider]]],
  ["team_members", "change a member's role (viewer → admin)",        "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("team_members").update({ role: "admin" }).eq("team_id", w.team).eq("user_id", w.users.viewer),
                                                                                    (_a, w) => ["select role = 'admin' from team_members where team_id = $1 and user_id = $2", [w.team, w.users.viewer]]],
  ["team_members", "make someone owner by update",                   ALL,           (c, _a, w) => c.from("team_members").update({ role: "owner" }).eq("team_id", w.team).eq("user_id", w.users.member),
                                                                                    (_a, w) => ["select role = 'owner' from team_members where team_id = $1 and user_id = $2", [w.team, w.users.member]]],
  ["team_members", "change the owner's role",                        ALL,           (c, _a, w) => c.from("team_members").update({ role: "admin" }).eq("team_id", w.team).eq("user_id", w.users.owner),
                                                                                    (_a, w) => ["select role <> 'owner' from team_members where team_id = $1 and user_id = $2", [w.team, w.users.owner]]],
  ["team_members", "remove another member",                          "✓ ✓ ✗ ✗ ✗ ✗", (c, a, w) => c.from("team_members").delete().eq("team_id", w.team).eq("user_id", other(a, w, "viewer", "member")),
                                                                                    (a, w) => ["select not exists (select 1 from team_members where team_id = $1 and user_id = $2)", [w.team, other(a, w, "viewer", "member")]]],
  ["team_members", "remove the owner",                               ALL,           (c, _a, w) => c.from("team_members").delete().eq("team_id", w.team).eq("user_id", w.users.owner),
                                                                                    (_a, w) => ["select not exists (select 1 from team_members where team_id = $1 and user_id = $2)", [w.team, w.users.owner]]],
  ["team_members", "leave by deleting own membership",               "✗ ✓ ✓ ✓ ✗ ✗", (c, a, w) => c.from("team_members").delete().eq("team_id", w.team).eq("user_id", own(a, w)),
                                                                                    (a, w) => ["select not exists (select 1 from team_members where team_id = $1 and user_id = $2) and $3", [w.team, own(a, w), a.name !== "outsider"]]],

  ["invitations",  "see the team's invitations",                     "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("invitations").select("id").eq("id", w.invitation), "rows"],
  ["invitations",  "invite someone",                                 "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("invitations").insert({ team_id: w.team, email: "new@example.com", role: "member", token_hash: sha256(`fresh-${w.n}`) }),
                                                                                    (_a, w) => ["select exists (select 1 from invitations where token_hash = $1)", [sha256(`fresh-${w.n}`)]]],
  ["invitations",  "invite someone as owner",                        ALL,           (c, _a, w) => c.from("invitations").insert({ team_id: w.team, email: "boss@example.com", role: "owner", token_hash: sha256(`boss-${w.n}`) }),
                                                                                    (_a, w) => ["select exists (select 1 from invitations where token_hash = $1)", [sha256(`boss-${w.n}`)]]],
  ["invitations",  "revoke an invitation",                           "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("invitations").update({ revoked_at: new Date().toISOString() }).eq("id", w.invitation),
                                                                                    (_a, w) => ["select revoked_at is not null from invitations where id = $1", [w.invitation]]],
  ["invitations",  "reopen a withdrawn invitation",                  ALL,           (c, _a, w) => c.from("invitations").update({ revoked_at: null }).eq("id", w.revokedInvitation),
                                                                                    (_a, w) => ["select revoked_at is null from invitations where id = $1", [w.revokedInvitation]]],
  ["invitations",  "delete an invitation",                           ALL,           (c, _a, w) => c.from("invitations").delete().eq("id", w.invitation),
                                                                                    (_a, w) => ["select not exists (select 1 from invitations where id = $1)", [w.invitation]]],

  ["projects",     "see the team's projects",                        "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("projects").select("id").eq("id", w.project), "rows"],
  ["projects",     "create a project",                               "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("projects").insert({ team_id: w.team, key: "NEW", name: "New project" }),
                                                                                    (_a, w) => ["select exists (select 1 from projects where team_id = $1 and key = 'NEW')", [w.team]]],
  ["projects",     "archive a project",                              "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("projects").update({ archived_at: new Date().toISOString() }).eq("id", w.project),
                                                                                    (_a, w) => ["select archived_at is not null from projects where id = $1", [w.project]]],
  ["projects",     "change a project's key",                         ALL,           (c, _a, w) => c.from("projects").update({ key: "WWW" }).eq("id", w.project),
                                                                                    (_a, w) => ["select key = 'WWW' from projects where id = $1", [w.project]]],
  ["projects",     "delete a project",                               ALL,           (c, _a, w) => c.from("projects").delete().eq("id", w.project),
                                                                                    (_a, w) => ["select not exists (select 1 from projects where id = $1)", [w.project]]],

  ["tasks",        "see tasks",                                      "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("tasks").select("id").eq("id", w.task), "rows"],
  ["tasks",        "see tasks of an archived project",               "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("tasks").select("id").eq("id", w.archivedTask), "rows"],
  ["tasks",        "create a task",                                  "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("tasks").insert({ project_id: w.project, title: "A new task" }),
                                                                                    (_a, w) => ["select exists (select 1 from tasks where project_id = $1 and title = 'A new task')", [w.project]]],
  ["tasks",        "edit a task",                                    "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("tasks").update({ title: "Edited" }).eq("id", w.task),
                                                                                    (_a, w) => ["select title = 'Edited' from tasks where id = $1", [w.task]]],
  ["tasks",        "set status directly (move_task() only)",         ALL,           (c, _a, w) => c.from("tasks").update({ status_id: w.statuses.doing }).eq("id", w.task),
                                                                                    (_a, w) => ["select status_id = $2 from tasks where id = $1", [w.task, w.statuses.doing]]],
  ["tasks",        "set completed_at directly",                      ALL,           (c, _a, w) => c.from("tasks").update({ completed_at: new Date().toISOString() }).eq("id", w.task),
                                                                                    (_a, w) => ["select completed_at is not null from tasks where id = $1", [w.task]]],
  ["tasks",        "create a sub-task",                              "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("tasks").insert({ project_id: w.project, title: "A sub-task", parent_id: w.task }),
                                                                                    (_a, w) => ["select exists (select 1 from tasks where parent_id = $1 and title = 'A sub-task')", [w.task]]],
  ["tasks",        "change a task's parent",                         ALL,           (c, _a, w) => c.from("tasks").update({ parent_id: w.task }).eq("id", w.otherTask),
                                                                                    (_a, w) => ["select parent_id = $2 from tasks where id = $1", [w.otherTask, w.task]]],
  ["tasks",        "delete a task",                                  "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("tasks").delete().eq("id", w.task),
                                                                                    (_a, w) => ["select not exists (select 1 from tasks where id = $1)", [w.task]]],
  ["tasks",        "create a task in an archived project",           ALL,           (c, _a, w) => c.from("tasks").insert({ project_id: w.archivedProject, title: "Too late" }),
                                                                                    (_a, w) => ["select exists (select 1 from tasks where project_id = $1 and title = 'Too late')", [w.archivedProject]]],
  ["tasks",        "edit a task in an archived project",             ALL,           (c, _a, w) => c.from("tasks").update({ title: "Too late" }).eq("id", w.archivedTask),
                                                                                    (_a, w) => ["select title = 'Too late' from tasks where id = $1", [w.archivedTask]]],

  ["comments",     "see comments",                                   "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("comments").select("id").eq("id", w.comments.member), "rows"],
  ["comments",     "comment as oneself",                             "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("comments").insert({ task_id: w.task, body: "Looks good" }),
                                                                                    (_a, w) => ["select exists (select 1 from comments where task_id = $1 and body = 'Looks good')", [w.task]]],
  ["comments",     "comment in someone else's name",                 ALL,           (c, _a, w) => c.from("comments").insert({ task_id: w.task, author_id: w.users.owner, body: "Forged" }),
                                                                                    (_a, w) => ["select exists (select 1 from comments where task_id = $1 and body = 'Forged')", [w.task]]],
  ["comments",     "edit own comment",                               "✓ ✓ ✓ ✗ ✗ ✗", (c, a, w) => c.from("comments").update({ body: "Edited" }).eq("id", ownOf(a, w.comments)),
                                                                                    (a, w) => ["select body = 'Edited' from comments where id = $1", [ownOf(a, w.comments)]]],
  ["comments",     "edit someone else's comment",                    ALL,           (c, a, w) => c.from("comments").update({ body: "Edited" }).eq("id", othersOf(a, w.comments)),
                                                                                    (a, w) => ["select body = 'Edited' from comments where id = $1", [othersOf(a, w.comments)]]],
  ["comments",     "delete own comment",                             "✓ ✓ ✓ ✗ ✗ ✗", (c, a, w) => c.from("comments").delete().eq("id", ownOf(a, w.comments)),
                                                                                    (a, w) => ["select not exists (select 1 from comments where id = $1)", [ownOf(a, w.comments)]]],
  ["comments",     "delete someone else's comment",                  "✓ ✓ ✗ ✗ ✗ ✗", (c, a, w) => c.from("comments").delete().eq("id", othersOf(a, w.comments)),
                                                                                    (a, w) => ["select not exists (select 1 from comments where id = $1)", [othersOf(a, w.comments)]]],
  ["comments",     "delete a comment in an archived project",        ALL,           (c, _a, w) => c.from("comments").delete().eq("id", w.archivedComment),
                                                                                    (_a, w) => ["select not exists (select 1 from comments where id = $1)", [w.archivedComment]]],

  ["attachments",  "see attachments",                                "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("attachments").select("id").eq("id", w.attachments.member), "rows"],
  ["attachments",  "attach a file",                                  "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("attachments").insert({ task_id: w.task, object_path: `${w.task}/new.txt`, file_name: "new.txt", size_bytes: 10, content_type: "text/plain" }),
                                                                                    (_a, w) => ["select exists (select 1 from attachments where object_path = $1)", [`${w.task}/new.txt`]]],
  ["attachments",  "delete own attachment",                          "✓ ✓ ✓ ✗ ✗ ✗", (c, a, w) => c.from("attachments").delete().eq("id", ownOf(a, w.attachments)),
                                                                                    (a, w) => ["select not exists (select 1 from attachments where id = $1)", [ownOf(a, w.attachments)]]],
  ["attachments",  "delete someone else's attachment",               "✓ ✓ ✗ ✗ ✗ ✗", (c, a, w) => c.from("attachments").delete().eq("id", othersOf(a, w.attachments)),
                                                                                    (a, w) => ["select not exists (select 1 from attachments where id = $1)", [othersOf(a, w.attachments)]]],
  ["attachments",  "edit an attachment record",                      ALL,           (c, a, w) => c.from("attachments").update({ file_name: "renamed.txt" }).eq("id", ownOf(a, w.attachments)),
                                                                                    (a, w) => ["select file_name = 'renamed.txt' from attachments where id = $1", [ownOf(a, w.attachments)]]],

  ["project_statuses", "see the project's statuses",                 "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("project_statuses").select("id").eq("id", w.statuses.doing), "rows"],
  ["project_statuses", "add a status",                               "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("project_statuses").insert({ project_id: w.project, name: "Review", category: "started", color: "purple", wip_limit: 3 }),
                                                                                    (_a, w) => ["select exists (select 1 from project_statuses where project_id = $1 and name = 'Review')", [w.project]]],
  ["project_statuses", "rename, recolour, set a WIP limit",          "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("project_statuses").update({ name: "Doing", color: "teal", wip_limit: 5 }).eq("id", w.statuses.doing),
                                                                                    (_a, w) => ["select name = 'Doing' and wip_limit = 5 from project_statuses where id = $1", [w.statuses.doing]]],
  ["project_statuses", "change a status's category",                 ALL,           (c, _a, w) => c.from("project_statuses").update({ category: "completed" }).eq("id", w.statuses.doing),
                                                                                    (_a, w) => ["select category = 'completed' from project_statuses where id = $1", [w.statuses.doing]]],
  ["project_statuses", "delete a status directly (remove_status() only)", ALL,      (c, _a, w) => c.from("project_statuses").delete().eq("id", w.statuses.backlog),
                                                                                    (_a, w) => ["select not exists (select 1 from project_statuses where id = $1)", [w.statuses.backlog]]],
  ["project_statuses", "add a status in an archived project",        ALL,           (c, _a, w) => c.from("project_statuses").insert({ project_id: w.archivedProject, name: "Late", category: "started" }),
                                                                                    (_a, w) => ["select exists (select 1 from project_statuses where project_id = $1 and name = 'Late')", [w.archivedProject]]],

  ["labels",       "see the team's labels",                          "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("labels").select("id").eq("id", w.label), "rows"],
  ["labels",       "create a label",                                 "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("labels").insert({ team_id: w.team, name: "Fresh", color: "green" }),
                                                                                    (_a, w) => ["select exists (select 1 from labels where team_id = $1 and name = 'Fresh')", [w.team]]],
  ["labels",       "create a label in someone else's name",          ALL,           (c, _a, w) => c.from("labels").insert({ team_id: w.team, name: "Forged", created_by: w.users.owner }),
                                                                                    (_a, w) => ["select exists (select 1 from labels where team_id = $1 and name = 'Forged')", [w.team]]],
  ["labels",       "rename and recolour a label",                    "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("labels").update({ name: "Defect", color: "orange" }).eq("id", w.label),
                                                                                    (_a, w) => ["select name = 'Defect' from labels where id = $1", [w.label]]],
  ["labels",       "delete a label",                                 "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.from("labels").delete().eq("id", w.label),
                                                                                    (_a, w) => ["select not exists (select 1 from labels where id = $1)", [w.label]]],

  ["task_labels",  "see a task's labels",                            "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("task_labels").select("label_id").eq("task_id", w.task), "rows"],
  ["task_labels",  "put a label on a task",                          "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("task_labels").insert({ task_id: w.otherTask, label_id: w.label }),
                                                                                    (_a, w) => ["select exists (select 1 from task_labels where task_id = $1 and label_id = $2)", [w.otherTask, w.label]]],
  ["task_labels",  "take a label off a task",                        "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("task_labels").delete().eq("task_id", w.task).eq("label_id", w.label),
                                                                                    (_a, w) => ["select not exists (select 1 from task_labels where task_id = $1 and label_id = $2)", [w.task, w.label]]],
  ["task_labels",  "label a task in an archived project",            ALL,           (c, _a, w) => c.from("task_labels").insert({ task_id: w.archivedTask, label_id: w.label }),
                                                                                    (_a, w) => ["select exists (select 1 from task_labels where task_id = $1)", [w.archivedTask]]],

  ["checklist_items", "see a checklist",                             "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("checklist_items").select("id").eq("id", w.checklistItem), "rows"],
  ["checklist_items", "add a checklist item",                        "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("checklist_items").insert({ task_id: w.task, title: "Another step" }),
                                                                                    (_a, w) => ["select exists (select 1 from checklist_items where task_id = $1 and title = 'Another step')", [w.task]]],
  ["checklist_items", "tick an item",                                "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("checklist_items").update({ done: true }).eq("id", w.checklistItem),
                                                                                    (_a, w) => ["select done from checklist_items where id = $1", [w.checklistItem]]],
  ["checklist_items", "tick an item in someone else's name",         ALL,           (c, _a, w) => c.from("checklist_items").update({ done: true, ticked_by: w.users.owner }).eq("id", w.checklistItem),
                                                                                    (_a, w) => ["select done from checklist_items where id = $1", [w.checklistItem]]],
  ["checklist_items", "remove an item",                              "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("checklist_items").delete().eq("id", w.checklistItem),
                                                                                    (_a, w) => ["select not exists (select 1 from checklist_items where id = $1)", [w.checklistItem]]],
  ["checklist_items", "tick an item in an archived project",         ALL,           (c, _a, w) => c.from("checklist_items").update({ done: true }).eq("id", w.archivedChecklistItem),
                                                                                    (_a, w) => ["select done from checklist_items where id = $1", [w.archivedChecklistItem]]],

  ["task_relations", "see a task's relations",                       "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.from("task_relations").select("id").eq("id", w.relation), "rows"],
  ["task_relations", "relate two tasks",                             "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("task_relations").insert({ from_task_id: w.task, to_task_id: w.otherTask, kind: "blocks" }),
                                                                                    (_a, w) => ["select exists (select 1 from task_relations where from_task_id = $1 and kind = 'blocks')", [w.task]]],
  ["task_relations", "relate two tasks in someone else's name",      ALL,           (c, _a, w) => c.from("task_relations").insert({ from_task_id: w.task, to_task_id: w.otherTask, kind: "duplicates", created_by: w.users.owner }),
                                                                                    (_a, w) => ["select exists (select 1 from task_relations where from_task_id = $1 and kind = 'duplicates')", [w.task]]],
  ["task_relations", "remove a relation",                            "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.from("task_relations").delete().eq("id", w.relation),
                                                                                    (_a, w) => ["select not exists (select 1 from task_relations where id = $1)", [w.relation]]],

  ["rpc",          "create_team(name, slug)",                        "✓ ✓ ✓ ✓ ✓ ✗", (c, _a, w) => c.rpc("create_team", { name: "Fresh", slug: `fresh-${w.n}` }),
                                                                                    (_a, w) => ["select exists (select 1 from teams where slug = $1)", [`fresh-${w.n}`]]],
  ["rpc",          "move_task (To do → In progress)",                "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.rpc("move_task", { task_id: w.task, status_id: w.statuses.doing, position: 0 }),
                                                                                    (_a, w) => ["select status_id = $2 from tasks where id = $1", [w.task, w.statuses.doing]]],
  ["rpc",          "move_task in an archived project",               ALL,           (c, _a, w) => c.rpc("move_task", { task_id: w.archivedTask, status_id: w.statuses.archivedDoing, position: 0 }),
                                                                                    (_a, w) => ["select status_id = $2 from tasks where id = $1", [w.archivedTask, w.statuses.archivedDoing]]],
  ["rpc",          "move_status(status, 0)",                         "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.rpc("move_status", { status_id: w.statuses.doing, position: 0 }),
                                                                                    (_a, w) => ["select position = 0 from project_statuses where id = $1", [w.statuses.doing]]],
  ["rpc",          "remove_status(status, move_to)",                 "✓ ✓ ✗ ✗ ✗ ✗", (c, _a, w) => c.rpc("remove_status", { status_id: w.statuses.backlog, move_to: w.statuses.todo }),
                                                                                    (_a, w) => ["select not exists (select 1 from project_statuses where id = $1) and exists (select 1 from tasks where id = $2 and status_id = $3)", [w.statuses.backlog, w.otherTask, w.statuses.todo]]],
  ["rpc",          "remove_status in an archived project",           ALL,           (c, _a, w) => c.rpc("remove_status", { status_id: w.statuses.archivedDoing }),
                                                                                    (_a, w) => ["select not exists (select 1 from project_statuses where id = $1)", [w.statuses.archivedDoing]]],
  ["rpc",          "set_task_labels(task, names)",                   "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.rpc("set_task_labels", { task_id: w.task, names: ["Brand new"] }),
                                                                                    (_a, w) => ["select exists (select 1 from task_labels tl join labels l on l.id = tl.label_id where tl.task_id = $1 and l.name = 'Brand new')", [w.task]]],
  ["rpc",          "move_checklist_item(item, 1)",                   "✓ ✓ ✓ ✗ ✗ ✗", (c, _a, w) => c.rpc("move_checklist_item", { item_id: w.checklistItem, position: 1 }),
                                                                                    (_a, w) => ["select position = 1 from checklist_items where id = $1", [w.checklistItem]]],
  ["rpc",          "board_view(team, project)",                      "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.rpc("board_view", { team_slug: `acme-${w.n}`, project_key: "WEB" }), "rows"],
  ["rpc",          "task_panel(team, project, number)",              "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.rpc("task_panel", { team_slug: `acme-${w.n}`, project_key: "WEB", task_number: 1 }), "rows"],
  ["rpc",          "search_tasks finds the team's task",             "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.rpc("search_tasks", { query: "quarterly rotation" }).eq("id", w.task), "rows"],
  ["rpc",          "team_overview(team)",                            "✓ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.rpc("team_overview", { team_id: w.team }), "rows"],
  ["rpc",          "accept_invitation(token), sent to the outsider", "✗ ✗ ✗ ✗ ✓ ✗", (c) => c.rpc("accept_invitation", { token: "matrix-token" }),
                                                                                    (_a, w) => ["select accepted_at is not null from invitations where id = $1", [w.openInvitation]]],
  ["rpc",          "transfer_ownership(team, another member)",               "✓ ✗ ✗ ✗ ✗ ✗", (c, a, w) => c.rpc("transfer_ownership", { team_id: w.team, new_owner_id: other(a, w, "member", "admin") }),
                                                                                    (a, w) => ["select role = 'owner' from team_members where team_id = $1 and user_id = $2", [w.team, other(a, w, "member", "admin")]]],
  ["rpc",          "leave_team(team)",                               "✗ ✓ ✓ ✓ ✗ ✗", (c, _a, w) => c.rpc("leave_team", { team_id: w.team }),
                                                                                    (a, w) => ["select not exists (select 1 from team_members where team_id = $1 and user_id = $2) and $3", [w.team, own(a, w), a.name !== "outsider"]]],
];

/** error codes that mean "refused": privileges / RLS, not found, a rule of ours, a check */
const REFUSED = new Set(["42501", "PT404", "P0001", "23514"]);

function sha256(text: string) {
  return crypto.createHash("sha256").update(text).digest("hex");
}

let worlds = 0;

/** The people (made once) and a fresh team "Acme" with everything the matrix touches. */
async function buildWorld(stack: TestStack, users: Record<Person, string>, spareUser: string) {
  const n = ++worlds;
  return stack.db.transaction(async (tx) => {
    const one = async (sql: string, params: unknown[]) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
    const team = await one("insert into teams (name, slug, created_by) values ('Acme', $1, $2) returning id", [
      `acme-${n}`,
      users.owner,
    ]);
    for (const [name, role] of [
      ["owner", "owner"],
      ["admin", "admin"],
      ["member", "member"],
      ["viewer", "viewer"],
    ] as const) {
      await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [
        team,
        users[name],
        role,
      ]);
    }
    const project = await one("insert into projects (team_id, key, name) values ($1, 'WEB', 'Website') returning id", [
      team,
    ]);
    const archivedProject = await one(
      "insert into projects (team_id, key, name) values ($1, 'OLD', 'Old site') returning id",
      [team],
    );
    const status = (projectId: string, name: string) =>
      one("select id from project_statuses where project_id = $1 and name = $2", [projectId, name]);
    const statuses = {
      backlog: await status(project, "Backlog"),
      todo: await status(project, "To do"),
      doing: await status(project, "In progress"),
      archivedDoing: await status(archivedProject, "In progress"),
    };
    const task = await one(
      `insert into tasks (project_id, title, description, status_id, assignee_id, created_by)
       values ($1, 'Rotate the credentials', 'Quarterly rotation of the database password', $2, $3, $4) returning id`,
      [project, statuses.todo, users.member, users.owner],
    );
    const otherTask = await one(
      "insert into tasks (project_id, title, status_id, created_by) values ($1, 'Another', $2, $3) returning id",
      [project, statuses.backlog, users.owner],
    );
    const archivedTask = await one(
      "insert into tasks (project_id, title, created_by) values ($1, 'Old work', $2) returning id",
      [archivedProject, users.owner],
    );
    const label = await one(
      "insert into labels (team_id, name, color, created_by) values ($1, 'Bug', 'red', $2) returning id",
      [team, users.owner],
    );
    await tx.query("insert into task_labels (task_id, label_id) values ($1, $2)", [task, label]);
    const checklistItem = await one(
      "insert into checklist_items (task_id, title, created_by) values ($1, 'First step', $2) returning id",
      [task, users.owner],
    );
    await tx.query("insert into checklist_items (task_id, title, created_by) values ($1, 'Second step', $2)", [
      task,
      users.owner,
    ]);
    const archivedChecklistItem = await one(
      "insert into checklist_items (task_id, title, created_by) values ($1, 'Old step', $2) returning id",
      [archivedTask, users.owner],
    );
    const relation = await one(
      "insert into task_relations (from_task_id, to_task_id, kind, created_by) values ($1, $2, 'relates', $3) returning id",
      [otherTask, task, users.owner],
    );
    // authors and uploaders include the viewer and the outsider (as if they had
    // been members once): having written something gives no right to change it
    const comments = {} as Record<Person, string>;
    const attachments = {} as Record<Person, string>;
    for (const name of ["owner", "admin", "member", "viewer", "outsider"] as const) {
      comments[name] = await one("insert into comments (task_id, author_id, body) values ($1, $2, $3) returning id", [
        task,
        users[name],
        `Comment by ${name}`,
      ]);
      attachments[name] = await one(
        `insert into attachments (task_id, object_path, file_name, size_bytes, content_type, uploaded_by)
         values ($1::uuid, $1::text || '/' || $2::text || '.txt', $2::text || '.txt', 100, 'text/plain', $3) returning id`,
        [task, name, users[name]],
      );
    }
    const archivedComment = await one(
      "insert into comments (task_id, author_id, body) values ($1, $2, 'Old news') returning id",
      [archivedTask, users.member],
    );
    await tx.query("update projects set archived_at = now() where id = $1", [archivedProject]);
    const invitation = await one(
      "insert into invitations (team_id, email, role, token_hash, invited_by) values ($1, 'invitee@example.com', 'member', $2, $3) returning id",
      [team, sha256(`pending-${n}`), users.owner],
    );
    // the one invitation whose token the matrix holds ("matrix-token"): only this world's
    // (an ended invitation can't be changed, so the last world's goes)
    await tx.query("delete from invitations where token_hash = $1", [sha256("matrix-token")]);
    const openInvitation = await one(
      "insert into invitations (team_id, email, role, token_hash, invited_by) values ($1, 'Outsider@Matrix.test', 'viewer', $2, $3) returning id",
      [team, sha256("matrix-token"), users.admin],
    );
    const revokedInvitation = await one(
      "insert into invitations (team_id, email, role, token_hash, invited_by, revoked_at) values ($1, 'gone@example.com', 'member', $2, $3, now()) returning id",
      [team, sha256(`revoked-${n}`), users.owner],
    );
    return {
      n,
      users,
      spareUser,
      team,
      project,
      archivedProject,
      task,
      otherTask,
      archivedTask,
      statuses,
      label,
      checklistItem,
      archivedChecklistItem,
      relation,
      comments,
      attachments,
      archivedComment,
      invitation,
      openInvitation,
      revokedInvitation,
    };
  });
}

describe("RLS matrix (docs/product.md §6), each cell a REST call with that person's token", () => {
  let stack: TestStack;
  let world: World;
  let fresh: () => Promise<World>;
  const actors = {} as Record<ActorName, Actor>;

  beforeAll(async () => {
    stack = await startTestStack();
    const users = {} as Record<Person, string>;
    const options = {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    };
    for (const name of ["owner", "admin", "member", "viewer", "outsider"] as const) {
      const email = `${name}@matrix.test`;
      const { rows } = await stack.db.query<{ id: string }>(
        `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
         values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now(), now())
         returning id`,
        [email, `${name[0].toUpperCase()}${name.slice(1)} Person`],
      );
      users[name] = rows[0].id;
      const token = await stack.keys.sign(
        { sub: users[name], role: "authenticated", aud: "authenticated", email },
        { expiresIn: 3600 },
      );
      actors[name] = {
        name,
        id: users[name],
        client: createClient(stack.url, stack.anonKey, {
          ...options,
          global: { headers: { Authorization: `Bearer ${token}` } },
        }),
      };
    }
    actors.anon = { name: "anon", id: null, client: createClient(stack.url, stack.anonKey, options) };
    // the outsider has a team of their own: signed in, active, just not in Acme
    await stack.db.asRequest({ role: "authenticated", claims: { sub: users.outsider, role: "authenticated" } }, (tx) =>
      tx.query("select create_team('Globex', 'globex')"),
    );
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into auth.users (id, email) values (gen_random_uuid(), 'spare@matrix.test') returning id",
    );
    await stack.db.query("delete from profiles where id = $1", [rows[0].id]); // an auth user with no profile yet
    fresh = () => buildWorld(stack, users, rows[0].id);
    world = await fresh();
  });
  afterAll(() => stack?.close());

  /** Makes the call as the actor; true if it took effect. */
  async function attempt(actor: Actor, act: Act, effect: Effect): Promise<boolean> {
    const result = await act(actor.client, actor, world);
    if (result.error) {
      const code = result.error.code ?? "";
      if (result.status >= 500 || !REFUSED.has(code)) {
        throw new Error(`unexpected ${result.status} ${code}: ${result.error.message}`);
      }
    }
    if (effect === "rows") {
      const data = result.data;
      return !result.error && data !== null && (!Array.isArray(data) || data.length > 0);
    }
    const [sql, params] = effect(actor, world);
    const { rows } = await stack.db.query<Record<string, boolean>>(sql, params);
    const tookEffect = rows.length > 0 && Object.values(rows[0])[0] === true;
    if (!result.error) world = await fresh(); // whatever went through may have changed something
    return tookEffect;
  }

  for (const [table, action, expected, act, effect] of MATRIX) {
    const marks = expected.split(" ");
    describe(`${table}: ${action}`, () => {
      ACTORS.forEach((name, i) => {
        const allowed = marks[i] === "✓";
        it(`${allowed ? "✓" : "✗"} ${name} ${allowed ? "may" : "may not"}`, async () => {
          expect(await attempt(actors[name], act, effect)).toBe(allowed);
        });
      });
    });
  }

  it("has a verdict for all six people in every row", () => {
    for (const [, action, expected] of MATRIX) expect(expected.split(" "), action).toHaveLength(ACTORS.length);
  });
});
