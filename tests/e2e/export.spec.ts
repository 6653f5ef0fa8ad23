import fs from "node:fs";
import { expect, MODES, test } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/** The board's "Export CSV" link downloads the project's tasks (the export-project function), with and without JavaScript. */
for (const mode of MODES) {
  test.describe(`export ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a viewer downloads the board as CSV, awkward titles quoted and formulas neutralised", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, {
        tasks: [{ title: 'Ship it, "now"', labels: ["release"], assignee: "member" }, { title: "=SUM(A1:A9)" }],
      });
      await login(team.users.viewer);
      await page.goto(`/teams/${team.slug}/projects/WEB`);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Export CSV" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${team.slug}-WEB-tasks-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const csv = fs.readFileSync((await download.path())!, "utf8");
      // a byte order mark first, so a spreadsheet app reads the file as UTF-8
      expect(csv.startsWith("\uFEFF")).toBe(true);
      const lines = csv.slice(1).split("\r\n");
      expect(lines[0]).toBe(
        "Task,Title,Description,Status,Priority,Assignees,Due date,Labels,Created (UTC),Updated (UTC),Completed (UTC)",
      );
      // the words the board shows: status, priority and the person's name, the team's labels by name; minutes in UTC
      expect(lines[1]).toMatch(
        new RegExp(
          `^WEB-1,"Ship it, ""now""",,Backlog,(No priority|Low|Medium|High|Urgent),${team.users.member.displayName},,release,\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2},`,
        ),
      );
      expect(lines[2]).toMatch(/^WEB-2,'=SUM\(A1:A9\),/);
      expect(lines.at(-1)).toBe("");
      expect(lines).toHaveLength(4);
    });

    test("someone outside the team gets 404 for the export address", async ({ page, backend, login }) => {
      const team = await seedTeam(backend);
      await login(team.outsider);
      const res = await page.request.get(`/teams/${team.slug}/projects/WEB/export`);
      expect(res.status()).toBe(404);
    });
  });
}
