import { describe, expect, it } from "vitest";
import { parseAddress, parseSearch } from "./inbox.ts";

describe("inbox helpers", () => {
  it("splits addresses as Mailpit shows them", () => {
    expect(parseAddress("Teamboard <no-reply@teamboard.local>")).toEqual({
      Name: "Teamboard",
      Address: "no-reply@teamboard.local",
    });
    expect(parseAddress("a@b.c")).toEqual({ Name: "", Address: "a@b.c" });
  });

  it("turns Mailpit search terms into bound SQL conditions", () => {
    const { where, params } = parseSearch('to:"a@b.c" subject:Confirm is:unread hello');
    expect(where).toEqual([
      "exists (select 1 from unnest(to_addresses) a where a ilike $1)",
      "subject ilike $2",
      "not read",
      "(subject ilike $3 or text_body ilike $3 or html_body ilike $3)",
    ]);
    expect(params).toEqual(["%a@b.c%", "%Confirm%", "%hello%"]);
    expect(parseSearch('to:"x\'; drop table y; --"').params).toEqual(["%x'; drop table y; --%"]);
  });
});
