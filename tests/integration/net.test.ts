/**
 * pg_net and Database Webhooks in the local stack, on PGlite and on a native
 * PostgreSQL: requests queued by net.http_get / http_post / http_delete (and
 * by supabase_functions.http_request triggers) reach a real HTTP server on
 * this machine only after their transaction commits, once, even across a
 * restart; answers, failures and timeouts land in net._http_response as
 * pg_net records them; hosts outside the allow-list are refused.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { persistentTestDatabase, startTestStack, type TestStack } from "../support/stack.ts";

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP server on loopback that records what reaches it; `/slow` answers
 * after 600 ms (and counts how many wait at once), `/hang` never answers.
 */
async function startTarget() {
  const received: Received[] = [];
  let open = 0;
  let mostOpen = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = () => {
        if (req.url!.startsWith("/redirect")) {
          res.writeHead(302, { location: "http://example.com/elsewhere" }).end();
          return;
        }
        res.writeHead(201, { "content-type": "application/json", "x-answer": "yes" });
        res.end(JSON.stringify({ got: req.method }));
      };
      if (req.url!.startsWith("/hang")) return;
      if (!req.url!.startsWith("/slow")) return answer();
      // requests to /slow are counted while they wait for their answer
      open++;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => {
        open--;
        answer();
      }, 600);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    mostOpen: () => mostOpen,
    resetMostOpen: () => (mostOpen = open),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Target = Awaited<ReturnType<typeof startTarget>>;
let target: Target;
let stack: TestStack;

beforeAll(async () => {
  target = await startTarget();
  stack = await startTestStack({ net: { concurrency: 3 } });
});
afterAll(async () => {
  await stack?.close();
  await target?.close();
});
beforeEach(() => {
  target.received.length = 0;
});

/** The answer recorded for a request, once there is one. */
async function answer(s: TestStack, id: number) {
  for (let i = 0; i < 200; i++) {
    await s.scheduler.net.settled();
    const { rows } = await s.db.query<Record<string, unknown>>(
      "select status_code, content_type, headers, content, timed_out, error_msg from net._http_response where id = $1",
      [id],
    );
    if (rows.length > 0) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`request ${id} was never answered`);
}

async function queue(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await stack.db.query<{ id: number }>(sql, params);
  return rows[0].id;
}

describe("net.http_get, http_post and http_delete", () => {
  it("send the method, URL parameters, headers and JSON body, and record the answer", async () => {
    const get = await queue(
      'select net.http_get($1, params := \'{"q": "a b&c"}\', headers := \'{"X-Api-Key": "k1"}\') as id',
      [`${target.url}/get?x=1`],
    );
    const post = await queue('select net.http_post($1, body := \'{"hello": "world"}\') as id', [`${target.url}/post`]);
    const del = await queue("select net.http_delete($1, body := '{\"gone\": true}') as id", [`${target.url}/del`]);
    expect(await answer(stack, get)).toEqual({
      status_code: 201,
      content_type: "application/json",
      headers: expect.objectContaining({ "content-type": "application/json", "x-answer": "yes" }),
      content: '{"got":"GET"}',
      timed_out: false,
      error_msg: null,
    });
    await answer(stack, post);
    await answer(stack, del);
    const byPath = Object.fromEntries(target.received.map((r) => [r.url.split("?")[0], r]));
    expect(byPath["/get"]).toMatchObject({ method: "GET", url: "/get?x=1&q=a%20b%26c", body: "" });
    expect(byPath["/get"].headers["x-api-key"]).toBe("k1");
    expect(byPath["/post"]).toMatchObject({ method: "POST", body: '{"hello": "world"}' });
    expect(byPath["/post"].headers["content-type"]).toBe("application/json");
    expect(byPath["/del"]).toMatchObject({ method: "DELETE", body: '{"gone": true}' });
  });

  it("give a recorded answer back through net._http_collect_response", async () => {
    const id = await queue("select net.http_get($1) as id", [`${target.url}/collect`]);
    await answer(stack, id);
    const collect = async (requestId: number) =>
      (
        await stack.db.query(
          `select (r).status, (r).message, ((r).response).status_code as code, ((r).response).body as body
           from (select net._http_collect_response($1) as r) as x`,
          [requestId],
        )
      ).rows[0];
    expect(await collect(id)).toEqual({ status: "SUCCESS", message: "ok", code: 201, body: '{"got":"GET"}' });
    expect(await collect(-99)).toEqual({
      status: "ERROR",
      message: "request matching request_id not found",
      code: null,
      body: null,
    });
  });

  it("refuse what pg_net refuses at the call", async () => {
    await expect(stack.db.query("select net.http_get('not a url')")).rejects.toThrow(
      'invalid URL "not a url": Malformed input to a URL function',
    );
    await expect(
      stack.db.query('select net.http_post($1, headers := \'{"Content-Type": "text/plain"}\')', [target.url]),
    ).rejects.toThrow('Content-Type header must be "application/json"');
  });

  it("never send a request whose transaction rolled back, and send a committed one once", async () => {
    await stack.db
      .transaction(async (tx) => {
        await tx.query("select net.http_post($1)", [`${target.url}/rolled-back`]);
        throw new Error("roll back");
      })
      .catch(() => {});
    const committed = await stack.db.transaction(
      async (tx) =>
        (await tx.query<{ id: number }>("select net.http_post($1) as id", [`${target.url}/committed`])).rows[0].id,
    );
    await answer(stack, committed);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stack.scheduler.net.settled();
    expect(target.received.map((r) => r.url)).toEqual(["/committed"]);
  });

  it("record an unreachable server, a timeout and a redirect elsewhere as failures", async () => {
    const closed = await startTarget();
    await closed.close();
    const refused = await queue("select net.http_get($1) as id", [`${closed.url}/`]);
    const slow = await queue("select net.http_get($1, timeout_milliseconds := 200) as id", [`${target.url}/hang`]);
    const redirected = await queue("select net.http_get($1) as id", [`${target.url}/redirect`]);
    expect(await answer(stack, refused)).toMatchObject({
      status_code: null,
      timed_out: false,
      error_msg: "Couldn't connect to server",
    });
    const timedOut = await answer(stack, slow);
    expect(timedOut).toMatchObject({ status_code: null, timed_out: true });
    expect(timedOut.error_msg).toMatch(/^Timeout of 200 ms reached\. Total time: \d+\.\d+ ms$/);
    expect((await answer(stack, redirected)).error_msg).toMatch(
      /^Refused by the local stack: example\.com is not an allowed host/,
    );
  });

  it("refuse hosts outside the allow-list without sending anything, and record it", async () => {
    const id = await queue("select net.http_post('https://example.com/hook', '{\"secret\": 1}') as id");
    expect(await answer(stack, id)).toEqual({
      status_code: null,
      content_type: null,
      headers: null,
      content: null,
      timed_out: false,
      error_msg:
        "Refused by the local stack: example.com is not an allowed host (the stack calls itself and loopback only; add hosts with STACK_NET_ALLOWED_HOSTS)",
    });
  });

  it("send at most `concurrency` requests at once and the rest as they finish", async () => {
    target.resetMostOpen();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await queue("select net.http_get($1) as id", [`${target.url}/slow/${i}`]));
    for (const id of ids) expect((await answer(stack, id)).status_code).toBe(201);
    expect(target.received).toHaveLength(7);
    expect(target.mostOpen()).toBe(3);
  });

  it("delete answers older than the TTL (6 hours)", async () => {
    await stack.db.query(
      "insert into net._http_response (id, status_code, created) values (-1, 200, now() - interval '7 hours'), (-2, 200, now() - interval '5 hours')",
    );
    await stack.scheduler.net.expire();
    const { rows } = await stack.db.query("select id from net._http_response where id < 0 order by id");
    expect(rows).toEqual([{ id: -2 }]);
  });
});

