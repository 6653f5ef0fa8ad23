import { describe, expect, it } from "vitest";
import { htmlToText } from "../mail/mailer.ts";
import { redirectPath, renderEmail, renderTemplate } from "./templates.ts";

const data = {
  ConfirmationURL: "http://127.0.0.1:54321/auth/v1/verify?token=pkce_abc&type=signup&redirect_to=x",
  Token: "123456",
  TokenHash: "pkce_abc",
  SiteURL: "http://localhost:5173",
  RedirectTo: "http://localhost:5173/teams?tab=mine",
  Email: "a@example.test",
  Data: { name: "<Ada>" },
};

describe("email templates", () => {
  it("link to the app's /auth/confirm with the token hash, type and next path, plus the code", () => {
    const { subject, html } = renderEmail("magic_link", {}, data);
    expect(subject).toBe("Your Magic Link");
    const text = htmlToText(html);
    expect(text).toContain(
      "http://localhost:5173/auth/confirm?token_hash=pkce_abc&type=email&next=%2Fteams%3Ftab%3Dmine",
    );
    expect(text).toContain("Or enter this code: 123456");
  });

  it("render Supabase placeholders, escaped, and custom templates", () => {
    expect(renderTemplate("{{ .Data.name }} {{.Email}} {{ .Unknown }}", data)).toBe("&lt;Ada&gt; a@example.test ");
    const custom = renderEmail(
      "recovery",
      { recovery: { subject: "Reset for {{ .Email }}", html: '<a href="{{ .ConfirmationURL }}">go</a>' } },
      data,
    );
    expect(custom.subject).toBe("Reset for a@example.test");
    expect(custom.html).toContain("token=pkce_abc&amp;type=signup");
  });

  it("take only the path of the redirect target", () => {
    expect(redirectPath("https://elsewhere.example/a?b=1#c")).toBe("/a?b=1#c");
    expect(redirectPath("not a url")).toBe("/");
  });
});
