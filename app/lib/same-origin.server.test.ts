import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { handleInRequestScope, serveInRequestScope } from "./request-scope.server";
import { fetchSource, isCrossSite, isRemixCsrfRefusal } from "./same-origin.server";

function post(headers: Record<string, string>, method = "POST") {
  return new Request("http://localhost:5173/logout", { method, headers });
}

describe("isCrossSite", () => {
  it("lets through what doesn't change anything, and posts from this origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      expect(isCrossSite(fetchSource(post({ Origin: "http://evil.example" }, method)))).toBe(false);
    expect(isCrossSite(fetchSource(post({ Origin: "http://localhost:5173", Host: "localhost:5173" })))).toBe(false);
    // behind a proxy, the host the browser used
    expect(
      isCrossSite(
        fetchSource(
          post({
            Origin: "https://teamboard.example",
            Host: "127.0.0.1:3000",
            "X-Forwarded-Host": "teamboard.example",
          }),
        ),
      ),
    ).toBe(false);
    // no Origin and no Sec-Fetch-Site: not a browser (curl, a server)
    expect(isCrossSite(fetchSource(post({ Host: "localhost:5173" })))).toBe(false);
  });

  it("refuses another site, another port of this host, an opaque origin and same-site fetches", () => {
    const refused: Record<string, string>[] = [
      { Origin: "http://evil.example", Host: "localhost:5173" },
      { Origin: "http://localhost:5174", Host: "localhost:5173" },
      { Origin: "null", Host: "localhost:5173" },
      { Origin: "not a url", Host: "localhost:5173" },
      { "Sec-Fetch-Site": "same-site", Host: "localhost:5173" },
      { "Sec-Fetch-Site": "cross-site", Host: "localhost:5173" },
    ];
    for (const headers of refused) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        expect(isCrossSite(fetchSource(post(headers, method))), JSON.stringify(headers)).toBe(true);
      }
    }
  });

  it("recognises Remix's own refusal of a cross-site post to a page route", async () => {
    const { throwIfPotentialCSRFAttack } = await import("@remix-run/server-runtime/dist/actions.js");
    let thrown: unknown;
    try {
      throwIfPotentialCSRFAttack(new Headers({ Origin: "http://localhost:5174", Host: "localhost:5173" }));
    } catch (error) {
      thrown = error;
    }
    expect(isRemixCsrfRefusal(thrown)).toBe(true);
    expect(isRemixCsrfRefusal(new Error("something else"))).toBe(false);
  });
});

describe("the servers refuse cross-site posts where they open the request scope, before the app", () => {
  it("a Node server (server.mjs, the Vite dev server): 403, and the app never runs", async () => {
    let handled = 0;
    const server = http.createServer((req, res) =>
      serveInRequestScope(req, res, {}, () => {
        handled++;
        res.end("handled");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const from of ["http://127.0.0.1:1", "https://evil.example"]) {
        const answer = await fetch(`${origin}/api/attachments`, {
          method: "POST",
          headers: { Origin: from },
          body: "x",
        });
        expect(answer.status).toBe(403);
        expect(await answer.text()).toMatch(/another site/);
      }
      expect(handled).toBe(0);
      // (a form: a body of another type is refused too, 415, by form-bodies.server)
      const own = await fetch(`${origin}/logout`, {
        method: "POST",
        headers: { Origin: origin },
        body: new URLSearchParams({ x: "1" }),
      });
      expect([own.status, await own.text(), handled]).toEqual([200, "handled", 1]);
    } finally {
      server.close();
    }
  });

  it("a fetch handler (the benchmarks' built app): the same", async () => {
    let handled = 0;
    const handle = async () => {
      handled++;
      return new Response("handled");
    };
    const refused = await handleInRequestScope(
      new Request("http://localhost:5173/logout", {
        method: "POST",
        headers: { Origin: "http://localhost:5174", Host: "localhost:5173" },
      }),
      {},
      handle,
    );
    expect([refused.status, handled]).toEqual([403, 0]);
  });
});
