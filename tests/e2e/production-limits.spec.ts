import net from "node:net";
import { expect, test } from "@playwright/test";
import { newSessionSecret, startApp, startBackend } from "../support/app-cluster";

/**
 * The production server's body limits and its access log (issue 35 M1, L2):
 * a post declaring or streaming more than its route takes is answered 413
 * before admission (app/lib/body-limits.server.ts), and the log never
 * writes a secret address.
 */

/** A raw request: its headers and then `body` at once, or one byte every `trickleMs`; resolves with the status line. */
function rawPost(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: { bytes: Buffer } | { trickleMs: number },
) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = "";
  let trickle: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => socket.once("close", () => (clearInterval(trickle), resolve())));
  const answer = new Promise<{ status: number; head: string; body: string }>((resolve, reject) => {
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end !== -1) {
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
        if (received.length >= end + 4 + length)
          resolve({
            status: Number(received.slice(9, 12)),
            head: received.slice(0, end),
            body: received.slice(end + 4, end + 4 + length),
          });
      }
    });
    socket.on("error", () => {});
    socket.once("close", () => reject(new Error(`closed with no answer: ${JSON.stringify(received.slice(0, 200))}`)));
  });
  answer.catch(() => {});
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      "\r\n",
  );
  if ("bytes" in body) socket.write(body.bytes);
  else trickle = setInterval(() => socket.write("i"), body.trickleMs);
  return { answer, closed, end: () => (clearInterval(trickle), socket.destroy()) };
}

