/**
 * People, teams, projects and tasks for the database tests
 * (tests/integration/db-*.test.ts), and calls made as a person: each runs as
 * PostgREST runs a request (role `authenticated`, the person's claims), so
 * row-level security and the RPCs' own checks apply.
 */
import type { Queryable } from "../../stack/db/types.ts";
import type { TestStack } from "./stack.ts";

export function dbPeople(stackOf: () => TestStack) {
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;
  const db = () => stackOf().db;

  async function createUser(displayName?: string, email: string | null = `${unique("user")}@example.com`) {
    const { rows } = await db().query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', $2::jsonb, now(), now()) returning id`,
      [email, displayName === undefined ? null : JSON.stringify({ display_name: displayName })],
    );
    return rows[0].id;
  }

  function as<T>(userId: string, fn: (tx: Queryable) => Promise<T>) {
    return db().asRequest(
      { role: "authenticated", claims: { sub: userId, role: "authenticated", aud: "authenticated" } },
      fn,
    );
  }

  async function call<T = Record<string, unknown>>(userId: string, sql: string, params: unknown[] = []) {
    return as(userId, async (tx) => (await tx.query<T>(sql, params)).rows);
  }

  /** A team made by its owner with create_team, and people in the given roles. */
  async function teamWith(roles: Record<string, "admin" | "member" | "viewer"> = {}) {
    const owner = await createUser("Team Owner");
    const slug = unique("team");
    const [team] = await call<{ id: string; slug: string }>(owner, "select * from create_team('Team', $1)", [slug]);
    const people: Record<string, string> = { owner };
    for (const [name, role] of Object.entries(roles)) {
      people[name] = await createUser(name);
      await db().query("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [
        team.id,
        people[name],
        role,
      ]);
    }
    return { team: team.id, slug, ...people } as { team: string; slug: string; owner: string } & Record<string, string>;
  }

  async function project(teamId: string, key = "WEB") {
    const { rows } = await db().query<{ id: string }>(
      "insert into projects (team_id, key, name) values ($1, $2, 'Project') returning id",
      [teamId, key],
    );
    return rows[0].id;
  }

  /** A project's status by its name; new projects have Backlog, To do, In progress, Done, Canceled. */
  async function statusId(projectId: string, name: string) {
    const { rows } = await db().query<{ id: string }>(
      "select id from project_statuses where project_id = $1 and name = $2",
      [projectId, name],
    );
    if (!rows[0]) throw new Error(`no status ${name}`);
    return rows[0].id;
  }

  async function task(
    projectId: string,
    fields: { title?: string; status?: string; description?: string; assignee?: string; parent?: string } = {},
  ) {
    const { rows } = await db().query<{ id: string; number: number }>(
      `insert into tasks (project_id, title, description, status_id, assignee_id, parent_id)
       values ($1, $2, $3, $4, $5, $6) returning id, number`,
      [
        projectId,
        fields.title ?? "A task",
        fields.description ?? "",
        await statusId(projectId, fields.status ?? "Backlog"),
        fields.assignee ?? null,
        fields.parent ?? null,
      ],
    );
    return rows[0];
  }

  /** A column's tasks, in order. */
  async function column(projectId: string, status: string) {
    const { rows } = await db().query<{ title: string; position: number }>(
      `select t.title, t.position from tasks t join project_statuses s on s.id = t.status_id
       where t.project_id = $1 and s.name = $2 order by t.position`,
      [projectId, status],
    );
    return rows;
  }

  return { unique, createUser, as, call, teamWith, project, statusId, task, column };
}

/** The error a call fails with (its SQLSTATE, message and detail when there is one), or null. */
export async function failure(promise: Promise<unknown>) {
  try {
    await promise;
    return null;
  } catch (error) {
    const e = error as { code?: string; message?: string; detail?: string };
    return e.detail ? { code: e.code, message: e.message, detail: e.detail } : { code: e.code, message: e.message };
  }
}
