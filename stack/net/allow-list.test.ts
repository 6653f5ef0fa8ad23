import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowList, type Resolve } from "./allow-list.ts";
import { sendRequest } from "./send.ts";

const refusal = (entries: string[], url: string, apiUrl = "http://127.0.0.1:54321") =>
  allowList(apiUrl, entries)(new URL(url));

describe("pg_net's allow-list", () => {
  it("lets requests reach this machine and the stack itself", () => {
    for (const url of [
      "http://127.0.0.1:54321/functions/v1/x",
      "http://localhost:8080/",
      "http://api.localhost/",
      "http://127.1.2.3/",
      "http://[::1]:3000/",
      "https://localhost/",
    ]) {
      expect(refusal([], url), url).toBeNull();
    }
    expect(refusal([], "https://stack.example.test/functions/v1/x", "https://stack.example.test")).toBeNull();
  });

  it("refuses other hosts, naming the host and how to allow it", () => {
    expect(refusal([], "https://example.com/hook")).toBe(
      "example.com is not an allowed host (the stack calls itself and loopback only; add hosts with STACK_NET_ALLOWED_HOSTS)",
    );
    expect(refusal([], "http://10.0.0.1/")).toMatch(/^10\.0\.0\.1 is not an allowed host/);
    expect(refusal([], "http://0.0.0.0:54321/")).not.toBeNull();
    expect(refusal([], "http://127.0.0.1.example.com/")).not.toBeNull();
  });

  it("adds configured hosts: a name, a name with a port, a domain's names, or everything", () => {
    expect(refusal(["hooks.example.com"], "https://hooks.example.com/x")).toBeNull();
    expect(refusal(["hooks.example.com:8443"], "https://hooks.example.com:8443/x")).toBeNull();
    expect(refusal(["hooks.example.com:8443"], "https://hooks.example.com/x")).not.toBeNull();
    expect(refusal(["*.example.com"], "https://a.b.example.com/x")).toBeNull();
    expect(refusal(["*.example.com"], "https://example.com.evil.test/x")).not.toBeNull();
    expect(refusal(["*"], "https://anywhere.test/")).toBeNull();
  });
});

describe("a loopback name is trusted for the address it resolves to (issue 35, L5)", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end("here"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  // a resolver (or /etc/hosts) that sends some names under .localhost elsewhere: no real DNS can be
  // told to here, so the lookup is handed in, as the stack hands in the system's
  const resolve: Resolve = async (host) => {
    if (host === "evil.localhost") return [{ address: "10.0.0.1", family: 4 }];
    if (host === "mixed.localhost")
      return [
        { address: "127.0.0.1", family: 4 },
        { address: "192.168.1.5", family: 4 },
      ];
    return [{ address: "127.0.0.1", family: 4 }];
  };
  const send = (url: string, entries: string[] = []) =>
    sendRequest(
      { id: 1, method: "GET", url, headers: null, body: null, timeout_milliseconds: 5000 },
      allowList("http://127.0.0.1:54321", entries, resolve),
    );

  it("refuses a name under .localhost that resolves to another machine, naming the address, and never connects", async () => {
    for (const host of ["evil.localhost", "mixed.localhost"]) {
      const r = await send(`http://${host}:${port}/`);
      expect(r, host).toMatchObject({ refused: true, status_code: null });
      expect(r.error_msg, host).toMatch(
        new RegExp(
          `^Refused by the local stack: ${host} resolves to (10\\.0\\.0\\.1|192\\.168\\.1\\.5), which is not this machine`,
        ),
      );
    }
  });

  it("calls a name under .localhost that resolves to loopback, at the address it checked", async () => {
    const r = await send(`http://api.localhost:${port}/`);
    expect(r).toMatchObject({ status_code: 200, content: "here", refused: false });
  });
});