test("a post declaring more than its route takes is answered 413 at once, while it trickles, and never holds a slot", async () => {
  test.setTimeout(120_000);
  const backend = await startBackend({ jwtExpiry: 3600, siteUrl: "http://127.0.0.1" });
  try {
    const app = await startApp(backend, {
      sessionSecret: newSessionSecret(),
      env: { MAX_CONCURRENT_REQUESTS: "4", QUEUE_TIMEOUT_MS: "0", BODY_LINGER_MS: "3000" },
    });
    const form = (address: string, length: number) => ({
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(length),
      origin: app.url,
      "x-forwarded-for": address,
    });
    // the audit's: 32 sign-in posts from 4 addresses, each declaring 64 MiB + 1 and sending a byte every 200 ms
    const started = performance.now();
    const slow = Array.from({ length: 32 }, (_, i) =>
      rawPost(app.url, "/login", form(`203.0.113.${i % 4}`, 64 * 1024 * 1024 + 1), { trickleMs: 200 }),
    );
    const answers = await Promise.all(slow.map((s) => s.answer));
    expect(answers.map((a) => a.status)).toEqual(Array(32).fill(413));
    expect(performance.now() - started, "answered before their bodies came").toBeLessThan(10_000);
    expect(answers[0].head).toMatch(/\r\ncontent-type: text\/html/i);
    expect(answers[0].body).toContain("That form is larger than Teamboard takes (1 MB).");
    // meanwhile pages and other people's form posts are served, not shed
    for (let i = 0; i < 3; i++) {
      const view = await fetch(`${app.url}/login`);
      expect(view.status, "a page view while 32 declared-large posts trickle").toBe(200);
      await view.text();
    }
    const other = await fetch(`${app.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: app.url,
        "x-forwarded-for": "198.51.100.9",
      },
      body: new URLSearchParams({ intent: "password", email: "ada@example.com", password: "not-the-password-1" }),
    });
    expect(other.status, "another person's sign-in: wrong password, not shed").toBe(400);
    // what they go on sending is dropped for BODY_LINGER_MS, then their connections are cut
    await Promise.all(slow.map((s) => s.closed));
    expect(performance.now() - started).toBeLessThan(20_000);

    // per route: a form takes 1 MiB; the attach form 64 MiB; the panel's upload 11 MiB, answered in JSON
    const twoMiB = Buffer.alloc(2 * 1024 * 1024, "a");
    const login = rawPost(app.url, "/login", form("192.0.2.1", twoMiB.length), { bytes: twoMiB });
    expect((await login.answer).status).toBe(413);
    login.end();
    const preview = rawPost(app.url, "/api/preview", { ...form("192.0.2.1", 1024 * 1024 + 1) }, { trickleMs: 500 });
    expect((await preview.answer).status).toBe(413);
    preview.end();
    const attachForm = rawPost(
      app.url,
      "/teams/acme/projects/WEB/tasks/1/attachments",
      form("192.0.2.1", twoMiB.length),
      { bytes: twoMiB },
    );
    expect(
      (await attachForm.answer).status,
      "2 MiB to the attach form reaches the app (which asks to sign in)",
    ).not.toBe(413);
    attachForm.end();
    const attachTooMuch = rawPost(
      app.url,
      "/teams/acme/projects/WEB/tasks/1/attachments",
      form("192.0.2.1", 64 * 1024 * 1024 + 1),
      { trickleMs: 500 },
    );
    expect((await attachTooMuch.answer).status).toBe(413);
    attachTooMuch.end();
    const upload = rawPost(app.url, "/api/attachments", form("192.0.2.1", 11 * 1024 * 1024 + 1), { trickleMs: 500 });
    const uploadAnswer = await upload.answer;
    expect(uploadAnswer.status).toBe(413);
    expect(JSON.parse(uploadAnswer.body)).toEqual({ ok: false, message: "The file is larger than 10 MB." });
    upload.end();

    // a body that declares no length (chunked) is counted as it comes: 413 once past the limit
    let sent = 0;
    const chunked = await fetch(`${app.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new ReadableStream({
        pull(controller) {
          if (sent >= 3 * 1024 * 1024) return controller.close();
          sent += 256 * 1024;
          controller.enqueue(new Uint8Array(256 * 1024).fill(97));
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await chunked.text();

    // a body that isn't a form is refused before Remix: 415 in words, not a 500 (issue 35 L3)
    const json = await fetch(`${app.url}/api/preview`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ text: "*hi*", team: "acme" }),
    });
    expect(json.status).toBe(415);
    expect(await json.text()).toContain("Teamboard takes forms here");

    expect(app.output()).toMatch(/POST \/login 413 /);
    await app.stop();
  } finally {
    await backend.stop();
  }
});

test("the access log writes secret addresses redacted: feeds, unsubscribe links, invitations, sign-in codes", async () => {
  test.setTimeout(120_000);
  const backend = await startBackend({ jwtExpiry: 3600, siteUrl: "http://127.0.0.1" });
  try {
    const app = await startApp(backend, { sessionSecret: newSessionSecret() });
    const secret = "Zq8x3N1vT5pL0wK9mR2yB7cF4hJ6dG";
    const paths = [
      `/calendar/${secret}.ics`,
      `/unsubscribe/${secret}`,
      `/invitations/${secret}`,
      `/auth/confirm?token_hash=${secret}&type=email`,
      `/auth/callback?code=${secret}`,
      `/login?next=${encodeURIComponent(`/invitations/${secret}`)}`,
    ];
    for (const path of paths) await (await fetch(`${app.url}${path}`, { redirect: "manual" })).arrayBuffer();
    const unsubscribe = await fetch(`${app.url}/unsubscribe/${secret}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: "",
    });
    await unsubscribe.arrayBuffer();
    // the seven requests above, each logged when its answer is done (the start-up's /healthz not counted)
    await expect
      .poll(() => app.output().match(/\[req [0-9a-f]{8}\] (GET|POST) \/(?!healthz)/g)?.length ?? 0)
      .toBeGreaterThanOrEqual(7);
    const log = app.output();
    expect(log).not.toContain(secret);
    for (const line of [
      "GET /calendar/[redacted].ics",
      "GET /unsubscribe/[redacted]",
      "POST /unsubscribe/[redacted]",
      "GET /invitations/[redacted]",
      "GET /auth/confirm?token_hash=[redacted]&type=email",
      "GET /auth/callback?code=[redacted]",
      `GET /login?next=${encodeURIComponent("/invitations/[redacted]")}`,
    ])
      expect(log).toContain(line);
    await app.stop();
  } finally {
    await backend.stop();
  }
});
