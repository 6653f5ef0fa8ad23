import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * docs/product.md §14 through the route modules: the panel renders its texts
 * with the references the reader may follow; "Preview" without JavaScript
 * saves nothing and sends the form back; /attachments/<id> redirects to a
 * fresh signed URL (a transformed picture with ?size) for a reader of the
 * task, and is a 404 for anyone else.
 */
let stack: TestStack;
let team: RouteTeam;
let attachmentId: string;
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let attachment: typeof import("~/routes/attachments.$id");
let comments: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
let previewApi: typeof import("~/routes/api.preview");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  attachment = await import("~/routes/attachments.$id");
  comments = await import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
  previewApi = await import("~/routes/api.preview");
  const admin = stack.adminClient();
  const objectPath = `${team.taskIds[0]}/plan.png`;
  const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#39f" } })
    .png()
    .toBuffer();
  await admin.storage.from("attachments").upload(objectPath, bytes, { contentType: "image/png" });
  const { data } = await admin
    .from("attachments")
    .insert({
      task_id: team.taskIds[0],
      object_path: objectPath,
      file_name: "plan.png",
      size_bytes: bytes.length,
      content_type: "image/png",
      uploaded_by: team.member.id,
    })
    .select("id")
    .single<{ id: string }>();
  attachmentId = data!.id;
  await admin
    .from("tasks")
    .update({ description: `# Plan\n\nAfter WEB-2 and WEB-99, ask @nobody.\n\n![plan](/attachments/${attachmentId})` })
    .eq("id", team.taskIds[0]);
});
afterAll(() => stack?.close());

const taskUrl = () => `/teams/${team.slug}/projects/WEB/tasks/1`;
const params = { team: "", key: "WEB", number: "1" };

describe("the panel's texts", () => {
  it("renders the description with the references the reader may follow, the rest as typed", async () => {
    const loaded = await call(task.loader, {
      url: taskUrl(),
      user: team.viewer,
      params: { ...params, team: team.slug },
    });
    const html = (loaded.data as { descriptionHtml: string }).descriptionHtml;
    expect(html).toContain("<h4>Plan</h4>");
    expect(html).toContain(
      `<a class="task-ref-link" href="/teams/${team.slug}/projects/WEB/tasks/2" title="Book the room">WEB-2</a>`,
    );
    expect(html).toContain(" WEB-99, ask @nobody.");
    expect(html).toContain(
      `<a class="md-image" href="/attachments/${attachmentId}"><img src="/attachments/${attachmentId}?size=inline" alt="plan" loading="lazy"></a>`,
    );
  });

  it("Preview without JavaScript: 200, nothing saved, the values kept and the field rendered", async () => {
    const answer = await call(task.action, {
      url: `${taskUrl()}?edit=task`,
      user: team.member,
      params: { ...params, team: team.slug },
      form: { intent: "update", title: "", description: "**bold** <i>x</i>", preview: "description" },
    });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({
      intent: "update",
      errors: {},
      values: { title: "", description: "**bold** <i>x</i>" },
      preview: { field: "description", html: "<p><strong>bold</strong> &lt;i&gt;x&lt;/i&gt;</p>\n" },
    });
    const { data } = await stack.adminClient().from("tasks").select("title").eq("id", team.taskIds[0]).single();
    expect(data?.title).toBe("Plan the sprint");
  });
});

describe("Preview of a comment", () => {
  it("without JavaScript: the comment form comes back with its text and the preview; nothing is posted", async () => {
    const body = "See WEB-2 [x](javascript:alert(1))";
    const answer = await call(comments.action, {
      url: `${taskUrl()}/comments`,
      user: team.member,
      params: { ...params, team: team.slug },
      form: { intent: "comment", body, preview: "body" },
    });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({
      intent: "comment",
      errors: {},
      values: { body },
      preview: {
        field: "body",
        html: `<p>See <a class="task-ref-link" href="/teams/${team.slug}/projects/WEB/tasks/2" title="Book the room">WEB-2</a> [x](javascript:alert(1))</p>\n`,
      },
    });
    const { count } = await stack
      .adminClient()
      .from("comments")
      .select("id", { count: "exact", head: true })
      .eq("task_id", team.taskIds[0]);
    expect(count).toBe(0);
  });

  it("with JavaScript (/api/preview): rendered as the reader may see it; an outsider's references stay text", async () => {
    const render = (user: RouteUser | null) =>
      call(previewApi.action, { url: "/api/preview", user, params: {}, form: { text: "**WEB-2**", team: team.slug } });
    const member = await render(team.member);
    expect(JSON.parse(member.text!)).toEqual({
      html: `<p><strong><a class="task-ref-link" href="/teams/${team.slug}/projects/WEB/tasks/2" title="Book the room">WEB-2</a></strong></p>\n`,
    });
    const outsider = await render(team.outsider);
    expect(JSON.parse(outsider.text!)).toEqual({ html: "<p><strong>WEB-2</strong></p>\n" });
    const nobody = await render(null);
    expect(nobody.status).toBe(302);
    expect(nobody.location).toMatch(/^\/login\?next=/);
  });
});

describe("/attachments/<id>", () => {
  const open = (user: RouteTeam["member"], search = "") =>
    call(attachment.loader, { url: `/attachments/${attachmentId}${search}`, user, params: { id: attachmentId } });

  it("redirects a reader to a fresh signed URL: the file, or a picture Storage makes", async () => {
    const file = await open(team.viewer);
    expect(file.status).toBe(302);
    expect(file.location).toContain("/storage/v1/object/sign/attachments/");
    const thumb = await open(team.viewer, "?size=thumb");
    expect(thumb.location).toContain("/storage/v1/render/image/sign/attachments/");
    const res = await fetch(thumb.location!);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-transformations")).toBe("height:96,width:96,resizing_type:fill");
  });

  it("is a 404 for someone outside the team, as for an attachment that does not exist, and asks nobody to log in", async () => {
    expect((await open(team.outsider, "?size=thumb")).status).toBe(404);
    const missing = await call(attachment.loader, {
      url: "/attachments/00000000-0000-4000-8000-000000000000",
      user: team.member,
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(missing.status).toBe(404);
    const nobody = await open(null as never);
    expect(nobody.status).toBe(302);
    expect(nobody.location).toMatch(/^\/login\?next=/);
  });
});
