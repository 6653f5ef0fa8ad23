/**
 * A card's comment and attachment counts (issue 29 §7), kept on the task row
 * by triggers (…_card_counts.sql): they follow every comment and attachment,
 * by anyone, however made; nobody writes them; they leave the task's
 * updated_at alone; and the board's read sends them only to those who may
 * see the task. Calls run as a person, as the REST API runs them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbPeople, failure } from "../support/db-people.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const { call, teamWith, project, task } = dbPeople(() => stack);

/** [comments, attachments] as the task row keeps them, and as the rows themselves count them. */
async function keptAndCounted(taskId: string) {
  const { rows } = await stack.db.query<{ kept: number[]; counted: number[] }>(
    `select json_build_array(t.comment_count, t.attachment_count) as kept,
            json_build_array((select count(*) from comments c where c.task_id = t.id),
                             (select count(*) from attachments a where a.task_id = t.id)) as counted
     from tasks t where t.id = $1`,
    [taskId],
  );
  return rows[0];
}

async function comment(userId: string, taskId: string, body = "A comment") {
  const [row] = await call<{ id: string }>(
    userId,
    "insert into comments (task_id, body) values ($1, $2) returning id",
    [taskId, body],
  );
  return row.id;
}

async function attach(userId: string, taskId: string, name: string) {
  const [row] = await call<{ id: string }>(
    userId,
    `insert into attachments (task_id, object_path, file_name, size_bytes) values ($1::uuid, $1::text || '/' || $2, $2, 5)
     returning id`,
    [taskId, name],
  );
  return row.id;
}

interface BoardCards {
  statuses: { name: string; cards: { title: string; comment_count?: number; attachment_count?: number }[] }[];
}

/** Each card's title and its [comments, attachments], as board_view sends them to this person. */
async function boardCounts(userId: string, slug: string) {
  const [{ board }] = await call<{ board: BoardCards | null }>(userId, "select board_view($1, 'WEB') as board", [slug]);
  return (
    board &&
    board.statuses.flatMap((s) => s.cards.map((c) => [c.title, [c.comment_count ?? 0, c.attachment_count ?? 0]]))
  );
}

describe("a card's comment and attachment counts", () => {
  it("follow every comment and attachment, by anyone, and reach the board's cards", async () => {
    const t = await teamWith({ mia: "member", adam: "admin" });
    const p = await project(t.team);
    const main = await task(p, { title: "Main" });
    await task(p, { title: "Quiet" });
    const inStep = async (step: string, expected: number[]) => {
      const { kept, counted } = await keptAndCounted(main.id);
      expect(kept, step).toEqual(counted);
      expect(kept, step).toEqual(expected);
    };

    const first = await comment(t.mia, main.id);
    await comment(t.adam, main.id);
    await comment(t.owner, main.id);
    await inStep("three comments by three people", [3, 0]);
    await call(t.mia, "update comments set body = 'Edited' where id = $1", [first]);
    await inStep("an edit counts nothing", [3, 0]);
    await call(t.mia, "delete from comments where id = $1", [first]);
    await inStep("the author deletes one", [2, 0]);
    const file = await attach(t.mia, main.id, "notes.txt");
    await attach(t.adam, main.id, "plan.pdf");
    await inStep("two attachments", [2, 2]);
    await call(t.adam, "delete from attachments where id = $1", [file]);
    await inStep("an admin removes one", [2, 1]);

    expect(await boardCounts(t.mia, t.slug)).toEqual([
      ["Main", [2, 1]],
      ["Quiet", [0, 0]],
    ]);
  });

  it("leave the task's updated_at as it was (a comment is not an edit), and go with the task", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const { id } = await task(p);
    const before = await stack.db.query<{ at: string }>("select updated_at::text as at from tasks where id = $1", [id]);
    await comment(t.mia, id);
    await attach(t.mia, id, "a.txt");
    const after = await stack.db.query<{ at: string; n: number[] }>(
      "select updated_at::text as at, json_build_array(comment_count, attachment_count) as n from tasks where id = $1",
      [id],
    );
    expect(after.rows[0]).toEqual({ at: before.rows[0].at, n: [1, 1] });
    // an edit still changes it
    await call(t.mia, "update tasks set title = 'Renamed' where id = $1", [id]);
    const edited = await stack.db.query<{ at: string }>("select updated_at::text as at from tasks where id = $1", [id]);
    expect(edited.rows[0].at).not.toBe(before.rows[0].at);
    // deleting the task takes its comments and attachments (and their counts' updates touch nothing)
    expect(await failure(call(t.owner, "delete from tasks where id = $1", [id]))).toBeNull();
    const { rows } = await stack.db.query("select 1 from comments where task_id = $1", [id]);
    expect(rows).toEqual([]);
  });

  it("can't be written by anyone but the triggers", async () => {
    const t = await teamWith();
    const { id } = await task(await project(t.team));
    for (const column of ["comment_count = 9", "attachment_count = 9"]) {
      expect(await failure(call(t.owner, `update tasks set ${column} where id = $1`, [id])), column).toMatchObject({
        code: "42501",
      });
    }
  });

  it("are seen only by those who may see the task: another team's person gets no board and no rows", async () => {
    const ours = await teamWith({ mia: "member" });
    const theirs = await teamWith();
    const p = await project(ours.team);
    const { id } = await task(p, { title: "Ours" });
    await comment(ours.mia, id);
    await attach(ours.mia, id, "a.txt");

    expect(await boardCounts(ours.owner, ours.slug)).toEqual([["Ours", [1, 1]]]);
    expect(await boardCounts(theirs.owner, ours.slug)).toBeNull();
    expect(await call(theirs.owner, "select comment_count, attachment_count from tasks where id = $1", [id])).toEqual(
      [],
    );
  });
});
