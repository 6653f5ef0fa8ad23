/**
 * npm run bench:text — figures for text and pictures (docs/product.md §14):
 *   1. Markdown: render time of a 10,000-character description (p50, in process),
 *      and the slowest of the hostile inputs the unit tests render (p50, max);
 *   2. the task panel with 200 comments: server time through the BUILT app's
 *      request handler, signed in, with Markdown comments beside the same
 *      page with plain-text comments (ratio); and the rendering alone beside
 *      escaping the same texts as plain text;
 *   3. a 4000×3000 JPEG's 256 px thumbnail from Storage's render endpoint:
 *      first request (each from a fresh object) and cached (p50), beside a
 *      plain download of a file the thumbnail's size;
 *   4. the stack's resident memory while 20 large images are transformed at once.
 * Builds the app first when build/server/index.js is missing. Prints figures only.
 */
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { markdownToHtml } from "../app/lib/markdown.server.ts";
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { jpeg } from "../tests/support/images.ts";
import { startTestStack } from "../tests/support/stack.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const APP_ORIGIN = "http://127.0.0.1:4999";
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(1)} ms`;
const MB = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

async function timed<T>(fn: () => Promise<T> | T): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** A description as people write them: headings, lists, a table, code, links, references. */
function markdownDescription(length: number): string {
  const block = [
    "## Context",
    "",
    "The **export** times out for projects with _many_ tasks; see WEB-12 and @mia_member's notes in [the doc](https://example.com/doc).",
    "",
    "- [x] reproduce with 6,000 tasks",
    "- [ ] stream the CSV instead of building it",
    "  - nested: keep the column order",
    "",
    "| Size | Before | After |",
    "|-----:|-------:|------:|",
    "| 600 | 1.2 s | 0.3 s |",
    "",
    "```ts",
    "for await (const row of rows) out.write(toCsv(row));",
    "```",
    "",
    "> Quote from the customer: it worked yesterday.",
    "",
  ].join("\n");
  let text = "";
  while (text.length < length) text += block;
  return text.slice(0, length);
}

const markdownComment = (i: number) =>
  `Update ${i}: moved the **query** into \`task_panel\`, see WEB-${(i % 30) + 1}.\n\n- [x] tests\n- [ ] docs\n\nDetails in https://example.com/pr/${i}`;
const plainComment = (i: number) =>
  `Update ${i}: moved the query into the panel function, see the review notes from this morning and the docs after that ${i}`;

// 1. a 10,000-character description
const description = markdownDescription(10_000);
for (let i = 0; i < 20; i++) markdownToHtml(description);
const renderTimes: number[] = [];
for (let i = 0; i < 200; i++) renderTimes.push(await timed(() => markdownToHtml(description)));

const hostile: Record<string, string> = {
  "2,000 links": Array.from({ length: 2000 }, (_, i) => `[l${i}](https://x.y/${i})`)
    .join(" ")
    .slice(0, 10_000),
  "5,000 open brackets": "[".repeat(5000) + "](y)".repeat(1250),
  "emphasis soup": "*a **".repeat(2000),
  "5,000 image openers": "![".repeat(5000),
  "5,000-deep lists": "- ".repeat(5000),
};
const hostileTimes = Object.entries(hostile).map(([name, input]) => {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    markdownToHtml(input);
    times.push(performance.now() - started);
  }
  return { name, p50: p50(times), max: Math.max(...times) };
});
const worst = hostileTimes.reduce((a, b) => (b.max > a.max ? b : a));

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
const panelTexts = [description, ...Array.from({ length: 200 }, (_, i) => markdownComment(i))];
const markdownAlone: number[] = [];
const escapeAlone: number[] = [];
for (let i = 0; i < 30; i++) {
  markdownAlone.push(await timed(() => panelTexts.map((t) => markdownToHtml(t))));
  escapeAlone.push(await timed(() => panelTexts.map(escape)));
}

