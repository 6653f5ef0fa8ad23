import { describe, expect, it } from "vitest";
import { bodyLimitFor, MiB } from "./body-limits.server";

describe("body limits per route (issue 35 M1)", () => {
  it("files where files are posted, 1 MiB for every other form, whatever the spelling of the path", () => {
    expect(bodyLimitFor("/teams/acme/projects/WEB/tasks/12/attachments").bytes).toBe(64 * MiB);
    expect(bodyLimitFor("/teams/acme/projects/WEB/tasks/12/attachments.data").bytes).toBe(64 * MiB);
    expect(bodyLimitFor("/Teams/acme//projects/WEB/tasks/12/Attachments/").bytes).toBe(64 * MiB);
    expect(bodyLimitFor("/api/attachments")).toMatchObject({ bytes: 11 * MiB, json: true });
    expect(bodyLimitFor("/account").bytes).toBe(25 * MiB);
    expect(bodyLimitFor("/account.data").bytes).toBe(25 * MiB);
    for (const path of [
      "/login",
      "/api/preview",
      "/account/password",
      "/teams/acme/projects/WEB/tasks/12",
      "/x/attachments",
    ])
      expect(bodyLimitFor(path), path).toMatchObject({ bytes: 1 * MiB, json: false });
  });
});
