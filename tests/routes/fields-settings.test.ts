/**
 * The project's fields page (issue 38, docs/product.md §17), as plain form posts
 * (no JavaScript): an admin adds "Customer" (select: Acme, Globex) and
 * "Points" (number 0–100, summed); a member may not; the limits come back in
 * §22's words beside the name; removing a field that tasks hold asks first,
 * saying how many.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

let stack: TestStack;
let team: RouteTeam;
let page: typeof import("~/routes/teams.$team.projects.$key_.fields");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  page = await import("~/routes/teams.$team.projects.$key_.fields");
});
afterAll(() => stack?.close());

const url = () => `/teams/${team.slug}/projects/WEB/fields`;
const params = () => ({ team: team.slug, key: "WEB" });
const post = (user: RouteTeam["admin"], form: Record<string, string>) =>
  call(page.action, { url: url(), user, params: params(), form });

describe("the project's fields page", () => {
  it("an admin adds a select with its options and a summed number; a member may not", async () => {
    const customer = await post(team.admin, {
      intent: "add-field",
      name: "Customer",
      kind: "select",
      options: "Acme, Globex",
      onCard: "on",
    });
    expect(customer.status).toBe(302);
    const pointsAdded = await post(team.admin, {
      intent: "add-field",
      name: "Points",
      kind: "number",
      min: "0",
      max: "100",
      sum: "on",
    });
    expect(pointsAdded.status).toBe(302);
    const refused = await post(team.member, { intent: "add-field", name: "Mine", kind: "text" });
    expect(refused.status).toBe(403);

    const loaded = await call(page.loader, { url: url(), user: team.admin, params: params() });
    const { fields } = loaded.data as {
      fields: {
        name: string;
        kind: string;
        on_card: boolean;
        sum: boolean;
        max: number;
        options: { name: string }[];
      }[];
    };
    expect(fields.map((f) => [f.name, f.kind, f.on_card, f.sum])).toEqual([
      ["Customer", "select", true, false],
      ["Points", "number", false, true],
    ]);
    expect(fields[0].options.map((o) => o.name)).toEqual(["Acme", "Globex"]);
    expect(fields[1].max).toBe(100);
    expect((await call(page.loader, { url: url(), user: team.member, params: params() })).status).toBe(403);

    const taken = await post(team.admin, { intent: "add-field", name: "points", kind: "text" });
    expect(taken.status).toBe(400);
    expect(taken.data).toMatchObject({ errors: { name: "That name is taken in this project." } });
  });

  it("a 4th field on cards is refused in §22's words", async () => {
    for (const name of ["Card A", "Card B"]) {
      expect((await post(team.admin, { intent: "add-field", name, kind: "checkbox", onCard: "on" })).status).toBe(302);
    }
    const fourth = await post(team.admin, { intent: "add-field", name: "Card C", kind: "text", onCard: "on" });
    expect(fourth.status).toBe(400);
    expect(fourth.data).toMatchObject({
      errors: { name: "A project can have at most 30 fields, and 3 on cards." },
      values: { name: "Card C" },
    });
  });

  it("removing a field tasks hold asks first, saying how many", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      "select f.id from fields f where f.project_id = $1 and f.name = 'Points'",
      [team.projectId],
    );
    const points = rows[0].id;
    for (const taskId of team.taskIds) {
      await stack.db.query("insert into field_values (task_id, field_id, value) values ($1, $2, '3')", [
        taskId,
        points,
      ]);
    }
    const asked = await post(team.admin, { intent: "remove-field", fieldId: points });
    expect(asked.status).toBe(200);
    expect(asked.data).toMatchObject({ confirm: { name: "Points", held: 2 } });
    expect((await stack.db.query("select 1 from fields where id = $1", [points])).rows).toHaveLength(1);
    const removed = await post(team.admin, { intent: "remove-field", fieldId: points, confirmed: "1" });
    expect(removed.status).toBe(302);
    expect((await stack.db.query("select 1 from fields where id = $1", [points])).rows).toHaveLength(0);
    expect((await stack.db.query("select 1 from field_values where field_id = $1", [points])).rows).toHaveLength(0);
  });
});
