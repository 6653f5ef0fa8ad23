/**
 * Rows that belong to a task keep its project id (issue 37; 20261207000220_child_rows_carry_project.sql):
 * the read policies of comments, attachments and watchers compare it with the person's projects
 * once per query, so it must always be the task's — filled in on insert whatever was sent, and a
 * task never changes project.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbPeople, failure } from "../support/db-people.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
const { call, teamWith, project, task } = dbPeople(() => stack);

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

describe("rows of a task carry its project", () => {
  it("a comment, an attachment and a watcher get the task's project id, whatever was sent", async () => {
    const { team, owner, member } = await teamWith({ member: "member" });
    const web = await project(team, "WEB");
    const other = await project(team, "OPS");
    const t = await task(web);
    const [comment] = await call<{ project_id: string }>(
      member,
      "insert into comments (task_id, body) values ($1, 'hello') returning project_id",
      [t.id],
    );
    expect(comment.project_id).toBe(web);
    // (commenting made the member a watcher) and the owner starts watching
    await call(owner, "insert into task_watchers (task_id, user_id) values ($1, $2)", [t.id, owner]);
    // as the database owner (past the column grants), with another project's id
    const { rows } = await stack.db.query<{ project_id: string }>(
      `insert into attachments (task_id, project_id, uploaded_by, file_name, content_type, size_bytes, object_path)
       values ($1, $2, $3, 'a.txt', 'text/plain', 1, $4) returning project_id`,
      [t.id, other, owner, `${t.id}/a.txt`],
    );
    expect(rows[0].project_id).toBe(web);
    const watchers = await stack.db.query<{ project_id: string }>(
      "select project_id from task_watchers where task_id = $1",
      [t.id],
    );
    expect(watchers.rows.map((r) => r.project_id)).toEqual([web, web]);
  });

  it("the person's reads: their projects' comments, none of another team's", async () => {
    const a = await teamWith({ member: "member" });
    const b = await teamWith();
    const taskA = await task(await project(a.team, "AAA"));
    const taskB = await task(await project(b.team, "BBB"));
    await call(a.member, "insert into comments (task_id, body) values ($1, 'mine')", [taskA.id]);
    await call(b.owner, "insert into comments (task_id, body) values ($1, 'theirs')", [taskB.id]);
    expect(await call(a.member, "select body from comments order by body")).toEqual([{ body: "mine" }]);
    // commenting on another team's task is refused by the insert policy, not told "task not found"
    expect(
      await failure(call(a.member, "insert into comments (task_id, body) values ($1, 'x')", [taskB.id])),
    ).toMatchObject({
      code: "42501",
    });
  });

  it("a task stays in its project", async () => {
    const { team } = await teamWith();
    const web = await project(team, "WEB");
    const other = await project(team, "OPS");
    const t = await task(web);
    expect(
      await failure(stack.db.query("update tasks set project_id = $1 where id = $2", [other, t.id])),
    ).toMatchObject({
      code: "23514",
      message: "A task stays in its project.",
    });
  });
});
