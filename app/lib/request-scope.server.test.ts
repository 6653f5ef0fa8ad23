import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  errorIdForThisRequest,
  handleInRequestScope,
  headersTarget,
  requestScope,
  RequestScope,
  runInRequestScope,
  serveInRequestScope,
} from "./request-scope.server";

afterEach(() => vi.restoreAllMocks());

const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("the request scope", () => {
  it("is the same object across awaits inside one request, another in the next, and an error outside any", async () => {
    const first = new RequestScope({ id: "a1b2c3d4" });
    const seen = await runInRequestScope(first, async () => {
      await pause();
      return { scope: requestScope(), id: errorIdForThisRequest() };
    });
    expect(seen.scope).toBe(first);
    expect(seen.id).toBe("a1b2c3d4");
    const second = await runInRequestScope(new RequestScope(), async () => requestScope());
    expect(second).not.toBe(first);
    expect(second.id).toMatch(/^[0-9a-f]{8}$/);
    expect(() => requestScope()).toThrow(/No request scope/);
    // outside a request an error still gets an id, a fresh one each time
    expect(errorIdForThisRequest()).toMatch(/^[0-9a-f]{8}$/);
    expect(errorIdForThisRequest()).not.toBe(errorIdForThisRequest());
  });

  it("remembers one make() per key: a second caller shares the first's promise, even while it runs", async () => {
    const scope = new RequestScope();
    const make = vi.fn(async () => {
      await pause();
      return { team: "acme" };
    });
    const [a, b] = await Promise.all([scope.remember("team acme", make), scope.remember("team acme", make)]);
    expect(make).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
    await scope.remember("team other", make);
    expect(make).toHaveBeenCalledTimes(2);
  });
});

describe("the door", () => {
  it("writes the request's cookies over a response's own: same names replaced, others kept, cache headers set", () => {
    const scope = new RequestScope();
    scope.setCookie("sb-x-auth-token", "sb-x-auth-token=old; Path=/");
    scope.setCookie("sb-x-auth-token", "sb-x-auth-token=new; Path=/");
    scope.setCookie("tb_flash", "tb_flash=hello; Path=/; HttpOnly");
    scope.setHeader("Cache-Control", "private, no-cache, no-store, must-revalidate, max-age=0");
    const headers = new Headers({ "Cache-Control": "public, max-age=60" });
    headers.append("Set-Cookie", "sb-x-auth-token=stale; Path=/");
    headers.append("Set-Cookie", "theirs=1; Path=/");
    scope.writeInto(headersTarget(headers));
    expect(headers.getSetCookie()).toEqual([
      "theirs=1; Path=/",
      "sb-x-auth-token=new; Path=/",
      "tb_flash=hello; Path=/; HttpOnly",
    ]);
    expect(headers.get("Cache-Control")).toBe("private, no-cache, no-store, must-revalidate, max-age=0");
  });

  it("leaves a response alone when the request set nothing", () => {
    const headers = new Headers({ "Cache-Control": "public, max-age=60" });
    headers.append("Set-Cookie", "theirs=1");
    new RequestScope().writeInto(headersTarget(headers));
    expect(headers.getSetCookie()).toEqual(["theirs=1"]);
    expect(headers.get("Cache-Control")).toBe("public, max-age=60");
  });

  it("says so when a cookie comes after the head was sent (it can't travel any more)", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const scope = new RequestScope({ id: "feedf00d" });
    scope.writeInto(headersTarget(new Headers()));
    scope.setCookie("tb_flash", "tb_flash=late");
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/^\[scope feedf00d\] cookie tb_flash set after/));
  });

  it("handleInRequestScope: a fetch handler's response leaves with the cookies, even one with immutable headers", async () => {
    const response = await handleInRequestScope(
      new Request("http://app.test/teams", { headers: { Cookie: "sb-x-auth-token=old" } }),
      {},
      async () => {
        expect(requestScope().cookie).toBe("sb-x-auth-token=old");
        await pause();
        requestScope().setCookie("sb-x-auth-token", "sb-x-auth-token=new; Path=/");
        // what fetch() answers has immutable headers
        return Response.redirect("http://app.test/login", 302);
      },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("http://app.test/login");
    expect(response.headers.getSetCookie()).toEqual(["sb-x-auth-token=new; Path=/"]);
  });

  it("serveInRequestScope: a Node server's response leaves with the cookies set while it was handled", async () => {
    const server = http.createServer((req, res) =>
      serveInRequestScope(req, res, { id: "0000abcd" }, async () => {
        const scope = requestScope();
        await pause();
        scope.setCookie("sb-x-auth-token", "sb-x-auth-token=new; Path=/");
        // as the Remix adapters write an answer: their own headers, then the body
        res.statusCode = 404;
        res.setHeader("Set-Cookie", ["theirs=1; Path=/"]);
        res.setHeader("Content-Type", "text/plain");
        res.end(`${scope.id} ${scope.cookie}`);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/x`, { headers: { Cookie: "a=1" } });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("0000abcd a=1");
      expect(response.headers.getSetCookie()).toEqual(["theirs=1; Path=/", "sb-x-auth-token=new; Path=/"]);
    } finally {
      server.close();
    }
  });
});
