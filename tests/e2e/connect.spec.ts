import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, MODES, test } from "./fixtures";
import { seedTeam, signedInClient } from "./product-fixtures";

/**
 * Issue 40 as a person does it (docs/product.md §19): a read-only token made on
 * /account/tokens lists the team's tasks with curl-like calls, a write gets
 * 403, Revoke gets 401; an admin adds a webhook in the project's settings
 * and a change arrives signed (checked with Standard Webhooks' algorithm).
 */
for (const mode of MODES) {
  test.describe(`API tokens and webhooks ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a read-only token: lists the team's tasks, 403 for a write, 401 after Revoke", async ({
      page,
      login,
      backend,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Read me" }, { title: "Me too" }] });
      const other = await seedTeam(backend, { tasks: [{ title: "Not for the token" }] });
      // the owner of both teams
      await backend.admin().from("team_members").insert({ team_id: other.id, user_id: team.owner.id, role: "member" });
      await login(team.owner);
      await page.goto("/account/tokens");
      await page.getByLabel("Name", { exact: true }).fill("n8n");
      await page.getByLabel("Team", { exact: true }).selectOption({ label: team.name });
      await page.getByLabel("Access", { exact: true }).selectOption("read");
      await page.getByLabel("Your password").fill("not my password 1");
      await page.getByRole("button", { name: "Make the token" }).click();
      await expect(page.getByText("That password isn't right.")).toBeVisible();
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue("n8n");
      await page.getByLabel("Your password").fill(team.owner.password);
      await page.getByRole("button", { name: "Make the token" }).click();
      const token = await page.getByLabel(/Your new token/).inputValue();
      expect(token).toMatch(/^tb_/);

      const api = backend.env.apiUrl;
      const exchange = () =>
        fetch(`${api}/functions/v1/api-token`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
      const { access_token: access } = (await (await exchange()).json()) as { access_token: string };
      const headers = { apikey: backend.env.anonKey, Authorization: `Bearer ${access}` };
      const list = await fetch(`${api}/rest/v1/tasks?select=title&order=title`, { headers });
      expect(await list.json()).toEqual([{ title: "Me too" }, { title: "Read me" }]);
      const write = await fetch(`${api}/rest/v1/tasks`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ project_id: team.project.id, title: "Nope" }),
      });
      expect(write.status).toBe(403);

      await page.goto("/account/tokens");
      await page.getByRole("button", { name: "Revoke n8n" }).click();
      await expect(page.getByText("The token is revoked")).toBeVisible();
      expect((await fetch(`${api}/rest/v1/tasks?select=title`, { headers })).status).toBe(401);
      expect((await exchange()).status).toBe(401);

      await page.goto("/account/security");
      await expect(page.getByText("API token made")).toBeVisible();
      await expect(page.getByText("API token revoked")).toBeVisible();
    });

    test("an admin adds a webhook; a change arrives signed; the log shows it", async ({ page, login, backend }) => {
      const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
      const server = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          received.push({ headers: req.headers, body });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const port = (server.address() as AddressInfo).port;
        await backend
          .admin()
          .from("webhook_allowed_hosts" as never)
          .upsert({ host: "127.0.0.1", note: "e2e" } as never);
        const team = await seedTeam(backend, { tasks: [{ title: "Ship it" }] });
        await login(team.users.admin);
        await page.goto(`/teams/${team.slug}/projects/${team.project.key}/settings`);
        await page.getByRole("link", { name: "webhooks" }).click();
        await page.getByLabel("Address").fill(`http://127.0.0.1:${port}/in`);
        await page.getByRole("button", { name: "Add the webhook" }).click();
        const secret = await page.getByLabel(/signing secret/).inputValue();
        expect(secret).toMatch(/^whsec_/);

        const admin = await signedInClient(backend, team.users.admin);
        await admin.from("tasks").update({ title: "Ship it today" }).eq("id", team.tasks[0].id);
        await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
        const [r] = received;
        const secretBytes = Buffer.from(secret.slice("whsec_".length), "base64");
        const expected = crypto
          .createHmac("sha256", secretBytes)
          .update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`)
          .digest("base64");
        expect(String(r.headers["webhook-signature"]).split(" ")).toContain(`v1,${expected}`);
        expect(JSON.parse(r.body)).toMatchObject({ type: "task.changed", data: { task: { title: "Ship it today" } } });

        // the log: a tick of the database's scheduler records the answer (the e2e stacks run jobs
        // only when asked: this is what the `webhooks` job does every 5 s)
        const key = backend.env.serviceRoleKey;
        await expect
          .poll(
            async () => {
              await fetch(`${backend.env.apiUrl}/_stack/cron/jobs/webhooks/run`, {
                method: "POST",
                headers: { apikey: key, Authorization: `Bearer ${key}` },
              });
              await page.reload();
              return page.getByRole("cell", { name: /Delivered/ }).count();
            },
            { timeout: 20_000 },
          )
          .toBe(1);
        await page.getByRole("button", { name: "Send again" }).click();
        await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
        expect(received[1].headers["webhook-id"]).toBe(r.headers["webhook-id"]);
      } finally {
        server.close();
      }
    });
  });
}