describe("Database Webhooks (supabase_functions.http_request)", () => {
  it("post each row change with hosted's payload and keep an audit row", async () => {
    await stack.db.exec(`
      create table public.webhook_probe (id int primary key, title text);
      create trigger probe_hook after insert or update or delete on public.webhook_probe
        for each row execute function supabase_functions.http_request(
          '${target.url}/hook', 'POST', '{"Content-Type": "application/json", "X-Hook": "probe"}', '{"source": "db"}', '1000');
    `);
    await stack.db.query("insert into public.webhook_probe values (1, 'first')");
    await stack.db.query("update public.webhook_probe set title = 'second' where id = 1");
    await stack.db.query("delete from public.webhook_probe where id = 1");
    const { rows: hooks } = await stack.db.query<{ hook_name: string; request_id: number }>(
      "select hook_name, request_id from supabase_functions.hooks order by id",
    );
    expect(hooks.map((h) => h.hook_name)).toEqual(["probe_hook", "probe_hook", "probe_hook"]);
    for (const h of hooks) await answer(stack, h.request_id);
    expect(target.received.map((r) => r.url)).toEqual(["/hook?source=db", "/hook?source=db", "/hook?source=db"]);
    expect(target.received[0].headers["x-hook"]).toBe("probe");
    expect(target.received.map((r) => JSON.parse(r.body))).toEqual([
      { type: "INSERT", table: "webhook_probe", schema: "public", record: { id: 1, title: "first" }, old_record: null },
      {
        type: "UPDATE",
        table: "webhook_probe",
        schema: "public",
        record: { id: 1, title: "second" },
        old_record: { id: 1, title: "first" },
      },
      {
        type: "DELETE",
        table: "webhook_probe",
        schema: "public",
        record: null,
        old_record: { id: 1, title: "second" },
      },
    ]);
  });
});

describe("the queue across a restart", () => {
  it("sends a request committed before the stack stopped once it is back, and only once", async () => {
    const database = await persistentTestDatabase();
    try {
      const stopped = await database.start({ scheduler: { net: false } });
      const { rows } = await stopped.db.query<{ id: number }>("select net.http_post($1, '{\"n\": 1}') as id", [
        `${target.url}/after-restart`,
      ]);
      expect((await stopped.db.query("select count(*)::int as n from net.http_request_queue")).rows).toEqual([
        { n: 1 },
      ]);
      await stopped.close();
      expect(target.received).toEqual([]);

      const back = await database.start();
      expect((await answer(back, rows[0].id)).status_code).toBe(201);
      await back.close();
      const again = await database.start();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await again.scheduler.net.settled();
      expect((await again.db.query("select count(*)::int as n from net.http_request_queue")).rows).toEqual([{ n: 0 }]);
      await again.close();
      expect(target.received.map((r) => r.url)).toEqual(["/after-restart"]);
    } finally {
      await database.dispose();
    }
  });
});
