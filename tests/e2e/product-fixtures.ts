import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import crypto from "node:crypto";
import WebSocket from "ws";
import { Backend, type TestUser } from "./fixtures";

/**
 * Teams, projects and tasks made straight through the backend, so the specs
 * spend their time on the screens they test: the owner creates the team with
 * the create_team RPC and the project and tasks with their own token (row-level
 * security applies); the other members are added with the service role, as
 * accepting an invitation would.
 */
export type TeamRole = "admin" | "member" | "viewer";

export interface SeededTeam {
  slug: string;
  name: string;
  id: string;
  owner: TestUser;
  users: Record<TeamRole, TestUser>;
  outsider: TestUser;
  project: { id: string; key: string; name: string };
  tasks: Array<{ id: string; number: number; title: string; status: string }>;
}

/** A new project's five statuses, by a short key (their names are what the board shows). */
export const STATUS_NAME = {
  backlog: "Backlog",
  todo: "To do",
  in_progress: "In progress",
  done: "Done",
  canceled: "Canceled",
} as const;
export type SeedStatus = keyof typeof STATUS_NAME;

export interface SeedTask {
  title: string;
  description?: string;
  status?: SeedStatus;
  /** team labels, by name (made when new) */
  labels?: string[];
  assignee?: "owner" | TeamRole;
}

export function uniqueSlug(prefix = "team"): string {
  return `${prefix}-${Date.now().toString(36)}-${crypto.randomBytes(6).toString("hex")}`;
}

export async function signedInClient(backend: Backend, user: TestUser): Promise<SupabaseClient> {
  const client = createClient(backend.env.apiUrl, backend.env.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return client;
}

function must<T>(result: { data: T | null; error: unknown }, what: string): T {
  if (result.error || result.data === null) throw new Error(`${what}: ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function seedTeam(
  backend: Backend,
  { tasks = [] as SeedTask[], projectKey = "WEB", projectName = "Website" } = {},
): Promise<SeededTeam> {
  const tag = crypto.randomBytes(2).toString("hex");
  const [owner, admin, member, viewer, outsider] = await Promise.all([
    backend.createUser({ displayName: `Olive Owner ${tag}` }),
    backend.createUser({ displayName: `Adam Admin ${tag}` }),
    backend.createUser({ displayName: `Mia Member ${tag}` }),
    backend.createUser({ displayName: `Vic Viewer ${tag}` }),
    backend.createUser({ displayName: `Otto Outsider ${tag}` }),
  ]);
  const ownerClient = await signedInClient(backend, owner);
  const slug = uniqueSlug();
  const name = `Team ${tag}`;
  const team = must(await ownerClient.rpc("create_team", { name, slug }).single<{ id: string }>(), "create_team");
  must(
    await backend
      .admin()
      .from("team_members")
      .insert([
        { team_id: team.id, user_id: admin.id, role: "admin" },
        { team_id: team.id, user_id: member.id, role: "member" },
        { team_id: team.id, user_id: viewer.id, role: "viewer" },
      ])
      .select("user_id"),
    "members",
  );
  const project = must(
    await ownerClient
      .from("projects")
      .insert({ team_id: team.id, key: projectKey, name: projectName })
      .select("id, key, name")
      .single<{ id: string; key: string; name: string }>(),
    "project",
  );
  const ids: Record<string, string> = { owner: owner.id, admin: admin.id, member: member.id, viewer: viewer.id };
  const statuses = must(
    await ownerClient.from("project_statuses").select("id, name").eq("project_id", project.id),
    "statuses",
  );
  const statusId = (key: SeedStatus) => statuses.find((s) => s.name === STATUS_NAME[key])!.id;
  let created: SeededTeam["tasks"] = [];
  if (tasks.length > 0) {
    const rows = must(
      await ownerClient
        .from("tasks")
        .insert(
          tasks.map((t) => ({
            project_id: project.id,
            title: t.title,
            description: t.description ?? "",
            status_id: statusId(t.status ?? "backlog"),
            assignee_id: t.assignee ? ids[t.assignee] : null,
          })) as never,
        )
        .select("id, number, title")
        .order("number"),
      "tasks",
    ) as Array<{ id: string; number: number; title: string }>;
    // the rows in the order they were given: numbers are handed out in that order, and the answer's own
    // order is not to be relied on (an insert's representation is not sorted by `order`)
    rows.sort((a, b) => a.number - b.number);
    created = rows.map((row, i) => ({ ...row, status: tasks[i].status ?? "backlog" }));
    for (const [i, t] of tasks.entries()) {
      if (t.labels?.length)
        must(await ownerClient.rpc("set_task_labels", { task_id: created[i].id, names: t.labels }), "labels");
    }
  }
  return { slug, name, id: team.id, owner, users: { admin, member, viewer }, outsider, project, tasks: created };
}

/**
 * `count` comments on a task by `author`, written with the service role in one
 * request, a minute apart from 2025-01-01 so their order is known:
 * `body(1)` is the oldest.
 */
export async function addComments(
  backend: Backend,
  taskId: string,
  author: TestUser,
  count: number,
  body = (n: number) => `Comment ${String(n).padStart(3, "0")}`,
) {
  const start = Date.UTC(2025, 0, 1);
  const rows = Array.from({ length: count }, (_, i) => ({
    task_id: taskId,
    author_id: author.id,
    body: body(i + 1),
    created_at: new Date(start + i * 60_000).toISOString(),
  }));
  must(await backend.admin().from("comments").insert(rows).select("id"), "comments");
}

/** `count` more people in a team with `role`, as accepting invitations would add them; named `name(n)`. */
export async function addMembers(
  backend: Backend,
  teamId: string,
  count: number,
  { role = "viewer", name }: { role?: TeamRole; name: (n: number) => string },
) {
  const users: TestUser[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      backend.createUser({ displayName: name(i + j + 1) }),
    );
    users.push(...(await Promise.all(batch)));
  }
  must(
    await backend
      .admin()
      .from("team_members")
      .insert(users.map((u) => ({ team_id: teamId, user_id: u.id, role })))
      .select("user_id"),
    "members",
  );
  return users;
}

/** `count` teams owned by `user`, made with the create_team RPC as the page would; named `name(n)`. */
export async function createTeams(backend: Backend, user: TestUser, count: number, name: (n: number) => string) {
  const client = await signedInClient(backend, user);
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      client.rpc("create_team", { name: name(i + j + 1), slug: uniqueSlug("pg") }).single(),
    );
    for (const result of await Promise.all(batch)) must(result, "create_team");
  }
}

/**
 * A real, pending invitation to `email`, made by the team's admin as the
 * send-invitation function does (a random token; its SHA-256 stored, under
 * row-level security) but without the function's cold start and the email;
 * returns the link's path, /invitations/<token>.
 */
export async function inviteByEmail(
  backend: Backend,
  team: SeededTeam,
  email: string,
  role: TeamRole = "member",
): Promise<string> {
  const admin = await signedInClient(backend, team.users.admin);
  const token = crypto.randomBytes(32).toString("base64url");
  const token_hash = crypto.createHash("sha256").update(token).digest("hex");
  const { error } = await admin.from("invitations").insert({ team_id: team.id, email, role, token_hash });
  if (error) throw new Error(`invitation: ${JSON.stringify(error)}`);
  return `/invitations/${token}`;
}
