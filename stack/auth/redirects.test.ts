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