const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });
try {
  const handle = await loadBuiltApp(stack);
  const admin = createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const email = `bench-${Date.now()}@example.com`;
  const password = "bench-password-1";
  const { data: created, error: userError } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: "Mia Member" },
  });
  if (userError || !created.user) throw userError ?? new Error("no user");
  const userId = created.user.id;
  const { client: ssr, cookie } = await signInWithCookies(stack, { email, password });
  const { data: team, error: teamError } = await ssr
    .rpc("create_team", { name: "Bench", slug: "bench" })
    .single<{ id: string }>();
  if (teamError || !team) throw teamError;

  // 2. the task panel: task 1 with Markdown comments, task 2 with plain ones (30 more tasks to refer to)
  const { rows } = await stack.db.query<{ id: string }>(
    "insert into public.projects (team_id, key, name) values ($1, 'WEB', 'Web') returning id",
    [team.id],
  );
  await stack.db.query(
    `insert into public.tasks (project_id, title, description, created_by)
     select $1, 'Task ' || n, case when n = 1 then $2 when n = 2 then $3 else '' end, $4
     from generate_series(1, 32) n`,
    [rows[0].id, description, description.replace(/[#*_`|>[\]-]/g, " "), userId],
  );
  for (const [number, body] of [
    [1, markdownComment],
    [2, plainComment],
  ] as const) {
    const texts = Array.from({ length: 200 }, (_, i) => body(i));
    await stack.db.query(
      `insert into public.comments (task_id, author_id, body, created_at)
       select t.id, $3, b.body, now() - (b.n || ' minutes')::interval
       from public.tasks t, unnest($2::text[]) with ordinality as b(body, n)
       where t.project_id = $1 and t.number = $4`,
      [rows[0].id, texts, userId, number],
    );
  }
  const page = async (number: number) => {
    const response = await handle(
      new Request(`${APP_ORIGIN}/teams/bench/projects/WEB/tasks/${number}`, { headers: { cookie: cookie() } }),
    );
    const html = await response.text();
    // the timeline shows the latest 50 (docs/product.md §10): the newest comment is there, the oldest a page away
    if (response.status !== 200 || !html.includes("Update 0:")) throw new Error(`panel ${number}: ${response.status}`);
  };
  for (let w = 0; w < 3; w++) {
    await page(1);
    await page(2);
  }
  const markdownPage: number[] = [];
  const plainPage: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    markdownPage.push(await timed(() => page(1)));
    plainPage.push(await timed(() => page(2)));
  }

  // 3. thumbnails of a 4000×3000 JPEG
  await admin.storage.createBucket("bench", { public: true });
  const photo = await jpeg(4000, 3000);
  const firsts: number[] = [];
  const cached: number[] = [];
  let thumbBytes = 0;
  for (let r = 0; r < 5; r++) {
    const name = `photo-${r}.jpg`;
    await admin.storage.from("bench").upload(name, photo, { contentType: "image/jpeg" });
    const url = admin.storage.from("bench").getPublicUrl(name, { transform: { width: 256, format: "origin" } })
      .data.publicUrl;
    firsts.push(
      await timed(async () => {
        thumbBytes = (await (await fetch(url)).arrayBuffer()).byteLength;
      }),
    );
    for (let c = 0; c < 4; c++) cached.push(await timed(async () => (await fetch(url)).arrayBuffer()));
  }
  await admin.storage.from("bench").upload("plain.bin", new Uint8Array(thumbBytes), { contentType: "image/jpeg" });
  const plainUrl = admin.storage.from("bench").getPublicUrl("plain.bin").data.publicUrl;
  const plainDownload: number[] = [];
  for (let r = 0; r < 20; r++) plainDownload.push(await timed(async () => (await fetch(plainUrl)).arrayBuffer()));

  // 4. 20 large images (24 MP each) transformed at once: this process is the stack
  const large = await jpeg(6000, 4000, { quality: 80 });
  const names = Array.from({ length: 20 }, (_, i) => `large-${i}.jpg`);
  for (const name of names) await admin.storage.from("bench").upload(name, large, { contentType: "image/jpeg" });
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const burst = await timed(() =>
    Promise.all(
      names.map(async (name) => {
        const url = admin.storage.from("bench").getPublicUrl(name, { transform: { width: 1200, format: "origin" } })
          .data.publicUrl;
        const res = await fetch(url);
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        await res.arrayBuffer();
      }),
    ),
  );
  clearInterval(sampler);

  console.log(`Markdown, 10,000-character description: render p50 ${ms(p50(renderTimes))} (n=200)`);
  console.log(
    `Markdown, hostile inputs of 10,000 characters: ${hostileTimes.map((h) => `${h.name} p50 ${ms(h.p50)}`).join(", ")}; ` +
      `slowest single render ${ms(worst.max)} (${worst.name})`,
  );
  console.log(
    `task panel, 200 comments (the latest 50 shown) + that description: server time p50 ${ms(p50(markdownPage))} with Markdown, ` +
      `${ms(p50(plainPage))} with plain-text comments (ratio ${(p50(markdownPage) / p50(plainPage)).toFixed(2)}, n=${RUNS}); ` +
      `rendering alone ${ms(p50(markdownAlone))} vs escaping as plain text ${ms(p50(escapeAlone))}`,
  );
  console.log(
    `thumbnail of a 4000×3000 JPEG (${MB(photo.length)}) at 256 px (${(thumbBytes / 1024).toFixed(1)} KB): first request p50 ${ms(p50(firsts))} (n=5), ` +
      `cached p50 ${ms(p50(cached))} (n=20), plain download of ${thumbBytes} B p50 ${ms(p50(plainDownload))} ` +
      `(cached / plain ${(p50(cached) / p50(plainDownload)).toFixed(2)}, first / plain ${(p50(firsts) / p50(plainDownload)).toFixed(1)})`,
  );
  console.log(
    `20 transformations of 6000×4000 JPEGs at once: ${ms(burst)}; stack RSS ${MB(before)} before, peak ${MB(peak)} (+${MB(peak - before)})`,
  );
} finally {
  await stack.close();
}
