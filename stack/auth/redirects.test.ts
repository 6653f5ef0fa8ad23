import { describe, expect, it } from "vitest";
import { globToRegExp, isRedirectUrlValid, resolveRedirect } from "./redirects.ts";

const config = {
  siteUrl: "https://app.example.com",
  additionalRedirectUrls: ["http://localhost:*/**", "https://*.preview.example.com/**"],
};

describe("redirect allow list", () => {
  it("accepts the site URL's origin and allow-listed globs", () => {
    expect(isRedirectUrlValid(config, "https://app.example.com/auth/callback?next=/x")).toBe(true);
    expect(isRedirectUrlValid(config, "http://localhost:5173/auth/callback")).toBe(true);
    expect(isRedirectUrlValid(config, "https://pr-12.preview.example.com/a/b")).toBe(true);
  });

  it("refuses other hosts, lookalikes and odd hostnames", () => {
    expect(isRedirectUrlValid(config, "https://evil.example/")).toBe(false);
    expect(isRedirectUrlValid(config, "https://app.example.com.evil.example/")).toBe(false);
    expect(isRedirectUrlValid(config, "https://a.b.preview.example.com/x")).toBe(false);
    expect(isRedirectUrlValid(config, "http://2130706433/")).toBe(false);
    expect(isRedirectUrlValid(config, "javascript:alert(1)")).toBe(false);
    expect(isRedirectUrlValid(config, "")).toBe(false);
  });

  it("falls back to the site URL", () => {
    expect(resolveRedirect(config, "https://evil.example/")).toBe("https://app.example.com");
    expect(resolveRedirect(config, null, "http://localhost:3000/page")).toBe("http://localhost:3000/page");
  });

  it("treats * as one segment and ** as any", () => {
    expect(globToRegExp("https://*.x.com").test("https://a.x.com")).toBe(true);
    expect(globToRegExp("https://*.x.com").test("https://a.b.x.com")).toBe(false);
    expect(globToRegExp("https://x.com/**").test("https://x.com/a/b/c")).toBe(true);
  });
});

describe("the allow list matches parsed parts, not the raw string", () => {
  const local = {
    siteUrl: "http://localhost:5173",
    additionalRedirectUrls: ["http://localhost:*/**", "http://127.0.0.1:*/**"],
  };

  it.each([
    "http://localhost:@1572395042/cb",
    "http://localhost:@93.184.216.34/cb",
    "http://localhost:x@evil.example/cb",
    "http://localhost@evil.example/",
    "http://user:pass@localhost:3000/cb",
    "http://0x5db8d822/cb",
    "http://1572395042/cb",
    "http://0135.0270.0330.0042/cb",
    "http://127.1:3000/cb",
    "http://[::ffff:5db8:d822]/cb",
    "http://evil/cb",
    "http://localhost:3000\\@evil.example/",
    "http://local%68ost:3000/cb",
    "http://localhost.evil.example:3000/cb",
  ])("refuses %s", (url) => {
    expect(isRedirectUrlValid(local, url)).toBe(false);
    expect(resolveRedirect(local, url)).toBe("http://localhost:5173");
  });

  it("still accepts the local app on any port and path", () => {
    expect(isRedirectUrlValid(local, "http://localhost:5173/auth/callback?next=/teams#x")).toBe(true);
    expect(isRedirectUrlValid(local, "http://localhost:3000/")).toBe(true);
    expect(isRedirectUrlValid(local, "http://127.0.0.1:41234/auth/confirm")).toBe(true);
  });

  it("matches a pattern's path exactly when it names one, and custom schemes by the list", () => {
    const c = {
      siteUrl: "https://app.example.com",
      additionalRedirectUrls: ["https://partner.example.com/callback", "com.example.app://login-callback"],
    };
    expect(isRedirectUrlValid(c, "https://partner.example.com/callback")).toBe(true);
    expect(isRedirectUrlValid(c, "https://partner.example.com/callback/other")).toBe(false);
    expect(isRedirectUrlValid(c, "https://partner.example.com/")).toBe(false);
    expect(isRedirectUrlValid(c, "com.example.app://login-callback")).toBe(true);
  });

  it("fuzz: whatever is accepted goes to a host the list or the site names, with no userinfo", () => {
    const pick = <T>(xs: T[]) => xs[rand(xs.length)];
    let seed = 3;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let i = 0; i < 20_000; i++) {
      const s =
        pick(["http://", "https://", "HTTP://", "http:/", "http:\\\\"]) +
        pick(["", "", "localhost:", "localhost@", "user:pw@", "localhost:@", "@", "localhost%40", "127.0.0.1:3000@"]) +
        pick([
          "localhost",
          "127.0.0.1",
          "1572395042",
          "0x5db8d822",
          "127.1",
          "evil",
          "evil.example",
          "[::1]",
          "[::ffff:5db8:d822]",
          "LOCALHOST",
          "localhost.",
        ]) +
        pick(["", ":3000", ":", ":@evil.example", ":3000@1572395042"]) +
        pick(["", "/", "/cb", "\\@evil.example", "?x=1", "#y", "/a/../b"]);
      if (!isRedirectUrlValid(local, s)) continue;
      const u = new URL(s);
      expect(["localhost", "127.0.0.1"], s).toContain(u.hostname);
      expect(u.username + u.password, s).toBe("");
    }
  });
});
