import { describe, expect, it } from "vitest";
import { allowList } from "./allow-list.ts";

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
