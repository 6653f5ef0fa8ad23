import { describe, expect, it } from "vitest";
import { loggedPath, loggedUrlPath } from "./log-redaction";

describe("addresses as the logs write them (issue 35 L2)", () => {
  it("redacts the secret of a feed, an unsubscribe link and an invitation, keeping what the route adds", () => {
    expect(loggedPath("/calendar/4f9c2e1d8a7b6c5d4e3f2a1b0c9d8e7f.ics")).toBe("/calendar/[redacted].ics");
    expect(loggedPath("/unsubscribe/s3cr3t-t0ken")).toBe("/unsubscribe/[redacted]");
    expect(loggedPath("/unsubscribe/s3cr3t-t0ken.data")).toBe("/unsubscribe/[redacted].data");
    expect(loggedPath("/invitations/abc123?x=1")).toBe("/invitations/[redacted]?x=1");
    expect(loggedPath("/shared/Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6")).toBe("/shared/[redacted]");
  });

  it("as the routes match: any capitals, repeated slashes, a trailing part", () => {
    expect(loggedPath("/Calendar/SECRET.ICS")).toBe("/Calendar/[redacted].ICS");
    expect(loggedPath("//unsubscribe//SECRET/")).toBe("//unsubscribe//[redacted]/");
  });

  it("redacts one-time secrets in the query, and secret paths inside ?next=", () => {
    expect(loggedPath("/auth/confirm?token_hash=pkce_abc&type=email&next=%2Fteams")).toBe(
      "/auth/confirm?token_hash=[redacted]&type=email&next=%2Fteams",
    );
    expect(loggedPath("/auth/callback?code=9a8b7c&next=/account")).toBe("/auth/callback?code=[redacted]&next=/account");
    expect(loggedPath("/login?next=%2Finvitations%2Fabc123")).toBe(
      `/login?next=${encodeURIComponent("/invitations/[redacted]")}`,
    );
    expect(loggedPath("/login?Token=x")).toBe("/login?Token=[redacted]");
  });

  it("leaves everything else as it was, odd input included", () => {
    for (const path of [
      "/calendar",
      "/teams/acme/projects/WEB/calendar",
      "/teams?next=%zz",
      "/a?b&c=",
      "/account/calendar",
    ])
      expect(loggedPath(path)).toBe(path);
    expect(loggedUrlPath("http://x.test/unsubscribe/abc?y=2")).toBe("/unsubscribe/[redacted]?y=2");
  });
});
