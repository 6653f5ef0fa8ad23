import type { SupabaseClient } from "@supabase/supabase-js";
import { makePerson, makeTeam, type Person } from "./realtime.ts";
import type { TestStack } from "./stack.ts";

/**
 * A team for the activity and notification tests: people with their own
 * access tokens and supabase-js clients (so every write goes through the REST
 * API as that person, and row-level security and the triggers see them), and
 * their usernames for @mentions.
 */
export interface Teammate extends Person {
  username: string;
}

export interface ActivityTeam {
  team: string;
  project: string;
  owner: Teammate;
  member: Teammate;
  other: Teammate;
  viewer: Teammate;
  outsider: Teammate;
}

async function withUsername(stack: TestStack, person: Person): Promise<Teammate> {
  const { rows } = await stack.db.query<{ username: string }>("select username from profiles where id = $1", [
    person.id,
  ]);
  return { ...person, username: rows[0].username };
}

export async function activityTeam(stack: TestStack): Promise<ActivityTeam> {
  const [owner, member, other, viewer, outsider] = await Promise.all(
    ["Olive", "Mika", "Otto", "Vera", "Xena"].map(async (name) => withUsername(stack, await makePerson(stack, name))),
  );
  const { team, project } = await makeTeam(stack, [
    [owner, "owner"],
    [member, "member"],
    [other, "member"],
    [viewer, "viewer"],
  ]);
  return { team, project, owner, member, other, viewer, outsider };
}

/** A task made through the API by `who` (so they are its creator and the actor of task_created). */
export async function createTask(
  who: { client: SupabaseClient },
  project: string,
  fields: { title?: string; description?: string; assignee_id?: string | null } = {},
): Promise<{ id: string; number: number }> {
  const { data, error } = await who.client
    .from("tasks")
    .insert({ project_id: project, title: fields.title ?? "A task", ...fields })
    .select("id, number")
    .single();
  if (error) throw new Error(`creating a task: ${error.message}`);
  return data as { id: string; number: number };
}

/** A status of the project by its name (every project starts with Backlog, To do, In progress, Done, Canceled). */
export async function statusId(stack: TestStack, project: string, name: string): Promise<string> {
  const { rows } = await stack.db.query<{ id: string }>(
    "select id from project_statuses where project_id = $1 and name = $2",
    [project, name],
  );
  if (!rows[0]) throw new Error(`no status ${name} in project ${project}`);
  return rows[0].id;
}

export async function comment(who: { client: SupabaseClient }, taskId: string, body: string): Promise<string> {
  const { data, error } = await who.client.from("comments").insert({ task_id: taskId, body }).select("id").single();
  if (error) throw new Error(`commenting: ${error.message}`);
  return (data as { id: string }).id;
}

export interface EventRow {
  kind: string;
  actor_id: string | null;
  data: Record<string, unknown>;
}

/** A task's events, oldest first, read as postgres (what the triggers wrote). */
export async function eventsOf(stack: TestStack, taskId: string): Promise<EventRow[]> {
  const { rows } = await stack.db.query<EventRow>(
    "select kind, actor_id, data from task_events where task_id = $1 order by created_at, id",
    [taskId],
  );
  return rows;
}

export interface NotificationRow {
  recipient_id: string;
  kind: string;
  actor_id: string | null;
  email: string;
}

/** A task's notifications, by recipient then kind, read as postgres. */
export async function notificationsOf(stack: TestStack, taskId: string): Promise<NotificationRow[]> {
  const { rows } = await stack.db.query<NotificationRow>(
    `select recipient_id, kind, actor_id, email from notifications where task_id = $1
     order by created_at, recipient_id, kind`,
    [taskId],
  );
  return rows;
}
